"""A corpus of correct training cells: ``%%gradcheck`` must not change what any of them does.

Each cell runs twice in the one shared IPython shell (tests/conftest.py), plain and under the
magic, and everything the user can observe is compared exactly: stdout, stderr, the displayed
value, the exception, and a fingerprint of every value the cell leaves behind (variable
values, losses, predictions as raw bytes). The traced run must also stay silent: no error or
warning finding on correct code. Each cell seeds everything it draws (``keras.utils.
set_random_seed``) and starts from a fresh Keras session, so both runs draw the same numbers.

Cells that differ today only because the magic forces eager mode are marked
``xfail(strict=True)`` with the reason; analysing graph mode as written (issue 7) makes them
pass, and then the mark goes.
"""

from __future__ import annotations

import contextlib
import logging
import textwrap
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tapemagic.report.model import MIME_TYPE, Report

pytestmark = pytest.mark.tf

#: Run first in both runs: a fingerprint helper, fresh Keras names, every seed fixed.
PRELUDE = """\
import threading
import numpy as np
import tensorflow as tf
import keras
def _fp(*values):
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.append(_fp(*v))
            continue
        if hasattr(v, "numpy"):
            v = v.numpy()
        if isinstance(v, np.ndarray):
            out.append((str(v.dtype), v.shape, v.tobytes().hex()))
        elif isinstance(v, (np.generic, float, int, bool, str, type(None))):
            out.append(repr(v))
        else:
            out.append(type(v).__name__)
    return out
keras.backend.clear_session()
keras.utils.set_random_seed(0)
"""

CELLS: dict[str, tuple[str, Any]] = {}


def cell(name: str, source: str, mark: Any = None) -> None:
    CELLS[name] = (textwrap.dedent(source), mark)


# -- tf.function ---------------------------------------------------------------------------------
cell("tf.function seeded random ops", """
    tf.random.set_seed(7)
    @tf.function
    def noisy(x):
        return x + tf.random.uniform(tf.shape(x))
    _out = _fp(noisy(tf.zeros(3)), noisy(tf.zeros(3)))
    """)
cell("tf.function python print runs at tracing only", """
    @tf.function
    def f(x):
        print("tracing f")
        return x * 2.0
    for i in range(3):
        y = f(tf.constant(float(i)))
    _out = _fp(y)
    """)
cell("tf.function train step", """
    w = tf.Variable([[0.5], [-0.25]])
    opt = keras.optimizers.SGD(0.1)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = tf.constant([[1.0], [0.0]])
    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ w - y) ** 2)
        grads = tape.gradient(loss, [w])
        opt.apply_gradients(zip(grads, [w]))
        return loss
    losses = [step() for _step in range(5)]
    _out = _fp(losses, w)
    """)
cell("tf.function with tf.Module", """
    class Scale(tf.Module):
        def __init__(self):
            self.k = tf.Variable(2.0)
        @tf.function
        def __call__(self, x):
            return self.k * x
    m = Scale()
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(m(tf.constant([1.0, 2.0])))
    g = tape.gradient(out, m.trainable_variables)
    _out = _fp(out, g)
    """)
cell("cell sets run_functions_eagerly itself", """
    tf.config.run_functions_eagerly(True)
    @tf.function
    def f(x):
        return x + 1.0, tf.executing_eagerly()
    a = f(tf.constant(1.0))
    tf.config.run_functions_eagerly(False)
    _out = _fp(a[0], bool(a[1]), tf.config.functions_run_eagerly())
    """)
cell("cell reads functions_run_eagerly after setting it False", """
    tf.config.run_functions_eagerly(False)
    g = tf.function(lambda x: (x * 3.0, tf.executing_eagerly()))
    r = g(tf.constant(2.0))
    _out = _fp(r[0], bool(r[1]), tf.config.functions_run_eagerly())
    """)

# -- jacobians -------------------------------------------------------------------------------------
cell("jacobian", """
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = x * x + tf.reduce_sum(x)
    j = tape.jacobian(y, x)
    _out = _fp(j)
    """)
