"""Other spellings of the cuts the checker knows, and correct code of the same shapes.

TF-free: sources are parsed, never run. Python's ``math`` functions, ``tf.get_static_value``
and ``keras.utils.to_categorical`` take a host value; ``keras.ops.floor_divide`` has no
gradient; ``keras.ops.digitize`` / ``tf.math.bincount`` give integers; a
``functools.partial`` of a loss in the file is that loss.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import functools
import math
import numpy as np
import tensorflow as tf
import keras
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
x = tf.ones((2, 4))
y = tf.zeros((2, 3))
labels = tf.constant([0, 2])
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body)
    compile(source, "<test>", "exec")  # a test source that does not parse would pass silently
    return [(h.code, h.line - OFFSET) for h in check_source(source)]


BAD = {
    "math.exp of the loss": ("""
        with tf.GradientTape() as tape:
            loss = math.exp(tf.reduce_mean(model(x)))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM301", 3)]),
    "tf.get_static_value of the loss": ("""
        with tf.GradientTape() as tape:
            loss = tf.get_static_value(tf.reduce_mean(model(x)))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM301", 3)]),
    "to_categorical of the prediction": ("""
        with tf.GradientTape() as tape:
            soft = tf.nn.softmax(model(x))
            loss = tf.reduce_mean(keras.utils.to_categorical(soft))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM301", 4)]),
    "keras.ops.floor_divide": ("""
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(keras.ops.floor_divide(model(x), 2.0))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 3)]),
    "keras.ops.digitize": ("""
        with tf.GradientTape() as tape:
            bins = keras.ops.digitize(model(x), [0.0, 1.0])
            loss = tf.reduce_mean(tf.cast(bins, tf.float32))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM202", 3)]),
    "tf.experimental.numpy.round": ("""
        import tensorflow.experimental.numpy as tnp
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tnp.round(model(x)))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 4)]),
    "keras.ops.numpy.argmax": ("""
        with tf.GradientTape() as tape:
            idx = keras.ops.numpy.argmax(model(x), axis=1)
            loss = tf.reduce_mean(tf.cast(idx, tf.float32))
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 3)]),
    "tf.map_fn of a function with argmax": ("""
        with tf.GradientTape() as tape:
            h = model(x)
            r = tf.map_fn(lambda row: tf.cast(tf.argmax(row), tf.float32), h)
            loss = tf.reduce_sum(r)
        g = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 4)]),
    "tf.while_loop body that rounds": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                h = model(x)
                def body(i, acc):
                    return i + 1, acc + tf.round(h)
                _, acc = tf.while_loop(lambda i, a: i < 3, body, [0, tf.zeros_like(h)])
                loss = tf.reduce_sum(acc)
            return tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 7)]),
    "strategy.run of a step that gets the model as an argument": ("""
        strategy = tf.distribute.MirroredStrategy()
        def train_step(net, batch):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(net(batch).numpy())
            return tape.gradient(loss, net.trainable_variables)
        @tf.function
        def dist_step(batch):
            return strategy.run(train_step, args=(model, batch))
        dist_step(x)
        """, [("TM301", 5)]),
    "a functools.partial loss passed to compile": ("""
        def weighted(y_true, y_pred, w=1.0):
            return tf.reduce_mean(tf.cast(y_pred > 0.5, tf.float32) * w)
        model.compile(optimizer="adam", loss=functools.partial(weighted, w=2.0))
        """, [("TM201", 3)]),
}

GOOD = {
    "math on Python numbers in a loss": """
        d_model = 64
        with tf.GradientTape() as tape:
            scale = math.sqrt(d_model) * math.log(2.0)
            loss = tf.reduce_mean(model(x)) * scale
        g = tape.gradient(loss, model.trainable_variables)
        print(math.exp(float(loss)))
        """,
    "get_static_value of a shape, to_categorical of labels": """
        n = tf.get_static_value(tf.shape(x)[0])
        targets = keras.utils.to_categorical(np.array([0, 2]), 3)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - targets) ** 2) / n
        g = tape.gradient(loss, model.trainable_variables)
        """,
    "floor_divide and digitize on data": """
        half = keras.ops.floor_divide(tf.shape(x)[0], 2)
        buckets = keras.ops.digitize(x, [0.0, 1.0])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x)[:half]) + tf.reduce_mean(tf.cast(buckets, tf.float32))
        g = tape.gradient(loss, model.trainable_variables)
        """,
    "tnp and keras.ops.numpy on data": """
        import tensorflow.experimental.numpy as tnp
        ticks = tnp.round(x * 10.0)
        top = keras.ops.numpy.argmax(x, axis=1)
        with tf.GradientTape() as tape:
            logits = model(x + ticks)
            loss = tf.reduce_mean(tf.gather(logits, top, batch_dims=1))
        g = tape.gradient(loss, model.trainable_variables)
        """,
    "map_fn, while_loop and cond of differentiable functions": """
        with tf.GradientTape() as tape:
            h = model(x)
            squares = tf.map_fn(lambda row: tf.reduce_sum(row ** 2), h)
            top = tf.map_fn(lambda row: tf.argmax(row), h, fn_output_signature=tf.int64)
            def body(i, acc):
                return i + 1, acc + h * 0.5
            _, acc = tf.while_loop(lambda i, a: i < 3, body, [0, tf.zeros_like(h)])
            picked = tf.cond(tf.reduce_sum(h) > 0, lambda: acc, lambda: -acc)
            loss = tf.reduce_sum(squares) + tf.reduce_sum(picked)
        g = tape.gradient(loss, model.trainable_variables)
        print(top)
        """,
    "strategy.run of a correct step": """
        strategy = tf.distribute.MirroredStrategy()
        def train_step(net, batch):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(net(batch))
            grads = tape.gradient(loss, net.trainable_variables)
            return loss, [g.numpy() for g in grads]
        @tf.function
        def dist_step(batch):
            return strategy.run(train_step, args=(model, batch))
        dist_step(x)
        """,
    "a functools.partial of a correct loss": """
        def weighted(y_true, y_pred, w=1.0):
            return tf.reduce_mean(tf.square(y_true - y_pred)) * w
        model.compile(optimizer="adam", loss=functools.partial(weighted, w=2.0))
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_other_spellings_are_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_same_shapes_correct_get_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
