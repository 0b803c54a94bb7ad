"""The rules' static matchers on small sources: what is hinted, where, and what is left alone.

TF-free: sources are parsed, never run. Tests assert codes and lines, never wording.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import numpy as np
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
x = tf.ones((3, 4))
y = tf.zeros((3, 2))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    """Return (code, line in ``body``) of the hints of HEAD + body."""
    found = check_source(HEAD + textwrap.dedent(body))
    return [(h.code, h.line - OFFSET) for h in found]


BAD = {
    "numpy in a loss helper": ("""
        def loss_fn(pred):
            return tf.reduce_mean(tf.constant(pred.numpy()) ** 2)
        with tf.GradientTape() as tape:
            loss = loss_fn(model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM301", 3)]),
    "np.mean on the prediction": ("""
        with tf.GradientTape() as tape:
            loss = tf.constant(np.mean(model(x)))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM301", 3)]),
    "keras.ops.convert_to_numpy in a compiled loss": ("""
        import keras
        def my_loss(y_true, y_pred):
            return keras.ops.mean(keras.ops.convert_to_numpy(y_pred) - y_true)
        model.compile(optimizer="adam", loss=my_loss)
        """, [("TM301", 4)]),
    "argmax then cast on the way to the loss": ("""
        with tf.GradientTape() as tape:
            idx = tf.argmax(model(x), axis=1)
            loss = tf.reduce_sum(tf.cast(idx, tf.float32))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 3)]),
    "int cast": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.cast(tf.cast(model(x), tf.int32), tf.float32))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM202", 3)]),
    "int cast in a custom layer of a compiled Sequential": ("""
        class Quantise(tf.keras.layers.Layer):
            def call(self, inputs):
                return tf.cast(tf.cast(inputs, tf.int32), tf.float32)
        net = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(8),
                                   tf.keras.layers.Flatten(), Quantise(),
                                   tf.keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss="mse")
        """, [("TM202", 4)]),
    "bucketised activations of a compiled Sequential": ("""
        net = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(8),
                                   tf.keras.layers.Discretization(bin_boundaries=[0.0]),
                                   tf.keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss="mse")
        """, [("TM202", 3)]),  # where the Sequential's list made the layer (issue 33, §3)
    "watch_accessed_variables=False watching the input": ("""
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(x)
            loss = tf.reduce_sum(model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM101", 2)]),
    "forward pass inside the gradient call": ("""
        with tf.GradientTape() as tape:
            pass
        grads = tape.gradient(tf.reduce_sum(model(x)), model.trainable_variables)
        """, [("TM103", 4)]),
    "loss after the with block": ("""
        with tf.GradientTape() as tape:
            pred = model(x)
        loss = tf.reduce_mean((pred - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM103", 4)]),
    "assign of a computed value inside the tape": ("""
        v = tf.Variable(tf.zeros((3, 2)))
        with tf.GradientTape() as tape:
            v.assign(model(x))
            loss = tf.reduce_sum(v * 2.0)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM402", 4)]),
    "numpy_function inside the tape": ("""
        with tf.GradientTape() as tape:
            out = tf.numpy_function(np.tanh, [model(x)], tf.float32)
            loss = tf.reduce_sum(out)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM302", 3)]),
    "python if choosing a constant loss": ("""
        with tf.GradientTape() as tape:
            if tf.reduce_mean(model(x)) > 0:
                loss = tf.constant(1.0)
            else:
                loss = tf.constant(0.0)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM303", 3)]),
    "stop_gradient on the only path": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.stop_gradient(model(x)))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM401", 3)]),
    "model.weights with BatchNorm": ("""
        bn = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2),
                                  tf.keras.layers.BatchNormalization()])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(bn(x, training=True))
        grads = tape.gradient(loss, bn.weights)
        """, [("TM107", 6)]),
    "watch of a Keras variable": ("""
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(model.trainable_variables)
            loss = tf.reduce_sum(model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM108", 3)]),
    "tensor source never watched": ("""
        w = tf.constant([[1.0], [2.0], [3.0], [4.0]])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(x @ w)
        grads = tape.gradient(loss, w)
        """, [("TM102", 2), ("TM102", 3)]),
    "tensor watched after its use": ("""
        w = tf.constant([[1.0], [2.0], [3.0], [4.0]])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(x @ w)
            tape.watch(w)
        grads = tape.gradient(loss, w)
        """, [("TM102", 5)]),
    "variable replaced by a tensor in the loop": ("""
        v = tf.Variable(1.0)
        for step in range(3):
            with tf.GradientTape() as tape:
                loss = (v - 2.0) ** 2
            g = tape.gradient(loss, v)
            v = v - 0.1 * g
        """, [("TM112", 7)]),
    "a layer's member computed from its own weight in __init__": ("""
        class Scaled(tf.keras.layers.Layer):
            def __init__(self, units=4, factor=2.0):
                super().__init__()
                self.w = tf.Variable(tf.ones((units,)))
                self.w2 = self.w * factor
            def call(self, inputs):
                return inputs * self.w2
        net = tf.keras.Sequential([tf.keras.layers.Input((4,)), Scaled()])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(net(x))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM114", 5), ("TM103", 6)]),  # Keras 3 does not track `self.w` either
    "integer variable as a source": ("""
        k = tf.Variable(3)
        with tf.GradientTape() as tape:
            loss = tf.cast(k, tf.float32) * 2.0
        grads = tape.gradient(loss, [k])
        """, [("TM202", 2)]),
    "weights read before the model is built": ("""
        lazy = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        params = lazy.trainable_variables
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(lazy(x))
        grads = tape.gradient(loss, params)
        """, [("TM109", 3)]),
    "numpy inside a py_function body": ("""
        def body(t):
            return tf.constant(np.tanh(t.numpy()))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.py_function(body, [model(x)], tf.float32))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM304", 3)]),
    "Lambda layer with floor inside a Sequential that is fit": ("""
        def binarise(t):
            return tf.floor(t + 0.5)
        net = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3),
                                   tf.keras.layers.Lambda(binarise), tf.keras.layers.Dense(1)])
        net.compile(optimizer="sgd", loss="mse")
        """, [("TM201", 3)]),
    "custom layer call with numpy_function, through a subclassed model": ("""
        class Odd(tf.keras.layers.Layer):
            def call(self, inputs):
                return tf.numpy_function(np.sinh, [inputs], tf.float32)
        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.pre = tf.keras.layers.Dense(3)
                self.odd = Odd()
                self.post = tf.keras.layers.Dense(1)
            def call(self, inputs):
                return self.post(self.odd(self.pre(inputs)))
        net = Net()
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(net(x))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM302", 4)]),
    "the second cut behind the first": ("""
        with tf.GradientTape() as tape:
            decided = tf.round(model(x))
            same = tf.equal(decided, y)
            loss = 1.0 - tf.reduce_mean(tf.cast(same, tf.float32))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 3), ("TM201", 4)]),
    "cut in a train_step of a subclassed model": ("""
        class Trainer(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.body = tf.keras.layers.Dense(1)
            def call(self, inputs):
                return self.body(inputs)
            def train_step(self, data):
                xb, yb = data
                with tf.GradientTape() as tape:
                    pred = self(xb, training=True)
                    loss = tf.reduce_mean((tf.round(pred) - yb) ** 2)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}
        """, [("TM201", 12)]),
}