cell("batch_jacobian", """
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * 2.0
    j = tape.batch_jacobian(y, x)
    _out = _fp(j)
    """)
cell("jacobian without vectorization", """
    x = tf.Variable([0.5, -1.0])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.sin(x) * x
    j = tape.jacobian(y, x, experimental_use_pfor=False)
    del tape
    _out = _fp(j)
    """)

# -- distribution, precision -----------------------------------------------------------------------
cell("MirroredStrategy custom step on CPU", """
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        model = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(2)])
        opt = keras.optimizers.SGD(0.05)
    x = tf.ones((4, 3))
    y = tf.zeros((4, 2))
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    loss = strategy.run(step, args=(x, y))
    _out = _fp(loss, model.get_weights())
    """)
cell("MirroredStrategy step inside a tf.function", """
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        w = tf.Variable([[1.0], [2.0]])
    x = tf.ones((4, 2))
    @tf.function
    def train_step():
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(x @ w)
            w.assign_sub(0.01 * tape.gradient(loss, w))
            return loss
        return strategy.run(step)
    losses = [train_step() for _step in range(2)]
    _out = _fp(losses, w)
    """)
cell("mixed precision custom step", """
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(3),
                                  keras.layers.Dense(1, dtype="float32")])
        opt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.01))
        x = tf.random.normal((8, 4), seed=1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
            scaled = opt.scale_loss(loss)
        grads = tape.gradient(scaled, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    finally:
        keras.mixed_precision.set_global_policy("float32")
    _out = _fp(loss, model.get_weights())
    """)

# -- Keras fit / evaluate / predict ----------------------------------------------------------------
cell("fit with callbacks, then evaluate and predict", """
    class Log(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            print("epoch", epoch, sorted(logs))
    x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
    model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(8, "relu"),
                              keras.layers.Dense(1, "sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=16, verbose=0, callbacks=[Log()])
    ev = model.evaluate(x, y, verbose=0)
    pred = model.predict(x[:4], verbose=0)
    _out = _fp(history.history["loss"], ev, pred, model.get_weights())
    """)
cell("fit with a custom train_step", """
    class Custom(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self(x, training=True) - y) ** 2)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}
    inputs = keras.Input((3,))
    model = Custom(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd")
    x = np.ones((32, 3), "float32")
    y = np.zeros((32, 1), "float32")
    h = model.fit(x, y, epochs=1, batch_size=8, verbose=0)
    _out = _fp(h.history["loss"], model.get_weights())
    """)
cell("fit on a tf.data pipeline", """
    ds = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal((40, 5), seed=2), tf.random.normal((40, 1), seed=3))).batch(10)
    model = keras.Sequential([keras.layers.Input((5,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    h = model.fit(ds, epochs=1, verbose=0)
    _out = _fp(h.history["loss"], model.get_weights())
    """)

# -- tf.data ---------------------------------------------------------------------------------------
cell("tf.data map batch custom loop", """
    ds = (tf.data.Dataset.range(12).map(lambda i: (tf.cast(i, tf.float32), 2.0 * tf.cast(i,
          tf.float32))).batch(4))
    w = tf.Variable(0.5)
    for xb, yb in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((w * xb - yb) ** 2)
        w.assign_sub(0.01 * tape.gradient(loss, w))
    _out = _fp(w, loss)
    """)
cell("tf.data with py_function", """
    def double(v):
        return v.numpy() * 2
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0]).map(
        lambda v: tf.py_function(double, [v], tf.float32))
    _out = _fp([float(v) for v in ds])
    """)

# -- threads ---------------------------------------------------------------------------------------
cell("a background thread doing TF work", """
    results = {}
    def work():
        v = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as t:
            s = tf.reduce_sum(v * v)
        results["g"] = t.gradient(s, v).numpy()
        results["np"] = np.sqrt(tf.constant([4.0, 9.0]))
    th = threading.Thread(target=work)
    th.start()
    w = tf.Variable([3.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * 2.0)
    g = tape.gradient(loss, [w])
    th.join()
    print("thread", results["g"], results["np"])
    _out = _fp(results["g"], results["np"], g)
    """)

