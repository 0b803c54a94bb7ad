"""What an API returns instead of changing, and what a tape forgets (issue 33, s. 6).

TF-free: sources are parsed, never run. Each family is a fact of TensorFlow's or Keras' own:
``tape.reset()`` discards what the tape recorded (backprop.py); a traced ``TensorArray.write``
returns the written array and leaves the old one as it was (tensor_array_ops.py); Keras 3's
``Tracker`` looks into tuples, lists, dicts and sets only (keras/src/utils/tracking.py), so
layers in a ``collections.deque`` are no weights; ``tf.strings`` ops have no gradient (the op
catalog, now walked there too); arithmetic on integers a cast made stays integer (one cut, at
the cast); ``q + stop_gradient(z - q)`` passes the gradient to the rounded ``q``: the swapped
terms are the line to change, not the rounding. Each has correct look-alikes that stay silent.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD: dict[str, tuple[str, list[tuple[str, int]]]] = {}
GOOD: dict[str, str] = {}

MLP = """
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
"""

# -- tape.reset() --------------------------------------------------------------------------------
BAD["reset after the forward pass"] = (MLP + """
@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a) - b))
        tape.reset()
    return tape.gradient(loss, model.trainable_variables)
step(x, y)
""", [("TM103", 7)])
BAD["reset eagerly, between two terms"] = (MLP + """
with tf.GradientTape() as tape:
    first = tf.reduce_mean(model(x))
    tape.reset()
    loss = first + tf.reduce_mean(tf.ones(3))
grads = tape.gradient(loss, model.trainable_variables)
""", [("TM103", 5)])
GOOD["reset before the forward pass of each step"] = MLP + """
tape = tf.GradientTape(persistent=True)
for _ in range(2):
    with tape:
        tape.reset()
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
"""
GOOD["reset after the gradient was taken"] = MLP + """
with tf.GradientTape(persistent=True) as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    tape.reset()
"""

# -- a traced TensorArray write whose result is dropped -----------------------------------------
ROLLOUT = """
cell = keras.layers.Dense(3)
@tf.function
def step(h0):
    with tf.GradientTape() as tape:
        h = h0
        states = tf.TensorArray(tf.float32, size=4)
        for t in tf.range(4):
            h = cell(h)
            {write}
        loss = tf.reduce_mean(states.stack())
    return tape.gradient(loss, cell.trainable_variables)
step(x)
"""
BAD["TensorArray.write result dropped in a tf.function"] = (
    ROLLOUT.format(write="states.write(t, h)"), [("TM104", 9)])
BAD["TensorArray.scatter result dropped in a tf.function"] = (
    ROLLOUT.format(write="states.scatter([t], h[None])"), [("TM104", 9)])
GOOD["TensorArray.write result kept"] = ROLLOUT.format(write="states = states.write(t, h)")
GOOD["TensorArray.write dropped eagerly (it writes in place)"] = ROLLOUT.format(
    write="states.write(t, h)").replace("@tf.function\n", "")
GOOD["a Python list appended to in a tf.function"] = ROLLOUT.format(
    write="states = states.write(t, h)").replace(
    "states = tf.TensorArray(tf.float32, size=4)", "kept = []").replace(
    "states = states.write(t, h)", "kept.append(h)").replace("states.stack()", "tf.stack(kept)")

# -- layers in a container Keras 3 does not track -------------------------------------------------
HOLDER = """
import collections
class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.stem = keras.layers.Dense(4)
        self.blocks = {container}
        self.head = keras.layers.Dense(1)
    def call(self, inputs):
        h = self.stem(inputs)
        for block in self.blocks:
            h = h + block(h)
        return self.head(h)
model = Net()
model.compile(optimizer="adam", loss="mse")
model.fit(x, y)
"""
BLOCKS = "(keras.layers.Dense(4) for _ in range(2))"
BAD["layers in a collections.deque"] = (
    HOLDER.format(container=f"collections.deque({BLOCKS})"), [("TM114", 6)])
BAD["layers in a frozenset"] = (
    HOLDER.format(container=f"frozenset({BLOCKS})"), [("TM114", 6)])
BAD["layers in a UserList"] = (
    HOLDER.format(container=f"collections.UserList({BLOCKS})"), [("TM114", 6)])
for kind in ("list", "tuple", "set", "collections.OrderedDict.fromkeys",
             "collections.defaultdict(list, enumerate"):
    made = f"{kind}({BLOCKS}))" if "defaultdict" in kind else f"{kind}({BLOCKS})"
    GOOD[f"layers in a {kind.split('(')[0]}"] = HOLDER.format(container=made)
GOOD["a deque of numbers beside the layers"] = HOLDER.format(
    container="[keras.layers.Dense(4)]\n        self.history = collections.deque(maxlen=5)")

# -- string ops in a loss ------------------------------------------------------------------------
BAD["a compiled loss rounds through tf.strings"] = (MLP + """
def cents(y_true, y_pred):
    rounded = tf.strings.to_number(tf.strings.as_string(y_pred, precision=2))
    return tf.reduce_mean(tf.abs(rounded - y_true))
model.compile(optimizer="adam", loss=cents)
model.fit(x, y)
""", [("TM201", 4)])
GOOD["tf.strings on the labels only"] = MLP + """
def loss(y_true, y_pred):
    target = tf.strings.to_number(tf.strings.as_string(y_true, precision=2))
    return tf.reduce_mean(tf.abs(y_pred - target))
model.compile(optimizer="adam", loss=loss)
model.fit(x, y)
"""

# -- arithmetic on an integer a cast made -------------------------------------------------------
BAD["floor division of a cast size is no second cut"] = (MLP + """
with tf.GradientTape() as tape:
    size = tf.cast(tf.reduce_mean(model(x)) * 8.0, tf.int32)
    offset = (8 - size) // 2
    loss = tf.reduce_sum(tf.cast(offset, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
""", [("TM202", 4)])
BAD["floor division of a learned value is a cut"] = (MLP + """
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x) // 2.0)
grads = tape.gradient(loss, model.trainable_variables)
""", [("TM201", 4)])

# -- a straight-through estimator with its terms swapped ----------------------------------------
STE = """
encoder = keras.layers.Dense(3)
decoder = keras.layers.Dense(3)
with tf.GradientTape() as tape:
    z = encoder(x)
    q = tf.round(z)
    code = {code}
    loss = tf.reduce_mean(tf.square(decoder(code) - x))
grads = tape.gradient(loss, encoder.trainable_variables + decoder.trainable_variables)
"""
BAD["straight-through with its terms swapped"] = (
    STE.format(code="q + tf.stop_gradient(z - q)"), [("TM401", 6)])
BAD["straight-through with its terms swapped, the rounding written twice"] = (
    STE.format(code="tf.round(z) + tf.stop_gradient(z - tf.round(z))"), [("TM401", 6)])
BAD["a rounded code with no straight-through"] = (STE.format(code="q"), [("TM201", 5)])
GOOD["straight-through written right"] = STE.format(code="z + tf.stop_gradient(q - z)")
GOOD["straight-through written right, the rounding inline"] = STE.format(
    code="z + tf.stop_gradient(tf.round(z) - z)")
GOOD["straight-through on the other side"] = STE.format(code="tf.stop_gradient(q - z) + z")


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
