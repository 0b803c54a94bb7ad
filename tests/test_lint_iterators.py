"""A one-shot iterator of gradients and variables consumed before the optimizer reads it.

TF-free: sources are parsed, never run. Python's ``zip`` (``map``, ``filter``...) returns an
iterator: a loop that walks ``grads_and_vars`` to log each norm consumes it, and the
``apply_gradients`` that reads it next gets no pair (horovod/horovod#2394's kind). Hinted at
the binding (make it a list). Correct look-alikes stay silent: a list, a zip made again for
the optimizer, a reader that may not run, a zip read once. Our code.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

STEP = """
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    opt = keras.optimizers.Adam(1e-2)

    @tf.function
    def step(a, b):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(a) - b))
        grads = tape.gradient(loss, model.trainable_variables)
        pairs = {made}
        {log}
        opt.apply_gradients({given})
        return loss

    step(x, y)
    """
ZIP = "zip(grads, model.trainable_variables)"

BAD = {
    "a list comprehension logs the norms first": (STEP.format(
        made=ZIP, log="norms = [tf.norm(g) for g, _ in pairs]", given="pairs"),
        [("TM109", 9)]),
    "a for loop prints each gradient first": (STEP.format(
        made=ZIP, log="for g, v in pairs:\n            tf.print(v.name, tf.norm(g))",
        given="pairs"), [("TM109", 9)]),
    "list() of the pairs kept for later, then the iterator given": (STEP.format(
        made=ZIP, log="kept = list(pairs)", given="pairs"), [("TM109", 9)]),
}

SPLIT = """
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
    first, second = keras.optimizers.Adam(1e-2), keras.optimizers.SGD(0.1)

    @tf.function
    def step(a, b):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(a) - b))
        grads = tape.gradient(loss, model.trainable_variables)
        pairs = {made}
        kernels = [(g, v) for g, v in pairs if "kernel" in v.name]
        others = [(g, v) for g, v in pairs if "kernel" not in v.name]
        first.apply_gradients(kernels)
        {last}
        return loss

    step(x, y)
    """
BAD["the pairs split between two optimizers (larq/larq#287's kind)"] = (SPLIT.format(
    made=ZIP, last="second.apply_gradients(others)"), [("TM109", 9)])

CLEAN = {
    "the listed pairs split between two optimizers": SPLIT.format(
        made=f"list({ZIP})", last="second.apply_gradients(others)"),
    "the second split only printed": SPLIT.format(made=ZIP, last="tf.print(len(others))"),
    "the pairs kept in a list": STEP.format(
        made=f"list({ZIP})", log="norms = [tf.norm(g) for g, _ in pairs]", given="pairs"),
    "a new zip for the optimizer": STEP.format(
        made=ZIP, log="norms = [tf.norm(g) for g, _ in pairs]", given=ZIP),
    "the zip read once": STEP.format(made=ZIP, log="pass", given="pairs"),
    "the zip bound again before the optimizer": STEP.format(
        made=ZIP, log=f"norms = [tf.norm(g) for g, _ in pairs]\n        pairs = {ZIP}",
        given="pairs"),
    "a logging loop that runs only when asked": STEP.format(
        made=ZIP, log="if False:\n            norms = [tf.norm(g) for g, _ in pairs]",
        given="pairs"),
    "a lazy generator over the pairs, never run": STEP.format(
        made=ZIP, log="norms = (tf.norm(g) for g, _ in pairs)", given="pairs"),
    "a zip rebound in each run of a loop": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        opt = keras.optimizers.SGD(0.1)
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            pairs = zip(grads, model.trainable_variables)
            opt.apply_gradients(pairs)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_consumed_zip_is_hinted_where_it_is_made(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []
