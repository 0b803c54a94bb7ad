"""The load-time self-test passes on supported TensorFlow and names a hook that breaks."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.tf


def test_self_test_passes_here() -> None:
    from tapemagic.tracing.selftest import self_test

    assert self_test() == ()


def test_broken_hook_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from tapemagic.tracing import _tf_private as tfp
    from tapemagic.tracing import keras_state
    from tapemagic.tracing.selftest import self_test

    monkeypatch.setattr(tfp, "registry_entry", lambda op_type: "fn")
    monkeypatch.setattr(keras_state, "keras_layer_path", lambda: "")
    problems = self_test.__wrapped__()
    assert any("gradient registry" in p for p in problems)
    assert all("2.16-2.21" in p for p in problems)


def test_report_carries_self_test_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    import tensorflow as tf

    import tapemagic
    from tapemagic import api  # noqa: F401 - the door under test
    from tapemagic.tracing import selftest

    monkeypatch.setattr(selftest, "self_test", lambda: ("self-test: op callbacks broke",))
    v = tf.Variable(1.0)
    with tapemagic.gradcheck() as check:
        with tf.GradientTape() as tape:
            y = v * 2.0
        tape.gradient(y, v)
    assert "self-test: op callbacks broke" in check.report.notes
