"""Quantizers written correctly get no hint; the same shapes with a real cut still do.

TF-free: sources are parsed, never run. A straight-through estimator (the rounded value
bound to names first, in a layer's ``call``), a ``tf.custom_gradient`` whose grad replaces
its forward's ``tf.round``, ``tf.grad_pass_through``, and a VQ-VAE whose codebook is reached
only through ``add_loss`` / ``model.losses`` are all correct code (issue 17 section 5).
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import tensorflow as tf
import keras
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4), keras.layers.Dense(2)])
enc = keras.layers.Dense(4)
dec = keras.layers.Dense(4)
x = tf.ones((3, 4))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body)
    compile(source, "<test>", "exec")  # a test source that does not parse would pass silently
    found = check_source(source)
    return [(h.code, h.line - OFFSET) for h in found]


VQ_LAYER = """
class VQ(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        # add_weight: a raw tf.Variable here is no Keras 3 weight and never trains (TM114)
        self.book = self.add_weight(shape=(4, 8), initializer="random_normal", name="book")
    def call(self, z):
        d = (tf.reduce_sum(z ** 2, 1, keepdims=True) + tf.reduce_sum(self.book ** 2, 0)
             - 2 * tf.matmul(z, self.book))
        idx = tf.argmin(d, axis=1)
        q = tf.matmul(tf.one_hot(idx, 8), self.book, transpose_b=True)
        self.add_loss(tf.reduce_mean((tf.stop_gradient(q) - z) ** 2)
                      + tf.reduce_mean((q - tf.stop_gradient(z)) ** 2))
        q = z + tf.stop_gradient(q - z)
        return q
vq = VQ()
"""

GOOD = {
    "straight-through, rounded value bound to names": """
        with tf.GradientTape() as tape:
            h = enc(x)
            r = tf.round(h)
            q = r
            c = q
            y = h + tf.stop_gradient(c - h)
            loss = tf.reduce_mean(dec(y) ** 2)
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """,
    "straight-through in a layer's call, under fit": """
        class RoundST(keras.layers.Layer):
            def call(self, inputs):
                rounded = tf.round(inputs * 4.0) / 4.0
                return inputs + tf.stop_gradient(rounded - inputs)
        net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4), RoundST(),
                                keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss="mse")
        net.fit(x, tf.zeros((3, 1)))
        """,
    "straight-through spelled sg(r) - sg(x) + x": """
        with tf.GradientTape() as tape:
            h = enc(x)
            hard = tf.cast(tf.cast(h > 0.0, tf.int32), tf.float32)
            y = h + tf.stop_gradient(hard) - tf.stop_gradient(h)
            loss = tf.reduce_mean(dec(y) ** 2)
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """,
    "custom_gradient around tf.round": """
        @tf.custom_gradient
        def quantize(v):
            y = tf.round(v * 8.0) / 8.0
            def grad(dy):
                return dy
            return y, grad
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(dec(quantize(enc(x))))
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """,
    "custom_gradient made by a call, on a layer method": """
        def _floor(v):
            def grad(dy):
                return dy
            return tf.floor(v), grad
        floor_st = tf.custom_gradient(_floor)
        class Sign(keras.layers.Layer):
            @tf.custom_gradient
            def ste(self, v):
                out = tf.sign(tf.round(v))
                def grad(dy):
                    return dy * tf.cast(tf.abs(v) <= 1.0, dy.dtype)
                return out, grad
            def call(self, v):
                return self.ste(floor_st(v))
        net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4), Sign(),
                                keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(net(x))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "grad_pass_through": """
        with tf.GradientTape() as tape:
            y = tf.grad_pass_through(tf.round)(enc(x))
            loss = tf.reduce_sum(dec(y))
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """,
    "vq-vae, losses from model.losses": VQ_LAYER + textwrap.dedent("""
        with tf.GradientTape() as tape:
            rec = dec(vq(enc(x)))
            loss = tf.reduce_mean((rec - x) ** 2) + sum(vq.losses)
        vs = enc.trainable_variables + vq.trainable_variables + dec.trainable_variables
        grads = tape.gradient(loss, vs)
        """),
    "vq-vae under fit (fit adds add_loss losses)": VQ_LAYER + textwrap.dedent("""
        net = keras.Sequential([keras.Input((4,)), enc, vq, dec])
        net.compile(optimizer="adam", loss="mse")
        net.fit(x, x)
        """),
}

BAD = {
    "round before a custom_gradient function": ("""
        @tf.custom_gradient
        def quantize(v):
            y = tf.round(v)
            def grad(dy):
                return dy
            return y, grad
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(dec(quantize(tf.round(enc(x)))))
        grads = tape.gradient(loss, enc.trainable_variables)
        """, [("TM201", 9)]),
    "round with no straight-through": ("""
        with tf.GradientTape() as tape:
            h = enc(x)
            r = tf.round(h)
            loss = tf.reduce_mean(dec(r) ** 2)
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """, [("TM201", 4)]),
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_correct_quantizers_get_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_real_cut_next_to_them_is_still_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected
