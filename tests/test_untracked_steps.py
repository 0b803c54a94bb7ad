"""Weights a step over a model's whole list never trains, found from that step (issue 33 §1).

Real TensorFlow and Keras 3. The step's sources are one model's ``trainable_variables`` (``fit``'s
own train step, a ``train_step`` override): a trainable variable it reads outside that list,
that no other call trains and nothing writes, is reported where it became untracked. A raw
variable set on a Keras 3 ``Model`` and read in its ``train_step``
(https://github.com/tensorflow/tensorflow/issues/26792), a loss that closes over a learned
noise level (https://github.com/keras-team/keras/issues/12503), Keras variables a ``tf.Module``
holds itself (https://github.com/keras-team/keras/issues/20095), an encoder frozen for a
classifier after the autoencoder was compiled (https://github.com/keras-team/keras/issues/1699).
Each silent look-alike is correct code of the same shape. Own code.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from checked import line_of, loud, run_program

pytestmark = pytest.mark.tf

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5], [1.5]], dtype="float32")).astype("float32")
"""


def _run(tmp_path: Path, source: str, **options: Any) -> tuple[Any, dict[str, Any]]:
    done = run_program(tmp_path, textwrap.dedent(source), name="cell.py", prefix=SETUP,
                       **options)
    return done.report, done.namespace


def _line(tmp_path: Path, needle: str) -> int:
    return line_of(tmp_path / "cell.py", needle)


TWO_TASK = """
class Net(keras.Model):
    def __init__(self):
        super().__init__(name="net")
        self.body = keras.layers.Dense(4, activation="tanh", name="body")
        self.head = keras.layers.Dense(1, name="head")
        self.log_var = {made}  # MADE

    def call(self, inputs):
        return self.head(self.body(inputs))

    def train_step(self, data):
        a, b = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((self(a) - b) ** 2) * tf.exp(-self.log_var) + self.log_var
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        {after}
        return {{"loss": loss}}

model = Net()
model.compile(optimizer=keras.optimizers.Adam(0.05))
model(x[:2])
start = float(model.log_var.numpy())
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
moved = float(model.log_var.numpy()) != start
"""


def test_a_raw_variable_of_a_model_read_in_its_train_step_is_reported_where_made(
        tmp_path: Path) -> None:
    report, ns = _run(tmp_path, TWO_TASK.format(made='tf.Variable(0.0, name="log_var")',
                                                after=""))
    assert not ns["moved"]
    assert loud(report) == [("TM114", _line(tmp_path, "# MADE"))]
    (finding,) = report.findings
    assert finding.variables == ("log_var",) or list(finding.variables) == ["log_var"]


@pytest.mark.parametrize(("made", "after"), [
    # fixed on purpose
    ('tf.Variable(0.0, trainable=False, name="log_var")', ""),
    # Keras tracks its own variable: the step trains it
    ('keras.Variable(0.0, name="log_var")', ""),
    # an annealed weight the step writes itself
    ('tf.Variable(0.0, name="log_var")', "self.log_var.assign_add(0.01)"),
], ids=["not_trainable", "keras_variable", "written"])
def test_model_variables_a_train_step_reads_on_purpose_are_silent(
        tmp_path: Path, made: str, after: str) -> None:
    report, _ = _run(tmp_path, TWO_TASK.format(made=made, after=after))
    assert loud(report) == []


LOSS_CLOSURE = """
def make_loss():
    noise = tf.Variable(0.0, {flag}name="noise")  # MADE

    def loss(y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred) * tf.exp(-noise) + noise)

    loss.noise = noise
    return loss

nll = make_loss()
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="mean")], name="reg")
model.compile(optimizer=keras.optimizers.Adam(0.05), loss=nll)
start = float(nll.noise.numpy())
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
moved = float(nll.noise.numpy()) != start
"""


def test_a_variable_a_fit_loss_closes_over_is_reported_where_made(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, LOSS_CLOSURE.format(flag="trainable=True, "))
    assert not ns["moved"]
    assert loud(report) == [("TM114", _line(tmp_path, "# MADE"))]
    (finding,) = report.findings
    assert list(finding.variables) == ["noise"]
    assert "`fit` trains only" in finding.message


@pytest.mark.parametrize("flag", ["trainable=False, ", ""])
def test_a_fixed_variable_a_fit_loss_closes_over_is_silent(tmp_path: Path, flag: str) -> None:
    # without an explicit trainable=True, a variable a loss factory makes is the Keras 2 idiom
    # for constants (`weights = K.variable(class_weights)`): no weight anyone meant to learn
    report, _ = _run(tmp_path, LOSS_CLOSURE.format(flag=flag))
    assert loud(report) == []


