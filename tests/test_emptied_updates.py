"""The update, not the gradient, is zero: what an optimizer applied (``rules/emptied_updates.py``).

Real TensorFlow and Keras 3. Each broken program computes a usable gradient for every weight
and then turns it into zeros before the optimizer applies it (``tf.clip_by_global_norm`` with
a norm of 0, a scale of 0.0); TM501 names the weights at that line. Each correct one zeroes
an update on purpose or for a step only (a warmup from 0, gradient accumulation, a positive
clip norm, a guard against non-finite gradients, a layer frozen by masking) and stays silent.
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

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.constant(np.random.default_rng(0).normal(size=(32, 4)), tf.float32)
y = tf.reduce_sum(x, axis=1, keepdims=True)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, "tanh", name="hidden"),
                          keras.layers.Dense(1, name="out")], name="net")
optimizer = keras.optimizers.SGD(0.05)
"""

STEP = """
@tf.function
def step(n):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    {change}
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

for n in range(4):
    step(tf.constant(n, tf.float32))
"""

LOOP = """
for n in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    {change}
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""

CLIP_ZERO = "grads, _ = tf.clip_by_global_norm(grads, 0.0)  # ZEROED"
SCALE_ZERO = "grads = [g * 0.0 for g in grads]  # ZEROED"

# the scale rises from 0 on the first step: a warmup
WARMUP_SCALE = "grads = [g * tf.minimum(float(n) / 2.0, 1.0) for g in grads]"
CLIP_POSITIVE = "grads, _ = tf.clip_by_global_norm(grads, 1.0)"
FINITE_GUARD = ("grads = [tf.where(tf.math.is_finite(g), g, tf.zeros_like(g)) "
                "for g in grads]")
MASKED = ('grads = [tf.zeros_like(g) if "hidden" in v.path else g '
          "for g, v in zip(grads, model.trainable_variables)]")

# a learning rate schedule that starts at 0 and rises
WARMUP_SCHEDULE = """
class Warmup(keras.optimizers.schedules.LearningRateSchedule):
    def __call__(self, step):
        return 0.05 * tf.minimum(tf.cast(step, tf.float32) / 2.0, 1.0)

optimizer = keras.optimizers.SGD(Warmup())
""" + STEP.format(change="pass")

# the accumulated gradient is applied every second step, nothing in between
ACCUMULATED = """
total = [tf.zeros_like(v) for v in model.trainable_variables]
for n in range(8):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    total = [t + g for t, g in zip(total, grads)]
    if n % 2 == 1:
        optimizer.apply_gradients(zip(total, model.trainable_variables))
        total = [tf.zeros_like(v) for v in model.trainable_variables]
"""


def _run(tmp_path: Path, body: str) -> tuple[Any, str]:
    path = tmp_path / "cell.py"
    text = SETUP + textwrap.dedent(body)
    path.write_text(text)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(text, str(path), "exec"), namespace)  # noqa: S102
    validate_report(check.report.to_json())
    return check.report, text


def _loud(report: Any) -> list[tuple[str, int]]:
    return [(f.rule, f.location.line if f.location else 0) for f in report.findings
            if f.severity in ("error", "warning")]


@pytest.mark.parametrize(("frame", "change"), [
    (STEP, CLIP_ZERO), (LOOP, CLIP_ZERO), (STEP, SCALE_ZERO), (LOOP, SCALE_ZERO),
], ids=["clip-norm-0-traced", "clip-norm-0-eager", "scale-0-traced", "scale-0-eager"])
def test_an_update_zeroed_after_the_gradient_is_named_where_it_was_zeroed(
        tmp_path: Path, frame: str, change: str) -> None:
    report, text = _run(tmp_path, frame.format(change=change))
    # a traced step's ops are all recorded: the line that zeroed it; an eager loop's later
    # steps run unrecorded: the optimizer call given the zeros
    marker = "# ZEROED" if frame is STEP else "optimizer.apply_gradients"
    line = next(i for i, t in enumerate(text.splitlines(), start=1) if marker in t)
    assert _loud(report) == [("TM501", line)]
    (finding,) = report.findings
    assert finding.cause == "zero-at-runtime"
    assert sorted(finding.variables) == sorted(
        ["net/hidden/kernel", "net/hidden/bias",
         "net/out/kernel", "net/out/bias"])
    assert "was not zero" in finding.message
    # the gradients themselves were fine: every source is connected with a usable result
    assert {s.verdict for s in report.gradient_calls[0].sources} == {"connected"}


@pytest.mark.parametrize("body", [
    STEP.format(change=WARMUP_SCALE), LOOP.format(change=WARMUP_SCALE), WARMUP_SCHEDULE,
    ACCUMULATED, STEP.format(change=CLIP_POSITIVE), STEP.format(change=FINITE_GUARD),
    STEP.format(change=MASKED), LOOP.format(change=MASKED),
], ids=["warmup-scale-traced", "warmup-scale-eager", "warmup-schedule", "accumulation",
        "clip-positive", "finite-guard", "masked-traced", "masked-eager"])
def test_updates_zeroed_on_purpose_or_for_a_step_stay_silent(tmp_path: Path, body: str) -> None:
    report, _ = _run(tmp_path, body)
    assert not _loud(report)
    assert not [f for f in report.findings if f.rule == "TM501"]
