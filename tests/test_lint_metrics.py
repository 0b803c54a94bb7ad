"""A Keras metric object's result is read from its own variables: no gradient reaches it.

TF-free: sources are parsed, never run. ``update_state`` (or calling the metric) accumulates
into the metric's variables with ``assign_add`` and ``result()`` reads them back, so a loss made
from a metric's result has no path to the weights (keras-team/keras#1732's kind: 1 - AUC as a
loss). A metric updated beside the loss, for logging, is silent.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import tensorflow as tf
import keras
x = tf.ones((8, 3))
y = tf.ones((8, 1))
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body).lstrip("\n")
    compile(source, "<test>", "exec")
    return sorted({(h.code, h.line - OFFSET) for h in check_source(source)})


BAD = {
    "1 - AUC as the loss": ("""
        auc = keras.metrics.AUC()
        with tf.GradientTape() as tape:
            auc.update_state(y, model(x))
            loss = 1.0 - auc.result()
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM402", 3)]),
    "a metric object called as the loss": ("""
        mse = tf.keras.metrics.MeanSquaredError()
        with tf.GradientTape() as tape:
            loss = mse(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM402", 3)]),
}

GOOD = {
    "a metric updated beside the loss, for logging": """
        auc = keras.metrics.AUC()
        with tf.GradientTape() as tape:
            pred = model(x)
            loss = tf.reduce_mean(keras.losses.binary_crossentropy(y, pred))
            auc.update_state(y, pred)
        grads = tape.gradient(loss, model.trainable_variables)
        print(float(auc.result()))
        """,
    "a loss tracker in a custom train_step": """
        class Model(keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = keras.layers.Dense(1)
                self.tracker = keras.metrics.Mean(name="loss")

            def train_step(self, data):
                a, b = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.dense(a) - b))
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                self.tracker.update_state(loss)
                return {"loss": self.tracker.result()}
        """,
    "the loss object of the same name": """
        mse = keras.losses.MeanSquaredError()
        with tf.GradientTape() as tape:
            loss = mse(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_loss_read_from_a_metric_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_a_metric_beside_the_loss_is_silent(name: str) -> None:
    assert hints(GOOD[name]) == []
