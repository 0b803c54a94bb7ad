"""TM114-TM116: weights the trained model reads that Keras 3 does not track (real Keras 3).

Each broken program also checks, with the weights themselves, that they did not move, so the
expectation follows TensorFlow 2.21 / Keras 3. Graph mode (the default) unless a test says
otherwise. Modelled on public reports: untracked ``tf.Variable``s in a layer are not trained
(https://github.com/keras-team/keras/issues/16797), a model wrapped in a ``Lambda`` does not
train (https://github.com/keras-team/keras-applications/issues/168), a ``tf.Module`` does not
see Keras 3 variables (https://github.com/tensorflow/tensorflow/issues/84019); own code.
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
x = np.random.rand(16, 4).astype("float32")
y = np.random.rand(16, 1).astype("float32")
"""


def _run(tmp_path: Path, *parts: str, force_eager: bool = False) -> tuple[Any, dict[str, Any]]:
    done = run_program(tmp_path, "".join(textwrap.dedent(part) for part in parts),
                       name="cell.py", prefix=SETUP, force_eager=force_eager)
    return done.report, done.namespace


def _line(tmp_path: Path, needle: str) -> int:
    return line_of(tmp_path / "cell.py", needle)


_loud = loud


RAW_LAYER = """
class Scale(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = {make}  # MADE

    def call(self, inputs):
        return inputs * self.w

scale = Scale(name="scale")
model = keras.Sequential([keras.Input((4,)), scale, keras.layers.Dense(1, name="out")])
start = scale.w.numpy().copy()
"""

FIT = """
model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
"""

STEP = """
optimizer = keras.optimizers.SGD(0.5)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(a) - b) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

for _ in range(2):
    step(x, y)
"""


@pytest.mark.parametrize("train", [FIT, STEP], ids=["fit", "tf_function_step"])
def test_raw_tf_variable_in_a_layer_is_reported_where_it_is_made(tmp_path: Path,
                                                                 train: str) -> None:
    report, ns = _run(tmp_path, RAW_LAYER.format(make="tf.Variable(tf.ones((4,)))") + train
                      + "moved = not np.allclose(start, scale.w.numpy())\n")
    assert not ns["moved"]  # Keras 3 does not track it: nothing trains it
    assert _loud(report) == [("TM114", _line(tmp_path, "# MADE"))]
    (finding,) = report.findings
    assert finding.severity == "warning" and len(finding.variables) == 1
    # the headline does not say every weight gets a gradient: this one never trains
    assert "1 weight on the loss path is in no source list" in report.headline, report.headline


def test_raw_tf_variables_in_a_list_made_in_build_are_named_together(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        class Gates(keras.layers.Layer):
            def build(self, shape):
                self.gates = [tf.Variable(tf.ones((shape[-1],)), name=f"g{i}")  # MADE
                              for i in range(2)]

            def call(self, inputs):
                return inputs * self.gates[0] + self.gates[1]

        gates = Gates()
        model = keras.Sequential([keras.Input((4,)), gates, keras.layers.Dense(1)])
        """, FIT)
    assert _loud(report) == [("TM114", _line(tmp_path, "# MADE"))]
    assert len(report.findings[0].variables) == 2


@pytest.mark.parametrize("make", [
    'self.add_weight(shape=(4,), initializer="ones")',
    'keras.Variable(np.ones(4, "float32"))',
])
def test_tracked_weights_of_a_layer_are_silent(tmp_path: Path, make: str) -> None:
    report, ns = _run(tmp_path, RAW_LAYER.format(make=make) + FIT
                      + "moved = not np.allclose(start, scale.w.numpy())\n")
    assert ns["moved"]
    assert _loud(report) == [] and report.codes == []


def test_a_non_trainable_tf_variable_counter_in_a_layer_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        class Counted(keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.calls = tf.Variable(0.0, trainable=False)
                self.dense = keras.layers.Dense(1)

            def call(self, inputs):
                self.calls.assign_add(1.0)
                return self.dense(inputs) * (1.0 + 0.0 * self.calls)

        model = keras.Sequential([keras.Input((4,)), Counted()])
        """, FIT)
    assert report.codes == []


@pytest.mark.parametrize("train", [FIT, STEP.replace("model(a)", "model(a, training=True)")],
                         ids=["fit", "tf_function_step"])
