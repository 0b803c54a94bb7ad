"""An empty source list because ``trainable = False`` froze the weights: the freeze is the line.

Keras leaves frozen weights out of ``trainable_variables``; a step that takes that list gets
an empty one (TM109). When the weights its tape saw read were frozen by a ``trainable = False``
before the call and are still frozen, that line is the one to change, and the finding names
them (``Trace.switches.freezes``, noted by the ``trainable`` setter's hook). A freeze undone
before the step leaves nothing to report. Real TensorFlow and Keras 3.
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
critic = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, name="score")],
                             name="critic")

def setup():
    critic.trainable = False

setup()
{between}
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(critic(x) ** 2)
grads = tape.gradient(loss, critic.trainable_variables)
"""


def _run(tmp_path: Path, between: str) -> tuple[Any, list[str]]:
    path = tmp_path / "step.py"
    path.write_text(textwrap.dedent(STEP).format(between=between))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    return check.report, path.read_text().splitlines()


def test_the_freeze_that_emptied_the_list_is_the_line(tmp_path: Path) -> None:
    report, lines = _run(tmp_path, "")
    loud = [f for f in report.findings if f.severity in ("error", "warning")]
    assert [f.rule for f in loud] == ["TM109"]
    assert lines[loud[0].location.line - 1].strip() == "critic.trainable = False"
    assert set(loud[0].variables) == {"critic/score/kernel", "critic/score/bias"}
    assert "trainable = False" in loud[0].message and loud[0].fix is not None
    assert loud[0].fix.edits == ()


def test_a_freeze_undone_before_the_step_leaves_nothing(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, "critic.trainable = True")
    assert [f.rule for f in report.findings if f.severity in ("error", "warning")] == []


PLAIN = """
import tensorflow as tf
w = tf.Variable(2.0, name="w")
scale = tf.Variable(3.0, trainable=False, name="scale")
with tf.GradientTape() as tape:
    loss = w * scale
grads = tape.gradient(loss, [w, scale])
"""


def test_a_plain_variable_made_non_trainable_is_placed_where_it_was_made(tmp_path: Path) -> None:
    path = tmp_path / "plain.py"
    path.write_text(textwrap.dedent(PLAIN))
    with tapemagic.gradcheck() as check:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    loud = [f for f in check.report.findings if f.severity in ("error", "warning")]
    assert [f.rule for f in loud] == ["TM107"] and loud[0].variables == ("scale",)
    line = path.read_text().splitlines()[loud[0].location.line - 1]
    assert line.startswith("scale = tf.Variable(3.0, trainable=False")


def test_a_frozen_variable_and_a_model_s_statistics_in_the_sources_are_worded_apart(
        tmp_path: Path) -> None:
    # one rule, two shapes: the user's frozen tf.Variable was never watched (made trainable
    # or watched, it trains); BatchNorm's moving statistics came in with the source list
    # (the list is wrong): neither message may say what only the other shape means
    path = tmp_path / "both.py"
    path.write_text(textwrap.dedent(PLAIN) + textwrap.dedent("""
        import keras
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d"),
                                  keras.layers.BatchNormalization(name="bn")])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(tf.ones((2, 3)), training=True) ** 2)
        g = tape.gradient(loss, model.weights)
        """))
    with tapemagic.gradcheck() as check:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    made, listed = [f for f in check.report.findings if f.rule == "TM107"]
    assert made.variables == ("scale",) and "made with `trainable=False`" in made.message
    assert "trainable_variables" not in made.message
    assert "moving_mean" in " ".join(listed.variables)
    assert "source list took in" in listed.message and "trainable=False" not in listed.message