def test_a_loss_variable_a_later_step_trains_is_silent(tmp_path: Path) -> None:
    # the noise level is fitted afterwards, by a step of its own (a calibration phase)
    report, ns = _run(tmp_path, LOSS_CLOSURE.format(flag="trainable=True, ") + """
for _ in range(2):
    with tf.GradientTape() as tape:
        calib = nll(y, model(x))
    (g,) = tape.gradient(calib, [nll.noise])
    nll.noise.assign_sub(0.1 * g)
""")
    assert loud(report) == []


def test_a_loss_variable_a_callback_anneals_is_silent(tmp_path: Path) -> None:
    # a KL-style weight made trainable by default, set by a callback: written, not learned
    report, _ = _run(tmp_path, """
        beta = tf.Variable(0.0, name="beta")

        def loss(y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true - y_pred)) * (1.0 + beta)

        class Anneal(keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                beta.assign(min(1.0, float(beta.numpy()) + 0.1))

        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="out")])
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss=loss)
        model.fit(x, y, epochs=2, batch_size=8, verbose=0, callbacks=[Anneal()])
        """)
    assert loud(report) == []


def test_a_feature_model_a_fit_loss_calls_is_silent(tmp_path: Path) -> None:
    # a perceptual loss: another Keras model's weights, tracked by its own layers, kept fixed
    # by not being in the trained model's list
    report, _ = _run(tmp_path, """
        features = keras.Sequential([keras.Input((1,)), keras.layers.Dense(3, name="f")],
                                    name="features")

        def perceptual(y_true, y_pred):
            return tf.reduce_mean(tf.square(features(y_true) - features(y_pred)))

        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="out")])
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss=perceptual)
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        """)
    assert loud(report) == []


def test_a_variable_only_a_fit_metric_reads_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        scale = tf.Variable(2.0, name="scale")

        def scaled_error(y_true, y_pred):
            return tf.reduce_mean(tf.abs(y_true - y_pred)) * scale

        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="out")])
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=[scaled_error])
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        """)
    assert loud(report) == []


MODULE = """
class Cubic(tf.Module):
    def __init__(self):
        super().__init__()
        self.coeffs = {make}(np.zeros((4, 1), "float32"), name="coeffs")  # MADE
        self.bias = {make}(0.0, name="bias")

    def __call__(self, inputs):
        return tf.matmul(inputs, self.coeffs) + self.bias

fitter = Cubic()
optimizer = keras.optimizers.SGD(0.1)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(fitter(a) - b))
    grads = tape.gradient(loss, fitter.trainable_variables)  # GRADIENT
    optimizer.apply_gradients(zip(grads, fitter.trainable_variables))

for _ in range(3):
    step(x, y)
"""


def test_keras_variables_a_tf_module_holds_are_reported_where_made(tmp_path: Path) -> None:
    # the list is empty: Keras' optimizer raises on it, as it did for the user
    report, _ = _run(tmp_path, MODULE.format(make="keras.Variable"), catch=ValueError)
    assert loud(report) == [("TM116", _line(tmp_path, "# MADE"))]
    (finding,) = report.findings
    assert sorted(finding.variables) == ["bias", "coeffs"]


def test_tf_variables_a_tf_module_holds_are_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, MODULE.format(make="tf.Variable"))
    assert loud(report) == []


AUTOENCODER = """
encoder = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2, name="code")],
                           name="encoder")
decoder = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, name="back")],
                           name="decoder")
inputs = keras.Input((4,))
autoencoder = keras.Model(inputs, decoder(encoder(inputs)), name="autoencoder")
{order}
autoencoder.fit(x, x, epochs=2, batch_size=8, verbose=0)
classifier.fit(x, y, epochs=2, batch_size=8, verbose=0)
"""

CLASSIFIER = """classifier = keras.Sequential([encoder, keras.layers.Dense(1, name="cls")],
                           name="classifier")