# -- training patterns that look suspicious but are correct ----------------------------------------
cell("EMA target network update", """
    online = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(2)])
    target = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(2)])
    target.set_weights(online.get_weights())
    opt = keras.optimizers.Adam(0.01)
    x = tf.random.normal((5, 3), seed=4)
    for _step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((online(x) - tf.stop_gradient(target(x)) - 1.0) ** 2)
        grads = tape.gradient(loss, online.trainable_variables)
        opt.apply_gradients(zip(grads, online.trainable_variables))
        for t, o in zip(target.weights, online.weights):
            t.assign(0.99 * t + 0.01 * o)
    _out = _fp(loss, target.get_weights())
    """)
cell("GAN with two tapes", """
    gen = keras.Sequential([keras.layers.Input((2,)), keras.layers.Dense(3)])
    disc = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(1)])
    g_opt, d_opt = keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3)
    bce = keras.losses.BinaryCrossentropy(from_logits=True)
    real = tf.random.normal((4, 3), seed=5)
    for _step in range(2):
        z = tf.random.normal((4, 2), seed=6)
        with tf.GradientTape() as gt, tf.GradientTape() as dt:
            fake = gen(z, training=True)
            r, f = disc(real, training=True), disc(fake, training=True)
            g_loss = bce(tf.ones_like(f), f)
            d_loss = bce(tf.ones_like(r), r) + bce(tf.zeros_like(f), f)
        g_opt.apply_gradients(zip(gt.gradient(g_loss, gen.trainable_variables),
                                  gen.trainable_variables))
        d_opt.apply_gradients(zip(dt.gradient(d_loss, disc.trainable_variables),
                                  disc.trainable_variables))
    _out = _fp(g_loss, d_loss, gen.get_weights(), disc.get_weights())
    """)
cell("WGAN-GP gradient penalty (nested tapes)", """
    critic = keras.Sequential([keras.layers.Input((2,)), keras.layers.Dense(4, "tanh"),
                               keras.layers.Dense(1)])
    x = tf.random.normal((6, 2), seed=8)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            score = critic(x)
        gx = inner.gradient(score, x)
        penalty = tf.reduce_mean((tf.norm(gx, axis=1) - 1.0) ** 2)
        loss = tf.reduce_mean(score) + 10.0 * penalty
    g = outer.gradient(loss, critic.trainable_variables)
    _out = _fp(loss, g)
    """)
cell("straight-through estimator", """
    w = tf.Variable([0.3, 1.7, -0.6])
    with tf.GradientTape() as tape:
        q = w + tf.stop_gradient(tf.round(w) - w)
        loss = tf.reduce_sum(q * q)
    g = tape.gradient(loss, [w])
    _out = _fp(q, g)
    """)
cell("frozen backbone", """
    backbone = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(3)])
    backbone.trainable = False
    head = keras.layers.Dense(1)
    x = tf.ones((2, 4))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(head(backbone(x)))
    g = tape.gradient(loss, head.trainable_variables)
    _out = _fp(loss, g, len(backbone.trainable_variables))
    """)
cell("py_function over TF ops in a metric", """
    w = tf.Variable([1.0, -2.0])
    def metric(v):
        return tf.reduce_max(v)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w ** 2)
    m = tf.py_function(metric, [w], tf.float32)
    g = tape.gradient(loss, w)
    _out = _fp(m, g)
    """)
cell("argmax accuracy next to the loss", """
    model = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(4)])
    x = tf.random.normal((6, 3), seed=9)
    y = tf.constant([0, 1, 2, 3, 0, 1])
    with tf.GradientTape() as tape:
        logits = model(x)
        loss = keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True)
        loss = tf.reduce_mean(loss)
        acc = tf.reduce_mean(tf.cast(tf.argmax(logits, 1, output_type=tf.int32) == y,
                                     tf.float32))
    g = tape.gradient(loss, model.trainable_variables)
    _out = _fp(loss, acc, g)
    """)
