"""A notebook run on a plain kernel (nbclient: no JupyterLab, no comm, no server extension).

Shared by tests/test_plain_kernel.py (what the cells display) and tests/ui/test_html_frontends.py
(the executed notebook shown by nbconvert's HTML and by a JupyterLab without the extension).
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
#: A cut under %%gradcheck, the same cut under %gradcheck on, and a correct cell after it.
CELLS = [
    "%load_ext tapemagic",
    "%%gradcheck\nimport numpy as np\nimport tensorflow as tf\n"
    "w = tf.Variable([1.0, 2.0], name='w')\n"
    "with tf.GradientTape() as tape:\n"
    "    loss = tf.reduce_sum(tf.constant(np.square(w.numpy())))\n"
    "grads = tape.gradient(loss, [w])",
    "%gradcheck on",
    "v = tf.Variable([3.0], name='v')\nwith tf.GradientTape() as tape:\n"
    "    loss = tf.reduce_sum(tf.constant(v.numpy() * 2.0))\ngrads = tape.gradient(loss, [v])",
    "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(v * v)\n"
    "grads = tape.gradient(loss, [v])\nprint(float(grads[0][0]))",
    "%gradcheck off",
]


def execute_plain(folder: Path, name: str = "plain.ipynb") -> Path:
    """Write the notebook into ``folder``, run it with nbclient, save it, return its path."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0",
           "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                         if p)}
    client = NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(folder)}})
    client.execute(env=env)
    path = folder / name
    nbformat.write(nb, path)
    return path
