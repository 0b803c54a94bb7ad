"""A model evaluated twice where its twin was meant: the second evaluation is the line (TM104).

Two models made by the same code (a twin critic); the step evaluates the first twice and the
second never, so the second's weights are not connected. The line to change is the later
evaluation of the first, not where the weights were made. A model evaluated twice on purpose
beside a target copy made by the same code (not among the sources) stays silent. Real
TensorFlow, graph mode.
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

def make(name):
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, name="q")],
                               name=name)

one, two = make("one"), make("two")

@tf.function
def step():
    with tf.GradientTape() as tape:
        a = one(x)
        b = {second}(x + 1.0)
        loss = tf.reduce_mean(a ** 2) + tf.reduce_mean(tf.stop_gradient(b) * a) {extra}
    return tape.gradient(loss, {sources})

step()
"""


def _run(tmp_path: Path, **parts: str) -> tuple[Any, list[str]]:
    path = tmp_path / "step.py"
    path.write_text(textwrap.dedent(STEP).format(**parts))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    return check.report, path.read_text().splitlines()


def test_the_twin_evaluated_again_is_the_line(tmp_path: Path) -> None:
    report, lines = _run(tmp_path, second="one", extra="+ tf.reduce_mean(b ** 2)",
                         sources="one.trainable_variables + two.trainable_variables")
    loud = [f for f in report.findings if f.severity in ("error", "warning")]
    assert [f.rule for f in loud] == ["TM104"]
    assert lines[loud[0].location.line - 1].strip() == "b = one(x + 1.0)"
    assert set(loud[0].variables) == {"two/q/kernel", "two/q/bias"} and loud[0].primary


def test_one_model_twice_beside_a_target_copy_stays_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, second="two", extra="+ tf.reduce_mean(one(x * 2.0) ** 2)",
                     sources="one.trainable_variables")
    assert [f.rule for f in report.findings if f.severity in ("error", "warning")] == []