cell("tf.where mask and gather with int indices", """
    w = tf.Variable([1.0, -2.0, 3.0, -4.0])
    idx = tf.constant([0, 2])
    with tf.GradientTape() as tape:
        masked = tf.where(w > 0, w, tf.zeros_like(w))
        picked = tf.gather(w, idx)
        loss = tf.reduce_sum(masked) + tf.reduce_sum(picked ** 2)
    g = tape.gradient(loss, w)
    _out = _fp(loss, g)
    """)
cell("persistent tape used twice", """
    a = tf.Variable(2.0)
    b = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        p = a * b
        q = a + b * b
    ga = tape.gradient(p, [a, b])
    gb = tape.gradient(q, [a, b])
    del tape
    _out = _fp(ga, gb)
    """)
cell("custom_gradient with clipping", """
    @tf.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(clip_grad(w) * 10.0)
    g = tape.gradient(loss, w)
    _out = _fp(loss, g)
    """)
cell("unconnected_gradients ZERO on a tf.Variable", """
    used = tf.Variable(1.0)
    spare = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        loss = used * 3.0
    g = tape.gradient(loss, [used, spare], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    _out = _fp(g)
    """)
cell("embedding gradients are IndexedSlices", """
    emb = keras.layers.Embedding(10, 3)
    ids = tf.constant([[1, 2], [3, 1]])
    opt = keras.optimizers.SGD(0.1)
    emb(ids)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(emb(ids) ** 2)
    g = tape.gradient(loss, emb.trainable_variables)
    opt.apply_gradients(zip(g, emb.trainable_variables))
    _out = _fp(loss, type(g[0]).__name__, emb.get_weights())
    """)
cell("LSTM custom step with clipping by global norm", """
    model = keras.Sequential([keras.layers.Input((4, 2)), keras.layers.LSTM(3),
                              keras.layers.Dense(1)])
    opt = keras.optimizers.Adam(0.01)
    x = tf.random.normal((2, 4, 2), seed=10)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    grads, norm = tf.clip_by_global_norm(grads, 1.0)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    _out = _fp(loss, norm, model.get_weights())
    """)
cell("dropout and batch norm in training mode", """
    model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(6),
                              keras.layers.BatchNormalization(), keras.layers.Dropout(0.5, seed=1),
                              keras.layers.Dense(1)])
    x = tf.random.normal((8, 4), seed=11)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x, training=True) ** 2)
    g = tape.gradient(loss, model.trainable_variables)
    _out = _fp(loss, g, model.get_weights())
    """)
cell("random Generator in an eager loop", """
    gen = tf.random.Generator.from_seed(42)
    w = tf.Variable(tf.zeros(3))
    for _step in range(3):
        noise = gen.normal((3,))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((w - noise) ** 2)
        w.assign_sub(0.1 * tape.gradient(loss, w))
    _out = _fp(w, gen.normal((2,)))
    """)
cell("learning-rate schedule and NumPy on the gradients", """
    sched = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = keras.optimizers.SGD(sched)
    w = tf.Variable([2.0, -1.0])
    norms = []
    for _step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w ** 2)
        g = tape.gradient(loss, [w])
        norms.append(float(np.linalg.norm(g[0])))
        opt.apply_gradients(zip(g, [w]))
    print("norms", [round(n, 6) for n in norms])
    _out = _fp(w, norms)
    """)
cell("step counter variable and Python branch on a metric", """
    step = tf.Variable(0, dtype=tf.int64)
    w = tf.Variable(1.0)
    for i in range(4):
        with tf.GradientTape() as tape:
            loss = (w - 3.0) ** 2
        w.assign_sub(0.1 * tape.gradient(loss, w))
        step.assign_add(1)
        if loss < 2.0:
            print("small loss at", int(step))
    _out = _fp(w, step)
    """)