GOOD = {
    "numpy after the tape for logging": """
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        print(float(loss), np.mean(loss.numpy()))
        """,
    "argmax for a metric next to the loss": """
        with tf.GradientTape() as tape:
            logits = model(x)
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(y, logits))
            accuracy = tf.reduce_mean(tf.cast(tf.argmax(logits, 1) == tf.argmax(y, 1),
                                              tf.float32))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "argmax mask times a differentiable loss": """
        with tf.GradientTape() as tape:
            logits = model(x)
            mask = tf.cast(tf.argmax(logits, 1) > 0, tf.float32)
            loss = tf.reduce_sum(mask * tf.reduce_sum(logits ** 2, axis=1))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "stop_gradient target": """
        target = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
        with tf.GradientTape() as tape:
            goal = y + 0.9 * tf.stop_gradient(target(x))
            loss = tf.reduce_mean((model(x) - goal) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "straight-through estimator": """
        with tf.GradientTape() as tape:
            h = model(x)
            q = h + tf.stop_gradient(tf.round(h) - h)
            loss = tf.reduce_sum(q ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "frozen backbone left out of the sources": """
        backbone = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(4)])
        backbone.trainable = False
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(backbone(x)))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "watch_accessed_variables=False with the input as the source": """
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(x)
            loss = tf.reduce_sum(model(x))
        saliency = tape.gradient(loss, x)
        """,
    "watch of a tf.Variable": """
        v = tf.Variable(1.0)
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(v)
            loss = v * 3.0
        grads = tape.gradient(loss, v)
        """,
    "assign_sub update in the loop": """
        v = tf.Variable(1.0)
        for step in range(3):
            with tf.GradientTape() as tape:
                loss = (v - 2.0) ** 2
            g = tape.gradient(loss, v)
            v.assign_sub(0.1 * g)
        """,
    "target network copied outside the tape": """
        online = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
        target = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
        target.set_weights(online.get_weights())
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((online(x) - tf.reduce_max(target(x))) ** 2)
        grads = tape.gradient(loss, online.trainable_variables)
        """,
    "py_function over TF ops": """
        def body(t):
            return tf.tanh(t)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.py_function(body, [model(x)], tf.float32))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "compiled model with integer labels and a plain loss": """
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                      metrics=["accuracy"])
        """,
    "python if on a tensor between two connected losses": """
        with tf.GradientTape() as tape:
            pred = model(x)
            if tf.reduce_mean(pred) > 0:
                loss = tf.reduce_sum(pred ** 2)
            else:
                loss = tf.reduce_sum(tf.abs(pred))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "a model factory called twice": """
        def make():
            return tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
        a, b = make(), make()
        b.set_weights(a.get_weights())
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(a(x))
        grads = tape.gradient(loss, a.trainable_variables)
        """,
    "the tensor watched before its use": """
        w = tf.constant([[1.0], [2.0], [3.0], [4.0]])
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(x @ w)
        grads = tape.gradient(loss, w)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_where_the_cut_is(name: str) -> None:
    body, expected = BAD[name]
    assert sorted(set(hints(body))) == sorted(expected)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_correct_code_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []


def test_quick_fix_drops_numpy_and_the_watch_flag() -> None:
    body = """
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(x)
            loss = tf.reduce_sum(model(x).numpy())
        grads = tape.gradient(loss, model.trainable_variables)
        """
    found = {h.code: h for h in check_source(HEAD + textwrap.dedent(body))}
    assert found["TM101"].fix is not None and found["TM301"].fix is not None
    assert [e.text for e in found["TM101"].fix.edits] == ["tf.GradientTape()"]
    assert [e.text for e in found["TM301"].fix.edits] == ["model(x)"]
    assert found["TM301"].fix.applicability == "unsafe"


def test_a_huge_or_odd_source_never_raises() -> None:
    odd = HEAD + "def f(*a, **k):\n    return f(*a, **k)\nwith tf.GradientTape() as t:\n" \
        "    z = f(model(x))\n    [q := z, *z]\n    lambda: (yield)\n" \
        "g = t.gradient(z, model.trainable_variables)\n"
    assert isinstance(check_source(odd), list)
    big = HEAD + "".join(f"h{i} = tf.reduce_sum(model(x)) * {i}\n" for i in range(3000))
    assert check_source(big) == []


# A notebook cell is checked alone by the editor: its imports and model are in earlier cells.
NEEDS_EARLIER_CELLS = {"watch of a Keras variable"}  # only the model's definition says Keras


@pytest.mark.parametrize("name", sorted(set(BAD) - NEEDS_EARLIER_CELLS))
def test_a_cell_alone_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    found = check_source(textwrap.dedent(body))
    assert sorted({(h.code, h.line) for h in found}) == sorted(expected)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_a_correct_cell_alone_gets_no_hint(name: str) -> None:
    assert check_source(textwrap.dedent(GOOD[name])) == []
