"""Small Keras models the Keras-callback tests share (Keras is imported when one is built)."""

from __future__ import annotations

from typing import Any


def branch_model(cut: bool) -> Any:
    """A model whose branch ``a`` reaches the output through argmax (``cut``) or directly."""
    import keras
    import tensorflow as tf

    class Branches(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.a = keras.layers.Dense(3, name="a")
            self.b = keras.layers.Dense(1, name="b")
            self.c = keras.layers.Dense(1, name="c")

        def call(self, x: Any) -> Any:
            h = self.a(x)
            if cut:
                h = tf.cast(tf.argmax(h, axis=1), tf.float32)[:, None]
            return self.b(x) + self.c(h)

    keras.utils.set_random_seed(0)
    return Branches()
