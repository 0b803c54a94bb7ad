"""Layers held in a container Keras 3 does not track: the statement that stored it.

Keras wraps lists, tuples, dicts and sets set on a layer (keras/src/utils/tracking.py) and
tracks what they hold; anything else (a ``collections.deque``) hides its layers from
``trainable_variables``. The holder walk (``tracing/holders.py``) goes through every sized
container, whether Keras wraps it or not, and Keras' own list of tracked weights says which
are missing; TM115 is placed at the ``self.<attr> = ...`` that stored the container. A deque
that only aliases tracked layers stays silent, and a generator attribute is not consumed.
"""

from __future__ import annotations

from typing import Any

import pytest
from checked import loud

pytestmark = pytest.mark.tf

PROGRAM = """
import collections
import keras
import numpy as np
import tensorflow as tf
x = np.random.default_rng(0).normal(size=(8, 3)).astype("float32")

class Net(keras.Model):
    def __init__(self):
        super().__init__()
        {store}
        self.head = keras.layers.Dense(1)
        self.pending = (i for i in range(3))

    def call(self, h):
        for block in {read}:
            h = block(h)
        return self.head(h)

model = Net()
model(x[:1])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x) ** 2)
grads = tape.gradient(loss, model.trainable_variables)
left = list(model.pending)
"""


def _run(run_checked: Any, store: str, read: str) -> Any:
    return run_checked(PROGRAM.replace("{store}", store).replace("{read}", read))


def test_layers_in_a_deque_are_reported_where_it_was_stored(run_checked: Any) -> None:
    checked = _run(run_checked, "self.blocks = collections.deque("
                   "[keras.layers.Dense(3), keras.layers.Dense(3)])", "self.blocks")
    found = loud(checked.report)
    assert [rule for rule, _ in found] == ["TM115"]
    assert checked.path.read_text().splitlines()[found[0][1] - 1].strip().startswith(
        "self.blocks = collections.deque(")
    assert checked.namespace["left"] == [0, 1, 2]  # the generator was not walked


def test_a_deque_over_tracked_layers_stays_silent(run_checked: Any) -> None:
    checked = _run(run_checked, "self.layers_ = [keras.layers.Dense(3), keras.layers.Dense(3)]; "
                   "self.order = collections.deque(self.layers_)", "self.order")
    assert loud(checked.report) == []
    assert checked.namespace["left"] == [0, 1, 2]
