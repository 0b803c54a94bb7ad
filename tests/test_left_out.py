"""A loss term computed from the weights but left out of the total: the total's line (TM104).

The value head of an actor-critic step reaches the total loss only through the advantage the
user stop_gradient'ed on purpose, and the value loss computed from it is never added. The cut
to fix is the missing term, at the line that built the total (``graph/left_out.py``), not
the deliberate ``tf.stop_gradient`` (TM401 leaves it alone). A step that adds the term and
logs another stays silent; a ``stop_gradient`` with no such term is still TM401. Real
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
rng = np.random.default_rng(0)
x = tf.constant(rng.normal(size=(16, 3)), tf.float32)
g = tf.constant(rng.normal(size=(16, 1)), tf.float32)
pi = tf.keras.layers.Dense(2, name="pi")
pi.build((None, 3))
v = tf.keras.layers.Dense(1, name="v")
v.build((None, 3))

@tf.function
def step():
    with tf.GradientTape() as tape:
        value = v(x)
        adv = tf.stop_gradient(g - value)
        policy_loss = -tf.reduce_mean(tf.nn.log_softmax(pi(x))[:, :1] * adv)
        {value_line}
        total = {total}
    return tape.gradient(total, pi.trainable_variables + v.trainable_variables)

step()
"""


def _run(tmp_path: Path, value_line: str, total: str) -> tuple[Any, list[str]]:
    path = tmp_path / "step.py"
    path.write_text(textwrap.dedent(STEP).format(value_line=value_line, total=total))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    return check.report, path.read_text().splitlines()


def _loud(report: Any) -> list[Any]:
    return [f for f in report.findings if f.severity in ("error", "warning")]


def test_a_value_loss_left_out_is_placed_at_the_total(tmp_path: Path) -> None:
    report, lines = _run(tmp_path, "value_loss = tf.reduce_mean((g - value) ** 2)",
                         "policy_loss * 1.0")
    loud = _loud(report)
    assert [f.rule for f in loud] == ["TM104"]
    assert lines[loud[0].location.line - 1].strip() == "total = policy_loss * 1.0"
    assert set(loud[0].variables) == {"v/kernel", "v/bias"} and loud[0].primary


def test_a_term_added_and_another_logged_stays_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, "value_loss, shown = tf.reduce_mean((g - value) ** 2), "
                               "tf.reduce_mean(tf.abs(g - value))",
                     "policy_loss + value_loss")
    assert _loud(report) == []


def test_a_stop_gradient_with_no_term_left_out_is_still_tm401(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, "pass", "policy_loss * 1.0")
    assert [f.rule for f in _loud(report)] == ["TM401"]
