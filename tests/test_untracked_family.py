"""Weights nothing trains, keyed on the variable (issue 33 §1), with real TensorFlow and Keras 3.

TM114 for any variable a trained model's layer reads and no layer of it tracks, however it
got there: closed over by a ``Lambda`` (https://github.com/keras-team/keras/issues/4608), kept
in a ``tf.Module`` (https://github.com/tensorflow/tensorflow/issues/26792) or a plain helper
object stored on the layer; reported where it became untracked. TM118 (and TM501 when zero
weights explain it) for weights whose gradient is zero in every checked step
(https://community.deeplearning.ai/t/why-dont-weights-get-adjusted-when-initialized-to-0/431799).
Each silent look-alike is the correct shape of the same code: a later step or the other GAN
step trains the variable, an EMA writes it, it is not trainable, only a metric reads it, or a
zero-initialised scale zeroes the others on the first step only. Own code.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from checked import line_of, loud, run_program

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.tf

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [1.5]], dtype="float32")).astype("float32")
"""

FIT = """
model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
"""

STEP = """
optimizer = keras.optimizers.Adam(0.05)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(a) - b) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)  # GRADIENT
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

for _ in range(4):
    step(x, y)
"""


def _run(tmp_path: Path, *parts: str) -> tuple[Any, dict[str, Any]]:
    done = run_program(tmp_path, "".join(textwrap.dedent(part) for part in parts),
                       name="cell.py", prefix=SETUP)
    return done.report, done.namespace


def _line(tmp_path: Path, needle: str) -> int:
    return line_of(tmp_path / "cell.py", needle)


LAMBDA = """
scale = tf.Variable([0.5], name="scale")  # MADE
inputs = keras.Input((4,))
hidden = keras.layers.Dense(4, activation="tanh", name="hidden")(inputs)
scaled = keras.layers.Lambda(lambda t: t * scale, name="scaled")(hidden)
model = keras.Model(inputs, keras.layers.Dense(1, name="out")(scaled))
"""


@pytest.mark.parametrize("train", [FIT, STEP], ids=["fit", "tf_function_step"])
def test_a_variable_a_lambda_closes_over_is_reported_where_it_is_made(tmp_path: Path,
                                                                      train: str) -> None:
    report, ns = _run(tmp_path, LAMBDA, "start = scale.numpy().copy()\n", train,
                      "moved = bool(np.any(start != scale.numpy()))\n")
    assert not ns["moved"]
    assert loud(report) == [("TM114", _line(tmp_path, "# MADE"))]
    (finding,) = report.findings
    assert [v.rsplit("/", 1)[-1] for v in finding.variables] == ["scale"]
    assert "closes over" in finding.message


HOLDERS = {
    "tf_module": """
        class Holder(tf.Module):
            def __init__(self):
                super().__init__()
                self.gain = tf.Variable(1.0, name="gain")
        """,
    "helper_object": """
        class Holder:
            def __init__(self):
                self.gain = keras.Variable(1.0, name="gain")
        """,
}

HELD = """
class Scaled(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1, name="dense")
        self.holder = Holder()  # STORED

    def call(self, inputs):
        return self.dense(inputs) * self.holder.gain

model = keras.Sequential([keras.Input((4,)), Scaled(name="scaled")])
"""


@pytest.mark.parametrize("holder", sorted(HOLDERS))
@pytest.mark.parametrize("train", [FIT, STEP], ids=["fit", "tf_function_step"])
def test_a_variable_behind_an_object_keras_does_not_track_is_reported_where_it_is_stored(
        tmp_path: Path, holder: str, train: str) -> None:
    report, ns = _run(tmp_path, HOLDERS[holder], HELD, train,
                      "gain = float(model.layers[0].holder.gain.numpy())\n")
    assert ns["gain"] == 1.0  # Keras 3 tracks neither: nothing trains it
    assert loud(report) == [("TM114", _line(tmp_path, "# STORED"))]
    (finding,) = report.findings
    assert [v.rsplit("/", 1)[-1] for v in finding.variables] == ["gain"]
    assert "self.holder" in finding.message
    assert "TM110" not in report.codes  # one finding, with the reason, not a twin


def test_a_closed_over_variable_a_later_step_trains_is_silent(tmp_path: Path) -> None:
    # temperature scaling: fit trains the model, then a step trains the temperature alone
    report, ns = _run(tmp_path, LAMBDA, FIT, """
        start = scale.numpy().copy()
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            (g,) = tape.gradient(loss, [scale])
            scale.assign_sub(0.01 * g)
        moved = bool(np.any(start != scale.numpy()))
        """)
    assert ns["moved"]
    assert loud(report) == []


def test_a_closed_over_variable_the_other_gan_step_trains_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, LAMBDA, """
        critic = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, name="c")])
        g_opt, c_opt = keras.optimizers.Adam(0.01), keras.optimizers.Adam(0.01)
        g_vars = model.trainable_variables + [scale]

        @tf.function
        def step(a):
            with tf.GradientTape() as tape:  # the critic's step leaves the generator alone
                c_loss = tf.reduce_mean(critic(model(a)))
            c_grads = tape.gradient(c_loss, critic.trainable_variables)
            c_opt.apply_gradients(zip(c_grads, critic.trainable_variables))
            with tf.GradientTape() as tape:
                g_loss = -tf.reduce_mean(critic(model(a)))
            g_grads = tape.gradient(g_loss, g_vars)
            g_opt.apply_gradients(zip(g_grads, g_vars))

        for _ in range(3):
            step(x)
        """)
    assert loud(report) == []


