"""Correct training code modelled on keras-io examples gets no lint hint (false-positive hunt).

TF-free: sources are parsed, never run. Each entry is the shape of a real example the static
checker once hinted at by mistake; the hint on correct code is the worst bug, so each stays
here. The whole programs are in ``bench/cases/clean/``.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

CLEAN = {
    # keras-io's domain-adaptation shape: a gradient reversal layer (tf.custom_gradient) in a
    # functional model. The call runs on Keras symbolic tensors, traced into the model, so the
    # layers after it are model layers, not ops run off the tape.
    "a tf.custom_gradient function called on a functional model's symbolic tensor": """
        @tf.custom_gradient
        def reverse_gradient(t):
            def grad(dy):
                return -1.0 * dy
            return tf.identity(t), grad
        inp = keras.Input((6,))
        feat = keras.layers.Dense(16)(inp)
        dom = keras.layers.Dense(1)(reverse_gradient(feat))
        model = keras.Model(inp, [feat, dom])
        model.compile(optimizer="adam", loss="mse")
        """,
    "a gradient reversal Layer wrapping a tf.custom_gradient function, functional model": """
        @tf.custom_gradient
        def reverse_gradient(t):
            def grad(dy):
                return -dy
            return tf.identity(t), grad
        class GradientReversal(keras.layers.Layer):
            def call(self, t):
                return reverse_gradient(t)
        inp = keras.Input((6,))
        feat = keras.layers.Dense(16)(inp)
        dom = keras.layers.Dense(8, activation="relu")(GradientReversal()(feat))
        dom = keras.layers.Dense(1)(dom)
        model = keras.Model(inp, {"label": keras.layers.Dense(2)(feat), "domain": dom})
        model.compile(optimizer="adam", loss="mse")
        """,
}


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_program_gets_no_hint(name: str) -> None:
    assert hints(CLEAN[name]) == []


def test_custom_gradient_run_eagerly_outside_the_tape_still_hinted() -> None:
    # the same function on a model's eager output computed before the tape is still a cut
    found = hints("""
        @tf.custom_gradient
        def reverse_gradient(t):
            def grad(dy):
                return -dy
            return tf.identity(t), grad
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        out = reverse_gradient(model(x))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(out ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """)
    assert [code for code, _ in found] == ["TM103"]
