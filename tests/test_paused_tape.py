"""An op the tape did not record because it ran in ``tape.stop_recording()``: the block's line.

The line to change is the ``with tape.stop_recording():`` that took the forward pass off the
tape, not the op inside it (tapes.py records each block's span and line,
``TapeRecord.pauses``; TM103 places there). Correct code that pauses the tape around logging
stays silent. Real TensorFlow; the static checker hints at the same line.
"""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

import tapemagic
from tapemagic.lint import check_source

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
        with tape.stop_recording():
            {paused}
        {recorded}
    return tape.gradient(loss, dense.trainable_variables)

step()
"""


def _run(tmp_path: Path, deco: str, paused: str, recorded: str) -> Any:
    path = tmp_path / "step.py"
    path.write_text(textwrap.dedent(STEP).format(deco=deco, paused=paused, recorded=recorded))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with tapemagic.gradcheck() as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    return check.report, path.read_text().splitlines()


@pytest.mark.parametrize("deco", ["", "@tf.function"])
def test_a_forward_pass_in_stop_recording_is_placed_at_the_block(tmp_path: Path,
                                                                 deco: str) -> None:
    report, lines = _run(tmp_path, deco, "out = dense(x)", "loss = tf.reduce_sum(out ** 2)")
    loud = [f for f in report.findings if f.severity in ("error", "warning")]
    assert [f.rule for f in loud] == ["TM103"]
    assert lines[loud[0].location.line - 1].strip() == "with tape.stop_recording():"
    assert loud[0].primary and set(loud[0].variables) == {"d/kernel", "d/bias"}


def test_logging_in_stop_recording_stays_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, "@tf.function", "seen = tf.reduce_mean(x)",
                     "loss = tf.reduce_sum(dense(x) ** 2) + 0.0 * seen")
    assert [f.rule for f in report.findings if f.severity in ("error", "warning")] == []


def test_lint_hints_the_stop_recording_line() -> None:
    source = textwrap.dedent(STEP).format(deco="", paused="out = dense(x)",
                                          recorded="loss = tf.reduce_sum(out ** 2)")
    hints = [h for h in check_source(source) if h.code == "TM103"]
    lines = source.splitlines()
    assert hints and {lines[h.line - 1].strip() for h in hints} == {
        "with tape.stop_recording():"}