@pytest.mark.parametrize("holder", [
    # not trainable: fixed random features
    'self.gain = tf.Variable(1.0, trainable=False, name="gain")',
    # an EMA shadow: written by assign after every step
    'self.gain = tf.Variable(1.0, name="gain")  # EMA',
])
def test_untracked_variables_frozen_or_written_on_purpose_are_silent(tmp_path: Path,
                                                                     holder: str) -> None:
    report, _ = _run(tmp_path, f"""
class Holder(tf.Module):
    def __init__(self):
        super().__init__()
        {holder}
""", HELD, """
optimizer = keras.optimizers.Adam(0.05)
layer = model.layers[0]
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
""" + ("    layer.holder.gain.assign(0.9 * layer.holder.gain + 0.1 * layer.dense.bias[0])\n"
       if "EMA" in holder else ""))
    assert loud(report) == []


def test_a_closed_over_variable_only_a_metric_reads_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        calibration = tf.Variable(2.0, name="calibration")
        inputs = keras.Input((4,))
        out = keras.layers.Dense(1, name="out")(inputs)
        shown = keras.layers.Lambda(lambda t: t / calibration, name="shown")(out)
        model = keras.Model(inputs, [out, shown])
        optimizer = keras.optimizers.Adam(0.05)
        metric = keras.metrics.Mean()
        for _ in range(2):
            with tf.GradientTape() as tape:
                main, aux = model(x)
                loss = tf.reduce_mean((main - y) ** 2)
            metric.update_state(aux)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        """)
    assert loud(report) == []


ZERO_MLP = """
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(6, activation="tanh", kernel_initializer="zeros", name="h"),  # FIRST
    keras.layers.Dense(1, kernel_initializer="{init}", name="out"),
], name="mlp")
"""


@pytest.mark.parametrize("train", [FIT, STEP], ids=["fit", "tf_function_step"])
def test_zero_weights_that_keep_each_other_zero_are_named_at_the_first_zero_layer(
        tmp_path: Path, train: str) -> None:
    report, _ = _run(tmp_path, ZERO_MLP.format(init="zeros"), train)
    assert loud(report) == [("TM501", _line(tmp_path, "# FIRST"))]
    (finding,) = report.findings
    assert sorted(finding.variables) == ["mlp/h/bias", "mlp/h/kernel", "mlp/out/kernel"]
    assert "nothing breaks the symmetry" in finding.message
    # the invariant saw them stay zero: a note beside the cause, not a second finding
    assert any("did not change in 4 checked steps" in note for note in report.notes)


def test_a_zero_output_layer_that_moves_on_the_first_step_is_silent(tmp_path: Path) -> None:
    # the hidden layer's gradient is zero on the first step only (Fixup, a zero last layer)
    report, _ = _run(tmp_path, ZERO_MLP.replace(', kernel_initializer="zeros"', "", 1)
                     .format(init="zeros"), STEP)
    assert loud(report) == [] and not any("did not change" in n for n in report.notes)


def test_a_gradient_zero_on_every_step_is_named_at_the_mask_that_zeroes_it(
        tmp_path: Path) -> None:
    # an auxiliary head whose loss mask is never on for this data: its weights never train;
    # the zero factor is walked back to the comparison that made the mask (graph/zero_factors),
    # and the invariant's count stays a note beside that finding
    report, _ = _run(tmp_path, """
        inputs = keras.Input((4,))
        model = keras.Model(inputs, [keras.layers.Dense(1, name="main")(inputs),
                                     keras.layers.Dense(1, name="aux")(inputs)])
        optimizer = keras.optimizers.Adam(0.05)
        mask = tf.cast(tf.abs(y) > 1e6, tf.float32)  # MASK

        @tf.function
        def step(a, b):
            with tf.GradientTape() as tape:
                main, aux = model(a)
                loss = tf.reduce_mean((main - b) ** 2) + tf.reduce_mean(mask * (aux - b) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)  # GRADIENT
            optimizer.apply_gradients(zip(grads, model.trainable_variables))

        for _ in range(3):
            step(x, y)
        """)
    assert loud(report) == [("TM501", _line(tmp_path, "# MASK"))]
    (found,) = report.findings
    assert sorted(v.rsplit("/", 1)[-1] for v in found.variables) == ["bias", "kernel"]
    assert all("aux" in v for v in found.variables)
    assert "exactly zero in each of 3 checked steps" in found.message
    assert any("did not change in 3 checked steps" in note for note in report.notes)


def test_zeros_whose_op_is_found_leave_the_count_beside_the_cut(tmp_path: Path) -> None:
    # a fake-quant range every activation is clamped to: the op is the cut (TM501, primary);
    # the head behind it gets zeros too, counted by TM118 beside it, not as a cut of its own
    source = (ROOT / "bench/cases/fake_quant_vars_activation_range_eager/bad.py").read_text()
    report = run_program(tmp_path, source, name="quant.py").report
    primary = {f.rule for f in report.findings if f.primary}
    assert primary == {"TM501"}, [(f.rule, f.primary) for f in report.findings]
