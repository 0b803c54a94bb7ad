"""``run NOTEBOOK --output executed.ipynb``, opened in JupyterLab: the extension renders it.

One real notebook run (nbclient kernel, TensorFlow) writes the executed notebook into the
server's root; JupyterLab then shows, with no kernel started, the report under the cell that
ran the tape (graph with the cut, the finding's card) and the editor mark on the line of the
earlier cell where the cut is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
CELLS = [
    "import numpy as np\nimport tensorflow as tf\nw = tf.Variable([1.0, 2.0], name='w')",
    "def loss_fn():\n    return tf.reduce_sum(np.square(w.numpy()))",
    "with tf.GradientTape() as tape:\n    loss = loss_fn()\ngrads = tape.gradient(loss, [w])",
]


@pytest.fixture(scope="module")
def executed(lab_root: Path) -> str:
    pytest.importorskip("tensorflow")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nbformat.write(nb, lab_root / "to_run.ipynb")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", "--output",
                           "executed.ipynb", "to_run.ipynb"], cwd=lab_root, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stderr  # the cut is an error finding
    return "executed.ipynb"


def test_executed_notebook_renders_its_reports_in_lab(lab_server, executed, page, shot):
    page.goto(f"{lab_server}/lab/tree/{executed}?reset")
    page.wait_for_function(
        "p => window.jupyterapp?.shell.currentWidget?.context?.path === p", arg=executed,
        timeout=60_000)
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    cells.first.wait_for(timeout=60_000)
    report = cells.nth(2).locator(".jp-OutputArea-output .jp-tapemagic-report")
    report.wait_for(timeout=30_000)
    assert cells.nth(0).locator(".jp-tapemagic-report").count() == 0  # no gradient there
    svg = report.locator("svg.jp-tapemagic-svg")
    svg.wait_for(timeout=30_000)
    assert "\u2702 TM301" in (svg.text_content() or "")
    card = report.locator(".jp-tapemagic-card")
    assert card.count() == 1 and "TM301" in card.inner_text()
    # the finding is in the cell that defines loss_fn: the editor mark goes there
    mark = cells.nth(1).locator(".cm-lintRange-error").first
    mark.wait_for(timeout=30_000)
    assert "numpy" in (mark.text_content() or "")
    shot(page, "executed_notebook")
