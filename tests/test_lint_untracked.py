"""Lint hints for weights Keras 3 does not track (TM114-TM116), and their silent look-alikes.

TF-free: sources are parsed, never run. Tests assert codes and lines, never wording.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import tensorflow as tf
import keras
x = tf.ones((3, 4))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    """Return (code, line in ``body``) of the hints of HEAD + body, for TM114-TM116."""
    found = check_source(HEAD + textwrap.dedent(body))
    return [(h.code, h.line - OFFSET) for h in found if h.code in ("TM114", "TM115", "TM116")]


BAD = {
    "tf.Variable attribute in __init__": ("""
        class Scale(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.ones((4,)))
            def call(self, t):
                return t * self.w
        """, [("TM114", 5)]),
    "tf.Variable read by the loss whose gradients are applied, never a source": ("""
        class Tempered(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.temperature = tf.Variable(1.0)
            def call(self, t):
                return t / self.temperature
        layer = Tempered()
        head = keras.layers.Dense(1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(head(layer(x))) / layer.temperature
        grads = tape.gradient(loss, head.trainable_variables)
        keras.optimizers.SGD().apply_gradients(zip(grads, head.trainable_variables))
        """, [("TM114", 5)]),
    "tf.Module held by a Keras layer, the layer's list as sources": ("""
        class Affine(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.ones((4,)))
        class Shifted(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.affine = Affine()
                self.out = keras.layers.Dense(1)
            def call(self, t):
                return self.out(t * self.affine.w)
        layer = Shifted()
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x))
        grads = tape.gradient(loss, layer.trainable_variables)
        """, [("TM114", 9)]),
    "list of tf.Variables in build, through a base class of the source": ("""
        class Base(keras.layers.Layer):
            pass
        class Gates(Base):
            def build(self, shape):
                self.gates = [tf.Variable(tf.ones((shape[-1],))) for _ in range(2)]
            def call(self, t):
                return t * self.gates[0]
        """, [("TM114", 6)]),
    "model called inside a Lambda": ("""
        encoder = keras.Sequential([keras.layers.Dense(3)])
        inputs = keras.Input((4,))
        h = keras.layers.Lambda(lambda t: encoder(t))(inputs)
        model = keras.Model(inputs, keras.layers.Dense(1)(h))
        """, [("TM115", 4)]),
    "pretrained application called inside a Lambda through a def": ("""
        base = keras.applications.MobileNetV2(include_top=False, weights=None)
        def features(t):
            return base(t)
        model = keras.Sequential([keras.Input((32, 32, 3)), keras.layers.Lambda(features)])
        """, [("TM115", 5)]),
    "Keras layer held by a tf.Module trainer": ("""
        class Trainer(tf.Module):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(1)
            def step(self, a):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(self.body(a))
                return tape.gradient(loss, self.trainable_variables)
        """, [("TM116", 2), ("TM116", 9)]),  # the class's tf.Module base, as at run time
    "instance of a tf.Module trainer used outside": ("""
        class Net(tf.Module):
            def __init__(self):
                self.layers_ = [keras.layers.Dense(4), keras.layers.Dense(1)]
        net = Net()
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(net.layers_[1](net.layers_[0](x)))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM116", 2), ("TM116", 8)]),  # the class's tf.Module base too (step outside)
}

