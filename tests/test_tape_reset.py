"""An op a ``tape.reset()`` discarded after the tape recorded it: the reset's line.

GradientTape.reset "clears all information stored in this tape" (backprop.py): whatever ran
before it inside the ``with`` block is gone, so a loss computed there reaches no weight. The
line to change is the reset (tapes.py notes the spans each reset discarded and its line,
``Switches.resets``; TM103 places there), not the forward pass it discarded. A reset before
the differentiated forward pass (as the documentation shows it) stays silent.
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
dense = tf.keras.layers.Dense(2, name="d")
dense.build((None, 3))

{deco}
def step():
    with tf.GradientTape() as tape:
        {body}
    return tape.gradient(loss, dense.trainable_variables)

grads = step()
"""


def _run(tmp_path: Path, deco: str, body: str) -> Any:
    path = tmp_path / "step.py"
    body = textwrap.indent(textwrap.dedent(body), " " * 8).lstrip()
    path.write_text(textwrap.dedent(STEP).format(deco=deco, body=body))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    return check.report, path.read_text().splitlines()


def _loud(report: Any) -> list[Any]:
    return [f for f in report.findings if f.severity in ("error", "warning")]


@pytest.mark.parametrize("deco", ["", "@tf.function"])
def test_a_reset_after_the_forward_pass_is_the_line(tmp_path: Path, deco: str) -> None:
    report, lines = _run(tmp_path, deco, """
        loss = tf.reduce_sum(dense(x) ** 2)
        tape.reset()
    """)
    loud = _loud(report)
    assert [f.rule for f in loud] == ["TM103"]
    assert lines[loud[0].location.line - 1].strip() == "tape.reset()"
    assert loud[0].primary and set(loud[0].variables) == {"d/kernel", "d/bias"}


def test_resets_in_a_loop_are_one_finding_at_the_reset(tmp_path: Path) -> None:
    report, lines = _run(tmp_path, "", """
        loss = 0.0
        for row in range(2):
            loss += tf.reduce_sum(dense(x[row:row + 1]) ** 2)
            tape.reset()
    """)
    loud = _loud(report)
    assert [lines[f.location.line - 1].strip() for f in loud] == ["tape.reset()"]


@pytest.mark.parametrize("deco", ["", "@tf.function"])
def test_a_reset_before_the_forward_pass_stays_silent(tmp_path: Path, deco: str) -> None:
    report, _ = _run(tmp_path, deco, """
        warm = tf.reduce_sum(dense(x))
        tape.reset()
        loss = tf.reduce_sum(dense(x) ** 2) + 0.0 * tf.stop_gradient(warm)
    """)
    assert _loud(report) == []
