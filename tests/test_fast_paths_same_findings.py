"""The recorder's fast paths change no finding.

The reports of broken and correct programs (some from a breaker pass that found a one-op
summary of the backward pass and a blunter initialiser skip wrong) must be the same with the
fast backward pass (``tracing/backward.py``) and the initialiser skip
(``tracing/initializers.py``) both switched off.
"""

from __future__ import annotations

from typing import Any

import pytest

from tapemagic.tracing import backward, initializers
from tests.fast_path_checks import DENSE_STEP, Checked, check_of, results

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


def findings(check: Checked) -> list[tuple[Any, ...]]:
    """What a user reads: each finding's rule, message, place, weights, op and rank."""
    return [(f.rule, f.message, f.location, f.variables, f.primary, f.op_type, f.api)
            for f in check.report.findings]


def exactly_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch both off: every backward op and every initialiser op recorded."""
    monkeypatch.setattr(backward, "begin", lambda *args: None)
    monkeypatch.setattr(initializers.InitializerHooks, "install", lambda self: None)


# -- no finding changes --------------------------------------------------------------------------

SAME_FINDINGS = {
    "clean dense step": DENSE_STEP,
    "higher order: the outer tape records the inner call": """
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.reduce_sum(w * w * w)
            g = inner.gradient(y, w)
            penalty = tf.reduce_sum(g * g)
        outer.gradient(penalty, [w])
        """,
    "a persistent tape recording its own gradient": """
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape(persistent=True) as tape:
            y = tf.reduce_sum(w * w)
            g = tape.gradient(y, w)
            z = tf.reduce_sum(g * w)
        tape.gradient(z, [w])
        del tape
        """,
    # from the breaker pass: a gradient taken with no tape recording, then used in a later tape
    # (the later loss depends on what the backward pass read, not on all of the first target)
    "WGAN-GP penalty computed before the outer tape": """
        D = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="tanh"),
                              keras.layers.Dense(1)])
        real = tf.random.normal((8, 3))
        fake = tf.random.normal((8, 3))
        eps = tf.random.uniform((8, 1))
        xhat = eps * real + (1 - eps) * fake
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(xhat)
            d_hat = D(xhat)
        g = gp_tape.gradient(d_hat, xhat)
        with tf.GradientTape() as tape:
            loss = 10.0 * tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
        grads = tape.gradient(loss, D.trainable_variables)
        """,
    "MAML step with an additive alpha": """
        w = tf.Variable(tf.random.normal((3, 1)), name="w")
        alpha = tf.Variable(0.5, name="alpha")
        x = tf.random.normal((8, 3))
        y = tf.random.normal((8, 1))
        with tf.GradientTape() as inner:
            inner_loss = tf.reduce_mean(tf.square(x @ w - y)) + alpha
        g = inner.gradient(inner_loss, w)
        with tf.GradientTape() as outer:
            outer_loss = tf.reduce_mean(tf.square(x @ (w - 0.1 * g) - y))
        gw, galpha = outer.gradient(outer_loss, [w, alpha])
        """,
    # an initial value computed from a recorded variable or tensor: a TM402 cut at the assign
    "a kernel initialised from another variable": """
        alpha = tf.Variable(2.0, name="alpha")

        class Scaled(keras.layers.Layer):
            def build(self, shape):
                self.k = self.add_weight(
                    shape=(shape[-1], 2), name="k",
                    initializer=lambda shape, dtype=None: alpha * tf.ones(shape))

            def call(self, x):
                return x @ self.k

        layer = Scaled()
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        gk, galpha = tape.gradient(loss, [layer.k, alpha])
        """,
    "a Constant initialiser of a tensor from the tape": """
        w = tf.Variable(tf.ones((3, 2)), name="w")
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            w2 = w * 0.5
            dec = keras.layers.Dense(2, use_bias=False,
                                     kernel_initializer=keras.initializers.Constant(w2))
            loss = tf.reduce_sum(dec(x) ** 2)
        gw = tape.gradient(loss, w)
        """,
    "a tied decoder initialised from the encoder's kernel": """
        class Tied(keras.layers.Layer):
            def __init__(self, enc):
                super().__init__()
                self.enc = enc

            def build(self, shape):
                self.kernel = self.add_weight(
                    shape=(4, 3), name="dec_kernel",
                    initializer=lambda shape, dtype=None: tf.transpose(self.enc.kernel))

            def call(self, h):
                return h @ self.kernel

        enc = keras.layers.Dense(4, use_bias=False)
        x = tf.random.normal((4, 3))
        enc.build((None, 3))
        dec = Tied(enc)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((dec(tf.stop_gradient(enc(x))) - x) ** 2)
        g = tape.gradient(loss, [enc.kernel, dec.kernel])
        """,
    "gradients through NumPy, then applied": """
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        x = tf.random.normal((8, 3))
        opt = keras.optimizers.Adam(0.01)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
        grads = [g.numpy() * 0.5 for g in tape.gradient(loss, model.trainable_variables)]
        opt.apply_gradients(zip(grads, model.trainable_variables))
        """,
    "loss through NumPy (a cut)": """
        keras.utils.set_random_seed(2)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        x = tf.random.normal((8, 3))
        with tf.GradientTape() as tape:
            out = model(x).numpy()
            loss = tf.reduce_mean(tf.constant(out) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "forward pass before the tape (a cut)": """
        keras.utils.set_random_seed(4)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                                  keras.layers.Dense(1)])
        x = tf.random.normal((8, 3))
        y = model(x)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(y ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "argmax on the path, two steps, manual SGD": """
        w = tf.Variable(tf.ones((3, 4)))
        x = tf.random.stateless_normal((5, 3), seed=(1, 2))
        for step in range(2):
            with tf.GradientTape() as tape:
                logits = x @ w
                loss = tf.reduce_sum(tf.cast(tf.argmax(logits, axis=1), tf.float32))
            (g,) = tape.gradient(loss, [w])
            if g is not None:
                w.assign_sub(0.1 * g)
        """,
    # from the breaker pass: a user variable creator runs between the initialiser hook and the
    # VarHandleOp (the walk to the owner stops at its frame: no Keras variable, no TM110)
    "a variable made under a user's variable creator": """
        def logging_creator(next_creator, **kwargs):
            return next_creator(**kwargs)

        with tf.variable_creator_scope(logging_creator):
            model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)], name="clf")
            with tf.name_scope("calib"):
                temperature = keras.Variable(initializer=keras.initializers.Constant(1.5),
                                             shape=(), name="temperature")
        x = tf.random.normal((8, 4))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) / temperature))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    # from the breaker pass: a user op callback that removes itself at its first op (which
    # an initialiser runs); the run-time check of a later tf.function call must still happen
    "a user's op callback that removes itself": """
        from tensorflow.python.framework import op_callbacks

        def once(op_type, inputs, attrs, outputs, op_name=None, graph=None):
            op_callbacks.remove_op_callback(once)

        op_callbacks.add_op_callback(once)
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(
            3, kernel_initializer=keras.initializers.GlorotUniform(seed=1))])
        gate = keras.layers.Dense(1, name="gate")
        gate.build((None, 5))
        x = tf.random.normal((8, 5))
        params = model.trainable_variables + gate.trainable_variables

        @tf.function
        def step(xb):
            with tf.GradientTape() as tape:
                penalty = tf.reduce_mean(tf.nn.relu(gate(xb) - 100.0))
                loss = tf.reduce_mean(tf.square(model(xb))) + penalty
            return tape.gradient(loss, params)

        grads = step(x)
        """,
    "a frozen layer left out of the sources": """
        keras.utils.set_random_seed(5)
        base = keras.layers.Dense(4)
        head = keras.layers.Dense(1)
        model = keras.Sequential([keras.Input((3,)), base, head])
        base.trainable = False
        x = tf.random.normal((8, 3))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
        grads = tape.gradient(loss, head.trainable_variables + base.weights)
        """,
}


@pytest.mark.parametrize("cell", list(SAME_FINDINGS.values()), ids=list(SAME_FINDINGS))
def test_leaving_the_ops_out_changes_no_finding(cell: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fast = check_of(cell)
    with monkeypatch.context() as patch:
        exactly_as_before(patch)
        slow = check_of(cell)
    assert findings(fast) == findings(slow)
    assert results(fast) == results(slow)