GOOD = {
    "add_weight": """
        class Scale(keras.layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=(shape[-1],), initializer="ones")
            def call(self, t):
                return t * self.w
        """,
    "keras.Variable": """
        class Scale(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.w = keras.Variable(tf.ones((4,)))
            def call(self, t):
                return t * self.w
        """,
    "non-trainable tf.Variable counter": """
        class Counted(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.calls = tf.Variable(0.0, trainable=False)
                self.steps = tf.Variable(0, dtype=tf.int64)
                self.seen = tf.Variable(0)
            def call(self, t):
                return t
        """,
    "tf.Variable the layer assigns itself (a state)": """
        class Ema(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.mean = tf.Variable(tf.zeros((4,)))
            def call(self, t):
                self.mean.assign(0.9 * self.mean + 0.1 * tf.reduce_mean(t, 0))
                return t - self.mean
        """,
    "tf.Variable on a model that a callback sets (loss weights on a schedule)": """
        class TwoHeads(keras.Model):
            def __init__(self):
                super().__init__()
                self.mix = tf.Variable([1.0, 0.0])
            def call(self, t):
                return t * self.mix[0]
        class Schedule(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                self.model.mix.assign([0.5, 0.5])
        """,
    "tf.Variable in a Keras 2 (tf_keras) layer": """
        import tf_keras
        class Scale(tf_keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.ones((4,)))
        """,
    "tf.Variable in a layer that the step names as a source (trained by hand)": """
        class FakeQuant(keras.layers.Layer):
            def build(self, shape):
                self.lo = tf.Variable(-0.5)
                self.hi = tf.Variable(0.5)
            def call(self, t):
                return tf.quantization.fake_quant_with_min_max_vars(t, self.lo, self.hi)
        quant = FakeQuant()
        head = keras.layers.Dense(1)
        variables = head.trainable_variables + [quant.lo]
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(head(quant(x)))
        grads = tape.gradient(loss, variables + [quant.hi])
        keras.optimizers.SGD().apply_gradients(zip(grads, variables + [quant.hi]))
        """,
    "tf.Module held by a Keras layer whose variables the step adds to the sources": """
        class Affine(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.ones((4,)))
        class Shifted(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.affine = Affine()
                self.out = keras.layers.Dense(1)
            def call(self, t):
                return self.out(t * self.affine.w)
        layer = Shifted()
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x))
        grads = tape.gradient(loss, layer.trainable_variables
                                    + list(layer.affine.trainable_variables))
        """,
    "model called inside a Lambda whose variables the loop adds to the sources": """
        encoder = keras.Sequential([keras.layers.Dense(3)])
        inputs = keras.Input((4,))
        h = keras.layers.Lambda(lambda t: encoder(t))(inputs)
        model = keras.Model(inputs, keras.layers.Dense(1)(h))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x))
        variables = model.trainable_variables + encoder.trainable_variables
        grads = tape.gradient(loss, variables)
        """,
    "tf.Variable outside any layer": """
        w = tf.Variable(tf.ones((4,)))
        class Plain:
            def __init__(self):
                self.w = tf.Variable(tf.ones((4,)))
        """,
    "Lambda over a pure function": """
        encoder = keras.Sequential([keras.layers.Dense(3)])
        inputs = keras.Input((4,))
        h = keras.layers.Lambda(lambda t: tf.nn.relu(t) * 2.0)(encoder(inputs))
        model = keras.Model(inputs, keras.layers.Dense(1)(h))
        """,
    "Lambda over a frozen model": """
        base = keras.Sequential([keras.layers.Dense(3)])
        base.trainable = False
        inputs = keras.Input((4,))
        model = keras.Model(inputs, keras.layers.Lambda(lambda t: base(t))(inputs))
        """,
    "tf.Module of tf.Variables": """
        class Linear(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.ones((4, 1)))
            def step(self, a):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(a @ self.w)
                return tape.gradient(loss, self.trainable_variables)
        """,
    "tf.Module passing its Keras layer's list": """
        class Trainer(tf.Module):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(1)
            def step(self, a):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(self.body(a))
                return tape.gradient(loss, self.body.trainable_variables)
        """,
    "keras.Model trainer with its own trainable_variables": """
        class Trainer(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(1)
            def step(self, a):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(self.body(a))
                return tape.gradient(loss, self.trainable_variables)
        """,
}


@pytest.mark.parametrize("name", list(BAD))
def test_untracked_shapes_are_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", list(GOOD))
def test_tracked_look_alikes_get_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
