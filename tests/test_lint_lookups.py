"""Where the checker puts a cut that goes through lookups, layer lists and custom gradients.

TF-free: sources are parsed, never run. Rows of a learned table picked by indices the weights
made (a VQ codebook read at argmin codes) are a place to change; the integer input of an
Embedding that an earlier cast made is not a second cut; a Sequential's integer layer is hinted
where the list made it; weight lists joined with ``+`` stay weight lists; a
``tf.custom_gradient`` that reads weights needs a grad function that takes ``variables``.
Each has a correct look-alike that stays silent.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import tensorflow as tf
import keras
x = tf.ones((8, 6))
"""
OFFSET = HEAD.count("\n")

VQ_HEAD = """
encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(2)])
decoder = keras.Sequential([keras.Input((2,)), keras.layers.Dense(6)])
codebook = tf.Variable(tf.random.normal((8, 2)))
variables = encoder.trainable_variables + decoder.trainable_variables + [codebook]
with tf.GradientTape() as tape:
    z = encoder(x)
    codes = tf.argmin(tf.reduce_sum(tf.square(z[:, None] - codebook[None]), -1), axis=-1)
    q = tf.gather(codebook, codes)
"""


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body).lstrip("\n")
    compile(source, "<test>", "exec")
    return sorted({(h.code, h.line - OFFSET) for h in check_source(source)})


BAD = {
    # Biohub/esm#92's kind: the decoder reads codebook rows only; the encoder is cut twice
    "a VQ decoder reads the codebook rows at argmin codes": (VQ_HEAD + """
    loss = tf.reduce_mean(tf.square(decoder(q) - x))
grads = tape.gradient(loss, variables)
""", [("TM201", 7), ("TM202", 8)]),
    # tensorflow/lattice#49's kind: the bucket's index is the one cut; the learned values it
    # picks train (their table made no part of the search), so their take is no second place
    "learned edges searched, another table's rows taken: one hint, at the search": ("""
class Buckets(keras.layers.Layer):
    def build(self, shape):
        self.edges = self.add_weight(shape=(5,), initializer="ones")
        self.values = self.add_weight(shape=(6,), initializer="zeros")

    def call(self, inputs):
        bucket = keras.ops.searchsorted(self.edges, inputs[:, 0], side="right")
        return keras.ops.expand_dims(keras.ops.take(self.values, bucket), -1)

model = keras.Sequential([keras.Input((6,)), Buckets()])
model.compile(optimizer="adam", loss="mse")
""", [("TM202", 7)]),
    "an Embedding of a cast in a functional model: one hint, at the cast": ("""
inp = keras.Input((6,))
branch = keras.layers.Dense(3, name="bucket")(inp)
ids = keras.layers.Lambda(lambda t: tf.cast(t, tf.int32))(branch)
out = keras.layers.Dense(1)(keras.layers.Flatten()(keras.layers.Embedding(10, 4)(ids)))
model = keras.Model(inp, out)
model.compile(optimizer="adam", loss="mse")
""", [("TM202", 3)]),
    # tensorflow/tensorflow#31945's kind: the grad function has no `variables`
    "a custom gradient reading a layer weight, grad without variables": ("""
class Gain(keras.layers.Layer):
    def build(self, shape):
        self.gain = self.add_weight(shape=(), initializer="ones")

    def call(self, inputs):
        @tf.custom_gradient
        def scaled(t):
            def grad(dy):
                return dy * self.gain
            return t * self.gain, grad
        return scaled(inputs)
""", [("TM203", 8)]),
}

GOOD = {
    "VQ-VAE: straight-through with stop_gradient on both sides": VQ_HEAD + """
    codebook_loss = tf.reduce_mean(tf.square(q - tf.stop_gradient(z)))
    commit = tf.reduce_mean(tf.square(tf.stop_gradient(q) - z))
    st = z + tf.stop_gradient(q - z)
    loss = tf.reduce_mean(tf.square(decoder(st) - x)) + codebook_loss + 0.25 * commit
grads = tape.gradient(loss, variables)
""",
    "VQ-VAE: the straight-through written as sg(q) + z - sg(z)": VQ_HEAD + """
    st = tf.stop_gradient(q) + z - tf.stop_gradient(z)
    vq = tf.reduce_mean(tf.square(tf.stop_gradient(z) - q))
    loss = tf.reduce_mean(tf.square(decoder(st) - x)) + vq + tf.reduce_mean(tf.square(z))
grads = tape.gradient(loss, variables)
""",
    "a router's argmax picks among expert outputs that also reach the loss": """
router = keras.layers.Dense(3)
experts = keras.layers.Dense(3)
with tf.GradientTape() as tape:
    gate = tf.nn.softmax(router(x))
    choice = tf.argmax(gate, axis=-1)
    table = experts(x)
    picked = tf.gather(table, choice, batch_dims=1)
    loss = tf.reduce_mean(picked * tf.reduce_max(gate, axis=-1))
grads = tape.gradient(loss, router.trainable_variables + experts.trainable_variables)
""",
    "an Embedding of data ids in a functional model": """
ids_in = keras.Input((4,), dtype="int32")
out = keras.layers.Dense(1)(keras.layers.Flatten()(keras.layers.Embedding(10, 4)(ids_in)))
model = keras.Model(ids_in, out)
model.compile(optimizer="adam", loss="mse")
""",
    "a custom gradient whose grad takes variables": """
class Gain(keras.layers.Layer):
    def build(self, shape):
        self.gain = self.add_weight(shape=(), initializer="ones")

    def call(self, inputs):
        @tf.custom_gradient
        def scaled(t):
            def grad(dy, variables=None):
                return dy * self.gain, [tf.reduce_sum(dy * t)]
            return t * self.gain, grad
        return scaled(inputs)
""",
    "a custom gradient that reads no weight": """
class Clip(keras.layers.Layer):
    def call(self, inputs):
        @tf.custom_gradient
        def clipped(t):
            def grad(dy):
                return tf.clip_by_value(dy, -1.0, 1.0)
            return tf.identity(t), grad
        return clipped(inputs)
""",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_cut_is_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_its_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
