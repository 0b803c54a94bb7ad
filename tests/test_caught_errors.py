"""Errors the user's own code caught are still the cause of the cut they leave behind.

A ``tape.watch(model.inputs)`` that raised inside a ``try`` leaves the tensor unwatched: one
finding (TM108) at the watch, not a TM102 pair at the tape and where the tensor was made. A
``tape.gradient`` that raised ``LookupError`` (an op with no registered gradient) and was
caught names that op (TM201) even when another path connects the weights. Each program runs
eagerly and as a ``tf.function`` (graph mode, as written); correct programs of the same shape
stay silent.
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf

_MODES = ["eager", "function"]


def _run(run_checked: RunChecked, source: str, mode: str) -> tuple[Report, list[int]]:
    """Run ``source`` (``@FUNCTION`` marks where ``@tf.function`` goes in graph mode)."""
    return run_checked(source.replace("@FUNCTION", "@tf.function" if mode == "function" else ""))


_SALIENCY = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    images = tf.constant(np.random.default_rng(1).random((4, 6, 6, 1)).astype("float32"))
    labels = tf.constant([0, 1, 2, 1])
    model = tf.keras.Sequential([tf.keras.layers.Input((6, 6, 1)),
                                 tf.keras.layers.Conv2D(2, 3, name="conv"),
                                 tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(3, name="logits")], name="cnn")
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @FUNCTION
    def saliency(images, labels):
        with tf.GradientTape() as tape:
            try:
                tape.watch(model.inputs)  # <-
            except (ValueError, TypeError):
                FALLBACK
            loss = loss_object(labels, model(images))
        return tape.gradient(loss, images)

    grad = saliency(images, labels)
    """


@pytest.mark.parametrize("mode", _MODES)
def test_a_caught_failed_watch_is_one_finding_at_the_watch(
        run_checked: RunChecked, mode: str) -> None:
    report, marked = _run(run_checked, _SALIENCY.replace("FALLBACK", "pass"), mode)
    assert [(f.rule, f.location.line if f.location else None) for f in report.findings] == [
        ("TM108", marked[0])], [(f.rule, f.message) for f in report.findings]
    assert report.findings[0].primary and report.findings[0].variables == ("images",)
    sources = [s for c in report.gradient_calls for s in c.sources]
    assert [s.verdict for s in sources] == ["severed"]
    assert sources[0].finding_ids == (report.findings[0].id,)


@pytest.mark.parametrize("mode", _MODES)
def test_a_caught_failed_watch_with_a_fallback_watch_is_silent(run_checked: RunChecked,
                                                               mode: str) -> None:
    report, _ = _run(run_checked, _SALIENCY.replace("FALLBACK", "tape.watch(images)"), mode)
    assert report.findings == (), [(f.rule, f.message) for f in report.findings]
    assert [s.verdict for c in report.gradient_calls for s in c.sources] == ["connected"]


def test_a_caught_keras_variable_watch_leaves_an_unwatched_tensor_to_tm102(
        run_checked: RunChecked) -> None:
    # a failed watch of a Keras variable says nothing about a tensor source left unwatched
    report, marked = _run(run_checked, """
        import tensorflow as tf

        layer = tf.keras.layers.Dense(1, name="d")
        layer.build((None, 2))
        x = tf.constant([[1.0, 2.0]])
        with tf.GradientTape(watch_accessed_variables=False) as tape:  # <-
            try:
                tape.watch(layer.kernel)
            except ValueError:
                pass
            y = tf.reduce_sum(layer(x))
        g = tape.gradient(y, x)
        """, "eager")
    assert ("TM102", marked[0]) in [(f.rule, f.location.line if f.location else None)
                                    for f in report.findings]
    assert all(f.rule != "TM108" or "x" not in f.variables for f in report.findings)


_SCORER = """
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(8)
    x = rng.normal(size=(16, 3)).astype("float32")
    y = rng.normal(size=(16,)).astype("float32")
    model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                 tf.keras.layers.Dense(1, name="s")], name="scorer")

    @FUNCTION
    def step(x, y):
        with tf.GradientTape() as tape:
            scores = tf.reshape(model(x), [-1])
            mse = tf.reduce_mean(tf.square(scores - y))
            REGULARISER
            loss = mse + 0.1 * tf.reduce_mean(tf.square(kept))
        try:
            return tape.gradient(loss, model.trainable_weights)
        except LookupError:
            return None

    step(x, y)
    """


@pytest.mark.parametrize("mode", _MODES)
def test_a_caught_lookup_error_names_the_op_with_no_gradient(
        run_checked: RunChecked, mode: str) -> None:
    report, marked = _run(run_checked, _SCORER.replace(
        "REGULARISER", "kept, _ = tf.unique(scores)  # <-"), mode)
    assert [(f.rule, f.op_type, f.location.line if f.location else None)
            for f in report.findings] == [("TM201", "Unique", marked[0])], \
        [(f.rule, f.message) for f in report.findings]
    assert set(report.findings[0].variables) == {"scorer/s/kernel", "scorer/s/bias"}
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"severed"}
    assert "get no gradient" in report.headline


@pytest.mark.parametrize("mode", _MODES)
def test_the_same_regulariser_with_a_gradient_is_silent(run_checked: RunChecked, mode: str) -> None:
    report, _ = _run(run_checked, _SCORER.replace("REGULARISER", "kept = tf.sort(scores)"), mode)
    assert report.findings == (), [(f.rule, f.message) for f in report.findings]
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"connected"}
