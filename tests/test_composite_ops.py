"""A library op made of several TensorFlow ops is one cut at the line the user wrote.

``keras.ops.argmax`` runs seven TensorFlow ops in the TensorFlow backend (an ``ArgMax`` and the
bit tricks that order -0.0 before 0.0); ``keras.ops.one_hot`` of it is cut only because the
argmax was. One cause at one place is one finding: exactly one warning/error finding, at the
line, named after the op the call is named after. Correct code that uses the same ops for a
metric stays silent.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from checked import run_program

import tapemagic

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")

_CELL = """\
import numpy as np
import keras
import tensorflow as tf

model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(3, name="d")], name="net")
x = tf.constant(np.random.default_rng(0).normal(size=(8, 4)).astype("float32"))
y = tf.one_hot([0, 1, 2, 0, 1, 2, 0, 1], 3)

@tf.function
def step():
    with tf.GradientTape() as tape:
        logits = model(x)
        LOSS
    return tape.gradient(loss, model.trainable_variables), accuracy

for _ in range(3):
    step()
"""

_BROKEN = {
    "one_hot_argmax": ("hard = keras.ops.one_hot(keras.ops.argmax(logits, axis=-1), 3)  # CUT",
                       "non-differentiable-op", "ArgMax"),
    "round": ("hard = keras.ops.round(keras.ops.sigmoid(logits))  # CUT",
              "non-differentiable-op", "Round"),
    "argsort": ("hard = keras.ops.cast(keras.ops.argsort(logits, axis=-1), 'float32')  # CUT",
                "integer-dtype", "TopKV2"),
}


def _check(loss: str, force_eager: bool) -> tapemagic.Check:
    body = "\n        ".join(loss.splitlines())
    cell = _CELL.replace("LOSS", body)
    return run_program(None, cell, name=f"<composite-{abs(hash((cell, force_eager)))}>",
                       force_eager=force_eager).check


def _loud(check: tapemagic.Check) -> list[Any]:
    assert check.report is not None
    return [f for f in check.report.findings if f.severity in ("warning", "error")]


@pytest.mark.parametrize("force_eager", [False, True])
@pytest.mark.parametrize("name", sorted(_BROKEN))
def test_a_keras_op_in_the_loss_is_one_finding(name: str, force_eager: bool) -> None:
    line, cause, op_type = _BROKEN[name]
    loss = textwrap.dedent(f"""\
        {line}
        loss = keras.ops.mean((hard - y) ** 2)
        accuracy = 0.0""")
    check = _check(loss, force_eager)
    loud = _loud(check)
    assert len(loud) == 1, [(f.rule, f.op_type, f.location) for f in loud]
    finding = loud[0]
    assert finding.cause == cause and finding.primary
    assert finding.op_type == op_type
    cut = next(i for i, text in enumerate(_CELL.replace("LOSS", line).splitlines(), 1)
               if "# CUT" in text)
    assert finding.location is not None and finding.location.line == cut
    assert finding.api is not None and "keras.ops." in finding.api
    assert set(finding.variables) == {"net/d/kernel", "net/d/bias"}


@pytest.mark.parametrize("force_eager", [False, True])
def test_keras_argmax_for_a_metric_only_is_silent(force_eager: bool) -> None:
    loss = textwrap.dedent("""\
        loss = keras.ops.mean(keras.losses.categorical_crossentropy(y, logits, from_logits=True))
        hits = keras.ops.argmax(logits, axis=-1) == keras.ops.argmax(y, axis=-1)
        accuracy = keras.ops.mean(keras.ops.cast(hits, "float32"))""")
    check = _check(loss, force_eager)
    assert _loud(check) == []
    assert all(s.verdict == "connected" for c in check.report.gradient_calls  # type: ignore[union-attr]
               for s in c.sources)
