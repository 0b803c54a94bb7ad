"""The workloads of ``bench/overhead.py``: each call is one "cell" that builds what it needs.

A custom loop, a conv net, a short fit, a tf.function step, a big step of many weights, and
cells of many lines; run plain and traced by the timing loop (run by hand, never by tests).
"""

from __future__ import annotations

import os
from collections.abc import Callable

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

keras = tf.keras
RNG = np.random.default_rng(0)


# -- workloads (each call is one "cell": it builds what it needs, like the user's cell) -------
def mlp_loop(steps: int = 50, batch: int = 256) -> None:
    """A 3-layer MLP trained by a custom eager loop."""
    x = tf.constant(RNG.normal(size=(batch, 64)).astype("float32"))
    y = tf.constant(RNG.integers(0, 10, size=(batch,)))
    model = keras.Sequential([keras.layers.Input((64,)), keras.layers.Dense(256, "relu"),
                              keras.layers.Dense(256, "relu"), keras.layers.Dense(10)])
    opt = keras.optimizers.Adam()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))


def conv_loop(steps: int = 10, layers: int = 12) -> None:
    """A 12-layer conv net trained by a custom eager loop."""
    x = tf.constant(RNG.normal(size=(32, 32, 32, 3)).astype("float32"))
    y = tf.constant(RNG.integers(0, 10, size=(32,)))
    stack = [keras.layers.Input((32, 32, 3))]
    stack += [keras.layers.Conv2D(16, 3, padding="same", activation="relu")
              for _ in range(layers)]
    model = keras.Sequential([*stack, keras.layers.GlobalAveragePooling2D(),
                              keras.layers.Dense(10)])
    opt = keras.optimizers.SGD(0.01)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))


FIT_X = RNG.normal(size=(640, 20)).astype("float32")
FIT_Y = RNG.normal(size=(640, 1)).astype("float32")


def fit_small() -> None:
    """``fit`` of a small model over 20 batches (one epoch)."""
    model = keras.Sequential([keras.layers.Input((20,)), keras.layers.Dense(32, "relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(FIT_X, FIT_Y, batch_size=32, epochs=1, verbose=0)


def function_steps(steps: int = 50) -> None:
    """A ``tf.function`` train step called 50 times."""
    x = tf.constant(RNG.normal(size=(128, 32)).astype("float32"))
    y = tf.constant(RNG.normal(size=(128, 1)).astype("float32"))
    w1 = tf.Variable(tf.random.normal((32, 64), seed=1))
    w2 = tf.Variable(tf.random.normal((64, 1), seed=2))
    opt = keras.optimizers.SGD(0.01)

    @tf.function
    def step() -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.nn.relu(x @ w1) @ w2 - y) ** 2)
        grads = tape.gradient(loss, [w1, w2])
        opt.apply_gradients(zip(grads, [w1, w2], strict=True))
        return loss

    for _ in range(steps):
        step()


STEP_WEIGHTS = [tf.Variable(tf.random.normal((16, 16), stddev=0.1, seed=i)) for i in range(560)]


def big_step() -> None:
    """One training step of about 10,000 ops (a deep stack of small dense layers)."""
    x = tf.constant(RNG.normal(size=(8, 16)).astype("float32"))
    with tf.GradientTape() as tape:
        h = x
        for w in STEP_WEIGHTS:  # ~6 forward ops per layer, the backward pass adds about as many
            h = tf.tanh(h @ w + 0.1) * 0.9 + h * 0.1
        loss = tf.reduce_mean(h * h)
    tape.gradient(loss, STEP_WEIGHTS)


def lines_cell(n: int) -> Callable[[], None]:
    """A cell of ``n`` lines of ops under one tape (compiled and run like a notebook cell)."""
    body = "\n".join("    " + ("x = x * 1.0001", "x = x + 0.001", "x = tf.tanh(x)",
                               "x = x - 0.0001")[i % 4] for i in range(n))
    source = (f"w = tf.Variable(tf.ones((4,)))\nwith tf.GradientTape() as tape:\n"
              f"    x = w * 1.0\n{body}\n    loss = tf.reduce_sum(x)\n"
              f"g = tape.gradient(loss, [w])\n")
    filename = f"<bench-cell-{n}>"
    import linecache

    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)

    def run() -> None:
        exec(compile(source, filename, "exec"), {"tf": tf})  # noqa: S102 - our own source

    run.__doc__ = f"A cell of {n:,} lines of ops under one tape."
    return run