def test_a_tf_variable_counter_left_trainable_in_a_layer_is_silent(tmp_path: Path,
                                                                    train: str) -> None:
    # state kept by assign_add (trainable=True, tf.Variable's default), written before its
    # first read: the training branch is not taken when Keras builds the model, so the
    # step's increment comes first. The code maintains it: no weight the layer forgot
    report, ns = _run(tmp_path, """
        class Annealed(keras.layers.Layer):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.seen = tf.Variable(0.0)

            def call(self, inputs, training=None):
                if not training:
                    return inputs
                self.seen.assign_add(1.0)
                return inputs / (1.0 + self.seen)

        layer = Annealed()
        model = keras.Sequential([keras.Input((4,)), layer, keras.layers.Dense(1, name="out")])
        """, train, "seen = float(layer.seen.numpy())\n")
    assert ns["seen"] >= 2.0  # it counted every step
    assert report.codes == []


def test_a_raw_ema_copy_written_by_assign_is_silent(tmp_path: Path) -> None:
    # a mean-teacher shadow of the kernel: read by the loss, written by assign every step
    report, _ = _run(tmp_path, """
        class Shadowed(keras.layers.Layer):
            def build(self, shape):
                self.kernel = self.add_weight(shape=(shape[-1], 1), initializer="ones")
                self.shadow = tf.Variable(tf.ones((shape[-1], 1)))

            def call(self, inputs):
                return inputs @ self.kernel + 0.1 * (inputs @ self.shadow)

        layer = Shadowed()
        model = keras.Sequential([keras.Input((4,)), layer])
        optimizer = keras.optimizers.SGD(0.1)
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            layer.shadow.assign(0.9 * layer.shadow + 0.1 * layer.kernel)
        """)
    assert _loud(report) == []


LAMBDA = """
encoder = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="e")], name="enc")
start = encoder.layers[0].kernel.numpy().copy()
inputs = keras.Input((4,))
{features}
model = keras.Model(inputs, keras.layers.Dense(1, name="out")(features))
"""


@pytest.mark.parametrize("train", [FIT, STEP], ids=["fit", "tf_function_step"])
def test_model_called_inside_lambda_is_reported_at_the_lambda(tmp_path: Path,
                                                              train: str) -> None:
    body = LAMBDA.format(features="features = keras.layers.Lambda(lambda t: encoder(t))(inputs)"
                         "  # LAMBDA")
    report, ns = _run(tmp_path, body + train
                      + "moved = not np.allclose(start, encoder.layers[0].kernel.numpy())\n")
    assert not ns["moved"]
    assert _loud(report) == [("TM115", _line(tmp_path, "# LAMBDA"))]
    assert {v.rsplit("/", 1)[-1] for v in report.findings[0].variables} == {"kernel", "bias"}
    assert report.codes == ["TM115"]  # TM110's note on the same weights steps aside


def test_model_called_inside_lambda_is_reported_with_eager(tmp_path: Path) -> None:
    body = LAMBDA.format(features="features = keras.layers.Lambda(lambda t: encoder(t))(inputs)"
                         "  # LAMBDA")
    report, _ = _run(tmp_path, body + FIT, force_eager=True)
    assert _loud(report) == [("TM115", _line(tmp_path, "# LAMBDA"))]


@pytest.mark.parametrize("features", [
    "features = encoder(inputs)",
    "features = keras.layers.Lambda(lambda t: tf.nn.relu(t) * 2.0)(encoder(inputs))",
])
def test_model_as_a_layer_and_lambda_over_a_function_are_silent(tmp_path: Path,
                                                                features: str) -> None:
    report, ns = _run(tmp_path, LAMBDA.format(features=features) + FIT
                      + "moved = not np.allclose(start, encoder.layers[0].kernel.numpy())\n")
    assert ns["moved"]
    assert report.codes == []


def test_frozen_model_inside_lambda_is_silent(tmp_path: Path) -> None:
    body = LAMBDA.format(features="encoder.trainable = False\n"
                         "features = keras.layers.Lambda(lambda t: encoder(t))(inputs)")
    report, _ = _run(tmp_path, body + FIT)
    assert _loud(report) == []


def test_lambda_model_trained_by_a_later_step_is_silent(tmp_path: Path) -> None:
    body = LAMBDA.format(features="features = keras.layers.Lambda(lambda t: encoder(t))(inputs)")
    report, ns = _run(tmp_path, body, FIT, """
        pretrain = keras.optimizers.SGD(0.5)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(encoder(x) ** 2)
        grads = tape.gradient(loss, encoder.trainable_variables)
        pretrain.apply_gradients(zip(grads, encoder.trainable_variables))
        """)
    assert _loud(report) == []


