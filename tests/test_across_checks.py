"""A tape made in one check (cell) and differentiated in the next: no guessed cause.

The second check sees ``tape.gradient`` on a tape whose forward pass it never recorded; the
notebook shape of TensorFlow's autodiff guide (the tape in one cell, the gradient in the next).
"""

from __future__ import annotations

import pytest

import tapemagic

pytestmark = pytest.mark.tf


def test_a_tape_from_an_earlier_check_is_noted_not_guessed() -> None:
    import tensorflow as tf

    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        result = v0 if x > 0.0 else v0 ** 2
    with tapemagic.gradcheck() as check:
        dx = tape.gradient(result, x)
    assert dx is None
    report = check.report
    assert report is not None
    assert [f.rule for f in report.findings] == []  # not TM102: x was watched
    assert [s.verdict for c in report.gradient_calls for s in c.sources] == ["unexplained"]
    assert any("made before this check" in note for note in report.notes)


def test_a_tape_made_in_the_check_is_still_analysed() -> None:
    import tensorflow as tf

    x = tf.constant(1.0)
    with tapemagic.gradcheck() as check:
        with tf.GradientTape() as tape:
            y = x * 2.0
        tape.gradient(y, x)
    assert check.report is not None
    assert "TM102" in check.report.codes
    assert not any("made before this check" in note for note in check.report.notes)
