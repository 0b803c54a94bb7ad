"""``%%gradcheck --verify-fixes``: the user's session is never touched by the re-runs.

Each scenario runs in its own fresh Python process holding a kernel-less IPython shell (the
verification starts its own re-run process from there), once with ``--verify-fixes`` and once
without, and the two sessions are compared: the model's weights, the optimizer's iteration
count and what the cell printed must be identical, while only the first report says its fix
was verified.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapemagic.verify import CHILD_ENV

pytestmark = pytest.mark.tf
ROOT = Path(__file__).resolve().parent.parent

SESSION = r'''
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

shell = InteractiveShell.instance()
cells = [
    "%load_ext tapemagic",
    "import numpy as np\nimport tensorflow as tf\ntf.keras.utils.set_random_seed(0)\n"
    "x = np.random.default_rng(1).normal(size=(8, 3)).astype('float32')\n"
    "y = np.ones((8, 1), 'float32')\n"
    "model = tf.keras.Sequential([tf.keras.layers.Input((3,)),\n"
    "                             tf.keras.layers.Dense(1, name='d')], name='m')\n"
    "opt = tf.keras.optimizers.Adam(0.1)\n",
    "%%gradcheck rep" + sys.argv[1] + "\n"
    "with tf.GradientTape() as tape:\n"
    "    loss = tf.reduce_mean((y - model(x).numpy()) ** 2)\n"
    "grads = tape.gradient(loss, model.trainable_variables)\n"
    "opt.apply_gradients([(tf.ones_like(v) if g is None else g, v)\n"
    "                     for g, v in zip(grads, model.trainable_variables)])\n"
    "print('CELL-PRINT', int(opt.iterations))\n",
]
for cell in cells:
    with capture_output() as cap:
        result = shell.run_cell(cell, store_history=True)
    assert result.error_in_exec is None, result.error_in_exec
ns = shell.user_ns
print("SESSION", json.dumps({
    "weights": [v.numpy().tolist() for v in ns["model"].weights],
    "optimizer": [v.numpy().tolist() for v in ns["opt"].variables],
    "iterations": int(ns["opt"].iterations), "stdout": cap.stdout,
    "shown": [o.data.get("text/plain", "") for o in cap.outputs],
    "fixes": [[f.fix.verified, f.fix.verification] for f in ns["rep"].findings]}))
'''


def _session(line: str) -> dict:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop(CHILD_ENV, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", SESSION, line], env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    found = [ln for ln in done.stdout.splitlines() if ln.startswith("SESSION ")]
    assert found, done.stderr[-3000:]
    return json.loads(found[0].removeprefix("SESSION "))


@pytest.mark.slow
def test_verify_fixes_leaves_weights_optimizer_and_output_unchanged() -> None:
    verified, plain = _session(" --verify-fixes"), _session("")
    ((ok, note),) = verified["fixes"]
    assert ok is True and note.startswith("every weight it named now gets a gradient: "
                                          "`m/d/kernel`, `m/d/bias`; the loss of the checked "
                                          "step is unchanged (")
    assert plain["fixes"] == [[None, None]]
    # the re-run trained its own copy of the model: nothing of it reached this session
    assert verified["weights"] == plain["weights"]
    assert verified["optimizer"] == plain["optimizer"]
    assert verified["iterations"] == plain["iterations"] == 1
    assert verified["stdout"] == plain["stdout"] == "CELL-PRINT 1\n"
    (shown,) = verified["shown"]
    assert "(unsafe fix: review before applying, verified)" in shown
    assert "re-run with this fix" in shown