def test_target_network_inside_lambda_synced_by_set_weights_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        online = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)], name="online")
        target = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)], name="target")
        inputs = keras.Input((4,))
        bootstrap = keras.layers.Lambda(lambda t: tf.stop_gradient(target(t)))(inputs)
        model = keras.Model(inputs, online(inputs) - 0.9 * bootstrap)
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        for _ in range(2):
            model.fit(x, y, epochs=1, batch_size=16, verbose=0)
            target.set_weights(online.get_weights())
        """)
    assert _loud(report) == []


MODULE = """
class Trainer(tf.Module):
    def __init__(self):
        super().__init__()
        self.body = keras.layers.Dense(1, name="body")
{extra}        self.optimizer = keras.optimizers.SGD(0.5)

    @tf.function
    def step(self, a, b):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((self.body(a) {use} - b) ** 2)
        grads = tape.gradient(loss, {sources})  # SOURCES
        self.optimizer.apply_gradients(zip(grads, {sources}))

trainer = Trainer()
for _ in range(2):
    trainer.step(x, y)
"""


def test_keras_layer_in_a_tf_module_is_reported_at_its_class_statement(tmp_path: Path) -> None:
    # the line that made the weights untracked: the class is a tf.Module, not a keras.Model
    report, _ = _run(tmp_path, MODULE.format(
        extra="        self.scale = tf.Variable(1.0)\n", use="* self.scale",
        sources="self.trainable_variables"))
    assert _loud(report) == [("TM116", _line(tmp_path, "class Trainer(tf.Module)"))]
    assert {v.rsplit("/", 1)[-1] for v in report.findings[0].variables} == {"kernel", "bias"}


def test_keras_layer_in_a_plain_tf_module_is_reported_at_its_sources(tmp_path: Path) -> None:
    # no class of the user's to change: the gradient call, where the list is passed
    report, _ = _run(tmp_path, """
        holder = tf.Module()
        holder.body = keras.layers.Dense(1, name="body")
        holder.scale = tf.Variable(1.0)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((holder.body(x) * holder.scale - y) ** 2)
        grads = tape.gradient(loss, holder.trainable_variables)  # SOURCES
        """)
    assert _loud(report) == [("TM116", _line(tmp_path, "# SOURCES"))]


def test_keras_layer_alone_in_a_tf_module_is_tm116_not_empty_sources(tmp_path: Path) -> None:
    # the list is empty: Keras' apply_gradients raises on it, after the gradient call
    body = MODULE.format(extra="", use="", sources="self.trainable_variables")
    with pytest.raises(ValueError, match="not enough values"):
        _run(tmp_path, body)
    report, _ = _run(tmp_path, body.replace("        self.optimizer.apply_gradients", "#"))
    assert _loud(report) == [("TM116", _line(tmp_path, "class Trainer(tf.Module)"))]


def test_tf_module_with_its_own_tf_variables_or_the_layers_list_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, MODULE.format(
        extra="        self.scale = tf.Variable(1.0)\n", use="* self.scale",
        sources="self.body.trainable_variables + [self.scale]"))
    assert report.codes == []
    report, _ = _run(tmp_path, """
        class Linear(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(tf.ones((4, 1)))
                self.b = tf.Variable(0.0)

        lin = Linear()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((x @ lin.w + lin.b - y) ** 2)
        grads = tape.gradient(loss, lin.trainable_variables)
        """)
    assert report.codes == []


def test_tf_module_optimising_the_input_of_its_keras_model_is_silent(tmp_path: Path) -> None:
    # style transfer's shape: the module's own tf.Variable is the image fed to a network that
    # stays fixed (not frozen by a flag here), so leaving the network out is the point
    report, ns = _run(tmp_path, """
        class Stylise(tf.Module):
            def __init__(self):
                super().__init__()
                self.features = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
                self.image = tf.Variable(tf.ones((2, 4)))
                self.optimizer = keras.optimizers.SGD(0.1)

            @tf.function
            def step(self, target):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((self.features(self.image) - target) ** 2)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))

        stylise = Stylise()
        start = stylise.image.numpy().copy()
        for _ in range(2):
            stylise.step(tf.zeros((2, 3)))
        moved = not np.allclose(start, stylise.image.numpy())
        """)
    assert ns["moved"]
    assert _loud(report) == []
