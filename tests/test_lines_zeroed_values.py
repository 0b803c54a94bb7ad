"""The line to change where the values themselves zero or cut a gradient (issue 17, 3.).

Each program is written to a real file (autograph reads the source of what it converts) and
run through ``tapemagic.gradcheck`` in graph mode as written and forced eager: the broken one
gets its finding on the line the user must change, the correct one of the same shape gets no
warning or error finding (helpers in tests/line_checks.py).

Kinds: unscaled float16 gradients, a bias before BatchNormalization (by design, never loud), a
Python 0.0 frozen into the graph, watched integer values (no gradient by their dtype).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.line_checks import MODES, check, found, line, loud

pytestmark = pytest.mark.tf


# -- 4. mixed precision: the gradient of the unscaled loss underflows float16 -----------------

MIXED = """
import keras
keras.mixed_precision.set_global_policy("mixed_float16")
try:
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="tanh",
                              name="h"), keras.layers.Dense(1, name="out")], name="mp")
    optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(1e-3))
    rng = np.random.default_rng(19)
    x = tf.constant(rng.normal(size=(64, 8)).astype("float32"))
    y = tf.constant(rng.normal(size=(64, 1)).astype("float32"))

    @tf.function
    def step(features, labels):
        with tf.GradientTape() as tape:
            pred = tf.cast(model(features, training=True), tf.float32)
            loss = 1e-8 * tf.reduce_mean(tf.square(pred - labels))
            {scale}
        grads = tape.gradient(target, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return grads

    g = step(x, y)
finally:
    keras.mixed_precision.set_global_policy("float32")
"""


@MODES
def test_unscaled_float16_gradients_at_the_gradient_call(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, MIXED.format(scale="target = loss"), eager)
    assert found(report) == {("TM503", line(path, "grads = tape.gradient"), True)}
    assert set(report.findings[0].variables) == {"mp/h/kernel", "mp/h/bias", "mp/out/kernel",
                                                 "mp/out/bias"}


@MODES
def test_scaled_float16_gradients_are_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, MIXED.format(scale="target = optimizer.scale_loss(loss)"), eager)
    assert loud(report) == []
    assert {s.verdict for c in report.gradient_calls for s in c.sources} == {"connected"}


# -- 8. zeros by design: a Dense bias right before BatchNormalization -------------------------

BATCHNORM = """
model = tf.keras.Sequential([tf.keras.layers.Input((6,)), tf.keras.layers.Dense(8, name="d"),
                             tf.keras.layers.BatchNormalization(name="bn"),
                             tf.keras.layers.ReLU(), tf.keras.layers.Dense(1, name="out")])
rng = np.random.default_rng(2)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 1)).astype("float32"))

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
    return tape.gradient(loss, model.trainable_variables)

g = step(x, y)
"""


@MODES
def test_bias_cancelled_by_batchnorm_is_never_a_warning(tmp_path: Path, eager: bool) -> None:
    # BatchNormalization subtracts the batch mean, so the bias before it gets a zero (or
    # round-off) gradient by design: correct code in many models
    report, _ = check(tmp_path, BATCHNORM, eager)
    assert loud(report) == []


# -- 6. a Python 0.0 attribute read at trace time, frozen into the graph ----------------------

FROZEN = """
inputs = tf.keras.Input((6,))
hidden = tf.keras.layers.Dense(8, activation="tanh", name="enc")(inputs)
mu = tf.keras.layers.Dense(3, name="mu")(hidden)
log_var = tf.keras.layers.Dense(3, name="log_var")(hidden)
model = tf.keras.Model(inputs, [tf.keras.layers.Dense(6, name="dec")(mu), mu, log_var])
x = tf.constant(np.random.default_rng(34).random((32, 6)).astype("float32"))

class Trainer:
    def __init__(self):
        self.beta = {beta}

    @tf.function
    def step(self, batch):
        with tf.GradientTape() as tape:
            out, m, lv = model(batch, training=True)
            rec = tf.reduce_mean(tf.square(out - batch))
            kl = -0.5 * tf.reduce_mean(1.0 + lv - tf.square(m) - tf.exp(lv))
            loss = rec + self.beta * kl
        return tape.gradient(loss, model.trainable_variables)

