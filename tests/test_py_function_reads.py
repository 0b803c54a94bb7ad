"""A weight read only inside a traced ``tf.py_function``'s body: the py_function is the line.

TensorFlow runs the body under a tape of its own (``script_ops.EagerFunc``); the variables
that tape watched are the body's reads (``PyBody.read_handles``). The op's gradient reaches
only the tensors passed in ``inp``, so such a weight is not connected, and the line to change
is the ``tf.py_function`` call (TM104), not where the weight was made. A body that reads only
data, or weights the step does not train, stays silent. Real TensorFlow, graph mode.
"""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

import tapemagic

pytestmark = pytest.mark.tf

STEP = """
import numpy as np
import tensorflow as tf
x = tf.constant(np.random.default_rng(0).normal(size=(8, 3)), tf.float32)
inner = tf.keras.layers.Dense(3, name="inner")
inner.build((None, 3))
outer = tf.keras.layers.Dense(3, name="outer")
outer.build((None, 3))

def body(t):
    return inner(t) * 2.0

@tf.function
def step():
    with tf.GradientTape() as tape:
        out = tf.py_function(body, [outer(x)], tf.float32)
        loss = tf.reduce_sum(out ** 2)
    return tape.gradient(loss, {sources})

step()
"""


def _run(tmp_path: Path, sources: str) -> tuple[Any, list[str]]:
    path = tmp_path / "step.py"
    path.write_text(textwrap.dedent(STEP).format(sources=sources))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    return check.report, path.read_text().splitlines()


def test_a_layer_called_in_the_body_is_placed_at_the_py_function(tmp_path: Path) -> None:
    report, lines = _run(tmp_path, "outer.trainable_variables + inner.trainable_variables")
    loud = [f for f in report.findings if f.severity in ("error", "warning")]
    assert [f.rule for f in loud] == ["TM104"]
    assert "tf.py_function(body" in lines[loud[0].location.line - 1]
    assert set(loud[0].variables) == {"inner/kernel", "inner/bias"} and loud[0].primary
    assert "py_function" in loud[0].message


def test_weights_the_body_reads_but_the_step_does_not_train_stay_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, "outer.trainable_variables")
    assert [f.rule for f in report.findings if f.severity in ("error", "warning")] == []