classifier.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
"""
FIT_AE = 'autoencoder.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")\n'
FREEZE = "encoder.trainable = False  # FROZEN\n"


def test_an_encoder_frozen_for_the_next_model_before_the_first_fit_is_reported(
        tmp_path: Path) -> None:
    # the Keras 2 order: compile the autoencoder, then freeze the encoder for the classifier
    report, _ = _run(tmp_path, AUTOENCODER.format(order=FIT_AE + FREEZE + CLASSIFIER))
    assert loud(report) == [("TM117", _line(tmp_path, "# FROZEN"))]
    (finding,) = report.findings
    assert sorted(finding.variables) == ["encoder/code/bias", "encoder/code/kernel"]
    assert "not when it compiles" in finding.message


def test_an_encoder_frozen_after_the_autoencoder_trained_is_silent(tmp_path: Path) -> None:
    # the right order for Keras 3: the autoencoder trains first, then the encoder is frozen
    source = AUTOENCODER.format(order=FIT_AE).replace(
        "classifier.fit", FREEZE + CLASSIFIER + "classifier.fit")
    report, _ = _run(tmp_path, source)
    assert loud(report) == []


def test_a_backbone_frozen_after_compile_for_its_own_model_is_silent(tmp_path: Path) -> None:
    # one model: compile, freeze the backbone, fit. Keras 3 honours the freeze, and no other
    # model was compiled with it frozen: the head training alone is what the code asks for
    report, _ = _run(tmp_path, """
        base = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="b")],
                                name="base")
        model = keras.Sequential([base, keras.layers.Dense(1, name="head")], name="model")
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
        base.trainable = False
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        """)
    assert loud(report) == []


def test_a_backbone_frozen_before_compile_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        base = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="b")],
                                name="base")
        base.trainable = False
        model = keras.Sequential([base, keras.layers.Dense(1, name="head")], name="model")
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        """)
    assert loud(report) == []


def test_a_keras3_gan_with_two_optimizers_in_its_train_step_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        class GAN(keras.Model):
            def __init__(self):
                super().__init__()
                self.gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, name="g")],
                                            name="gen")
                self.disc = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="d")],
                                             name="disc")
                self.g_opt = keras.optimizers.Adam(0.01)
                self.d_opt = keras.optimizers.Adam(0.01)

            def train_step(self, data):
                real, _ = data
                noise = tf.random.normal((tf.shape(real)[0], 2))
                with tf.GradientTape() as tape:
                    fake = self.gen(noise)
                    d_loss = tf.reduce_mean(self.disc(fake)) - tf.reduce_mean(self.disc(real))
                d_grads = tape.gradient(d_loss, self.disc.trainable_variables)
                self.d_opt.apply_gradients(zip(d_grads, self.disc.trainable_variables))
                with tf.GradientTape() as tape:
                    g_loss = -tf.reduce_mean(self.disc(self.gen(noise)))
                g_grads = tape.gradient(g_loss, self.gen.trainable_variables)
                self.g_opt.apply_gradients(zip(g_grads, self.gen.trainable_variables))
                return {"d": d_loss, "g": g_loss}

        gan = GAN()
        gan.compile()
        gan.fit(x, y, epochs=2, batch_size=8, verbose=0)
        """)
    assert loud(report) == []


def test_keras_layers_a_tf_module_keeps_in_a_plain_object_are_reported_at_its_class(
        tmp_path: Path) -> None:
    # the module's walk stops at the helper object; the one walk of holders.reached does not
    report, _ = _run(tmp_path, """
        class Parts:
            def __init__(self):
                self.dense = keras.layers.Dense(1, name="dense")

        class Trainer(tf.Module):  # CLASS
            def __init__(self):
                super().__init__()
                self.parts = Parts()

            def __call__(self, inputs):
                return self.parts.dense(inputs)

        trainer = Trainer()
        optimizer = keras.optimizers.SGD(0.1)
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(trainer(x) - y))
            grads = tape.gradient(loss, trainer.trainable_variables)
        """)
    assert loud(report) == [("TM116", _line(tmp_path, "# CLASS"))]
    (finding,) = report.findings
    assert sorted(finding.variables) == ["dense/bias", "dense/kernel"]


def test_the_loss_scale_of_a_mixed_precision_fit_is_silent(tmp_path: Path) -> None:
    # the optimizer's dynamic loss scale multiplies the loss inside the train step's tape
    report, _ = _run(tmp_path, """
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="out")])
        optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(0.05))
        model.compile(optimizer=optimizer, loss="mse")
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        """)
    assert loud(report) == []


def test_a_variable_only_another_loop_reads_is_not_fits(tmp_path: Path) -> None:
    # beside a fit, a hand-written loop leaves its bias out of the sources: that call's list is
    # the line to change (TM110, information), not a variable fit's step closed over
    report, _ = _run(tmp_path, """
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="out")])
        model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
        model.fit(x, y, epochs=1, batch_size=8, verbose=0)
        w = tf.Variable(tf.zeros((4, 1)), name="w")
        b = tf.Variable(0.0, name="b")
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(x @ w + b - y))
            (g,) = tape.gradient(loss, [w])
            w.assign_sub(0.1 * g)
        """)
    assert loud(report) == []
    assert "TM114" not in report.codes