trainer = Trainer()
for epoch in range(2):
    {ramp}
    g = trainer.step(x)
"""


def test_python_zero_frozen_into_the_graph(tmp_path: Path) -> None:
    report, path = check(tmp_path, FROZEN.format(beta="0.0", ramp="trainer.beta = epoch / 4"),
                         eager=False)
    assert found(report) == {("TM504", line(path, "loss = rec + self.beta * kl"), True)}
    assert set(report.findings[0].variables) == {"log_var/kernel", "log_var/bias"}


APPLIED = FROZEN.replace(
    "        return tape.gradient(loss, model.trainable_variables)",
    "        grads = tape.gradient(loss, model.trainable_variables)\n"
    "        opt.apply_gradients(zip(grads, model.trainable_variables))\n"
    "        return loss").replace("trainer = Trainer()", "opt = tf.keras.optimizers.SGD(0.1)\n"
                                  "trainer = Trainer()")


def test_python_zero_frozen_with_gradients_applied_in_the_step(tmp_path: Path) -> None:
    # the step applies its gradients: the step's probe shows their zeros, every path of the
    # log-variance head crosses the traced 0.0, and the loop sets the factor again
    report, path = check(tmp_path, APPLIED.format(beta="0.0", ramp="trainer.beta = epoch / 4"),
                         eager=False)
    assert found(report) == {("TM504", line(path, "loss = rec + self.beta * kl"), True)}
    assert report.headline.startswith("2 of 8 weights get an all-zero gradient")


@pytest.mark.parametrize("beta, ramp, term", [
    ("0.0", "pass", "self.beta * kl"),  # a weight set once to 0.0: the user's choice
    ("1.0", "trainer.beta = epoch / 4", "0.0 * kl"),  # a literal 0.0: meant
])
@pytest.mark.parametrize("applied", [True, False], ids=["applied", "returned"])
def test_a_zero_factor_never_set_again_is_silent(tmp_path: Path, beta: str, ramp: str,
                                                 term: str, applied: bool) -> None:
    # whether the step applies its gradients (seen by its probe) or returns them: a number
    # the code never changes, or a literal, is the user's choice
    # -0.25, not -0.5: a step whose code equals an earlier test's is converted once by
    # autograph (code objects compare equal whatever their file), and its source map then
    # names the earlier test's file
    program = APPLIED if applied else FROZEN
    report, _ = check(tmp_path, program.format(beta=beta, ramp=ramp).replace(
        "self.beta * kl", term).replace("kl = -0.5", "kl = -0.25"), eager=False)
    assert loud(report) == []


@MODES
def test_a_variable_loss_weight_is_silent(tmp_path: Path, eager: bool) -> None:
    report, _ = check(tmp_path, FROZEN.format(
        beta="tf.Variable(0.0, trainable=False)", ramp="trainer.beta.assign((epoch + 1) / 4)"),
        eager)
    assert loud(report) == []


@MODES
def test_a_zero_term_beside_a_live_path_is_silent(tmp_path: Path, eager: bool) -> None:
    # `0.0 * penalty` on weights the reconstruction also trains: nothing is zeroed
    report, _ = check(tmp_path, FROZEN.format(beta="1.0", ramp="pass").replace(
        "loss = rec + self.beta * kl", "loss = rec + self.beta * kl + 0.0 * tf.reduce_sum(m)"),
        eager)
    assert loud(report) == []


@MODES
def test_watched_integer_values_stay_at_the_line_that_made_them(tmp_path: Path,
                                                                 eager: bool) -> None:
    # integers used as values (not indices): making them float where they are made is the fix
    report, path = check(tmp_path, """
        @tf.function
        def f():
            x = tf.range(3)
            with tf.GradientTape() as g:
                g.watch(x)
                y = tf.reduce_sum(x * x)
            return g.gradient(y, x)

        grad = f()
        """, eager)
    assert found(report) == {("TM202", line(path, "x = tf.range(3)"), True)}