cell("exception raised after a step", """
    w = tf.Variable([1.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * 4.0)
    g = tape.gradient(loss, w)
    print("grad", g.numpy())
    _out = _fp(g)
    raise ValueError("the cell's own error")
    """)
cell("TF error inside the tape", """
    w = tf.Variable([1.0, 2.0])
    _out = "before"
    with tf.GradientTape() as tape:
        bad = tf.reshape(w, (3,))
    """)
cell("SavedModel export of a tf.Module (a plain tf.Graph captures its function)", """
    import tempfile
    class _Scaled(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)
        @tf.function(input_signature=[tf.TensorSpec(None)])
        def f(self, x):
            return x * self.v
    _dir = tempfile.mkdtemp()
    tf.saved_model.save(_Scaled(), _dir)
    _loaded = tf.saved_model.load(_dir)
    _out = _fp(_loaded.f(tf.constant(3.0)))
    print("saved")
    """)
cell("value displayed at the end", """
    w = tf.Variable([1.5])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w ** 3)
    _out = _fp(tape.gradient(loss, w))
    float(loss), w.numpy().tolist()
    """)


def _magic(body: str) -> str:
    return "%%gradcheck\n" + body


def _report(run: Any) -> Report | None:
    bundles = [o for o in run.outputs if MIME_TYPE in o]
    return Report.from_json(bundles[0][MIME_TYPE]) if bundles else None


_RULE = "-" * 75


def _without_traceback(stdout: str) -> tuple[str, str]:
    """Split IPython's traceback off: (what came before it, its last line).

    Under any cell magic IPython shows its ``run_cell_magic`` frame, and the user's lines are
    numbered as the editor shows the cell (the ``%%gradcheck`` line is line 1): the exception
    itself is compared exactly, by :func:`_error` and the traceback's last line.
    """
    head, sep, tail = stdout.partition(_RULE)
    return head, tail.rstrip("\n").rsplit("\n", 1)[-1] if sep else ""


def _error(run: Any) -> tuple[str, str] | None:
    error = run.error
    return None if error is None else (type(error).__name__, str(error))


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[tuple[str, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append((record.name, record.levelname, record.getMessage()))


@contextlib.contextmanager
def _observed() -> Iterator[list[Any]]:
    """Collect what bypasses IPython's capture: log records and warnings, in order.

    TensorFlow's logger writes through a handler bound to the process's stderr ("It looks like
    tf.function behavior was disabled", "Using MirroredStrategy eagerly"), and pytest records
    warnings itself: both are compared here.
    """
    seen: list[Any] = []
    handler = _Records()
    loggers = [logging.getLogger(), logging.getLogger("tensorflow")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield seen
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    seen.extend(handler.seen)
    seen.extend((w.category.__name__, str(w.message)) for w in caught)


def _params() -> list[Any]:
    return [pytest.param(name, marks=[mark] if mark else [], id=name)
            for name, (_, mark) in CELLS.items()]


def test_the_corpus_is_big_enough() -> None:
    assert len(CELLS) >= 30


@pytest.mark.parametrize("name", _params())
def test_correct_cell_behaves_as_without_the_magic(run_cell, shell, name: str) -> None:
    body = PRELUDE + CELLS[name][0]
    with _observed() as plain_logged:
        plain = run_cell(body)
    plain_out = shell.user_ns.get("_out")
    shell.user_ns.pop("_out", None)
    with _observed() as traced_logged:
        traced = run_cell(_magic(body))
    traced_out = shell.user_ns.get("_out")
    assert plain_out is not None, plain.stdout + plain.stderr
    assert _error(traced) == _error(plain)
    assert _without_traceback(traced.normalized_stdout()) == _without_traceback(
        plain.normalized_stdout())
    assert traced.stderr == plain.stderr
    assert traced_logged == plain_logged
    assert repr(traced.value) == repr(plain.value)
    assert traced_out == plain_out
    report = _report(traced)
    assert report is not None
    loud = [(f.rule, f.severity, f.message) for f in report.findings
            if f.severity in ("error", "warning")]
    assert not loud, f"correct code got findings: {loud}"
