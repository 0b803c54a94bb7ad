"""tapemagic's own bookkeeping never breaks the user's op: a recorder error stops recording."""

from __future__ import annotations

import pytest

import tapemagic

pytestmark = pytest.mark.tf


def test_a_recorder_error_leaves_the_op_alone_and_is_noted(monkeypatch: pytest.MonkeyPatch) -> None:
    import tensorflow as tf

    from tapemagic.tracing import recorder

    def broken(self: object, *args: object, **kwargs: object) -> None:
        raise KeyError("bookkeeping")

    monkeypatch.setattr(recorder.Recorder, "record_op", broken)
    w = tf.Variable([1.0, 2.0])
    with tapemagic.gradcheck() as check:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * 3.0)
        grad = tape.gradient(loss, w)
    assert grad.numpy().tolist() == [3.0, 3.0]  # the user's ops ran unchanged
    assert check.report is not None
    assert any("recorder failed (KeyError" in note for note in check.report.notes)
