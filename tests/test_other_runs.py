"""A None that another run of the same gradient call site trains is by design (graph/other_runs.py).

A step that takes one gradient per task loss in a loop (and applies each) differentiates
another target each run: each head gets None from the other task's loss. Only one run is
analysed; a later run that returned a gradient for that head makes the analysed None by design.
Real TensorFlow.
"""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

import tapemagic
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf

STEP = """
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(3)
x = tf.constant(np.random.default_rng(3).normal(size=(16, 3)), tf.float32)
inputs = keras.Input((3,))
h = keras.layers.Dense(8, "relu", name="trunk")(inputs)
model = keras.Model(inputs, [keras.layers.Dense(1, name="a")(h),
                             keras.layers.Dense(1, name="b")(h)], name="mt")
spare = keras.layers.Dense(1, name="spare")
spare.build((None, 3))
weights = model.trainable_variables + {extra}
opt = keras.optimizers.SGD(0.01)

@tf.function
def step():
    with tf.GradientTape(persistent=True) as tape:
        out_a, out_b = model(x)
        losses = [tf.reduce_mean(out_a ** 2), tf.reduce_mean(out_b ** 2)]
    for loss in losses:
        opt.apply_gradients(zip(tape.gradient(loss, weights), weights))

for _ in range(2):
    step()
"""


def _run(tmp_path: Path, extra: str) -> Any:
    path = tmp_path / "step.py"
    path.write_text(textwrap.dedent(STEP.format(extra=extra)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    validate_report(check.report.to_json())
    return check.report


def test_a_head_the_other_task_loss_trains_is_no_cut(tmp_path: Path) -> None:
    report = _run(tmp_path, "[]")
    assert [f.rule for f in report.findings if f.severity in ("error", "warning")] == []
    assert any("each run differentiates its own target" in n for n in report.notes)


def test_a_weight_no_run_reaches_is_still_not_connected(tmp_path: Path) -> None:
    report = _run(tmp_path, "spare.trainable_variables")
    loud = [f for f in report.findings if f.severity in ("error", "warning")]
    assert [f.rule for f in loud] == ["TM104"]
    assert {v.rsplit("/", 1)[-1] for v in loud[0].variables} == {"kernel", "bias"}
    assert all("spare" in v for v in loud[0].variables)
