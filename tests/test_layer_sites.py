"""The line where the layer is (issue 33, 3.): a Keras layer's own ops are placed at the line
that applied it (a functional model) or made it (a ``Sequential`` entry).

A non-differentiable preprocessing layer after learned layers (``Discretization``, modelled on
https://github.com/keras-team/keras/issues/19204 and the Keras guide's advice to keep
preprocessing out of the trained model, https://keras.io/guides/preprocessing_layers/) and a
fake-quant clamp built from a Keras layer (a ``ReLU(max_value=6)`` subclass whose range clamps
every output, modelled on https://github.com/tensorflow/tensorflow/issues/40180) run their ops
in Keras' own code, inside ``fit`` or the model call: the finding sits at the layer's line.
Correct look-alikes stay silent (a ``Discretization`` on the input has no weight behind it; a
clamp that saturates only part of its outputs cuts nothing), and an op the user's own ``call``
runs keeps its own line. Each program runs from a real file through ``tapemagic.gradcheck`` in
graph mode (the default).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from checked import run_program

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf

HEAD = """\
import numpy as np
import tensorflow as tf
import keras
from keras import layers
keras.utils.set_random_seed(0)
xs = np.random.RandomState(0).normal(size=(32, 4)).astype("float32")
ys = np.random.RandomState(1).normal(size=(32, 1)).astype("float32")
"""

FIT = """\
model.compile(optimizer="adam", loss="mse")
model.fit(xs, ys, epochs=1, batch_size=16, verbose=0)
"""

FUNCTIONAL_BINS = HEAD + """\
inputs = keras.Input((4,))
h = layers.Dense(8, name="d1")(inputs)
x = layers.Discretization(bin_boundaries=[-1.0, 0.0, 1.0], name="bins")(h)
out = layers.Dense(1, name="d2")(x)
model = keras.Model(inputs, out, name="m")
""" + FIT

SEQUENTIAL_BINS = HEAD + """\
model = keras.Sequential([
    keras.Input((4,)),
    layers.Dense(8, name="d1"),
    layers.Discretization(bin_boundaries=[-1.0, 0.0, 1.0]),
    layers.Dense(1, name="d2"),
], name="s")
""" + FIT

# the look-alike: preprocessing on the input, before any learned layer (no weight behind it)
INPUT_BINS = HEAD + """\
inputs = keras.Input((4,))
x = layers.Discretization(bin_boundaries=[-1.0, 0.0, 1.0], output_mode="one_hot")(inputs)
x = layers.Flatten()(x)
out = layers.Dense(1, name="d1")(x)
model = keras.Model(inputs, out, name="pre")
""" + FIT + """\
assert all(w.numpy().any() for w in model.trainable_weights)
"""

CLAMP = HEAD + """\
class FakeQuant(layers.ReLU):
    '''Clamp to the range [0, 6] the deployed int model holds.'''

    def __init__(self, **kwargs):
        super().__init__(max_value=6.0, **kwargs)


inputs = keras.Input((4,))
h = layers.Dense(8, activation="relu", name="q1",
                 bias_initializer=keras.initializers.Constant(BIAS))(inputs)
h = layers.Dense(8, kernel_initializer="ones", name="q2",
                 bias_initializer=keras.initializers.Constant(BIAS))(h)
q = FakeQuant()(h)
out = layers.Dense(1)(q)
model = keras.Model(inputs, out)
x = tf.constant(np.abs(xs) * 0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean((model(x) - ys) ** 2)
grads = tape.gradient(loss, model.trainable_variables)
"""

# the user's own call: its line is the place, not the line that made the layer
OWN_CALL = HEAD + """\
class Rounding(layers.Layer):
    def call(self, x):
        return tf.round(x)


model = keras.Sequential([keras.Input((4,)), layers.Dense(8, name="d1"), Rounding(),
                          layers.Dense(1, name="d2")], name="own")
""" + FIT


def run(tmp_path: Path, source: str) -> tuple[Report, Path]:
    done = run_program(tmp_path, source, name="prog.py")
    return done.report, done.path


def line(path: Path, needle: str) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if needle in text)


def loud(report: Report) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(f.rule, f.location.line if f.location else 0, tuple(f.variables))
            for f in report.findings if f.severity in ("warning", "error")]


@pytest.mark.parametrize(("source", "needle", "weights"), [
    (FUNCTIONAL_BINS, "x = layers.Discretization", ("d1/kernel", "d1/bias")),
    (SEQUENTIAL_BINS, "    layers.Discretization", ("s/d1/kernel", "s/d1/bias")),
], ids=["functional", "sequential"])
def test_preprocessing_layer_after_learned_layers_is_placed_at_its_line(
        tmp_path: Path, source: str, needle: str, weights: tuple[str, ...]) -> None:
    report, path = run(tmp_path, source)
    assert loud(report) == [("TM201", line(path, needle), weights)], report.findings
    finding = report.findings[0]
    assert "Discretization" in finding.message  # named as written, not `model.fit(...)`
    assert finding.location is not None and finding.location.col is not None


def test_fake_quant_layer_clamping_every_output_is_placed_at_its_line(tmp_path: Path) -> None:
    report, path = run(tmp_path, CLAMP.replace("BIAS", "10.0"))
    zero = [f for f in report.findings if f.rule == "TM501"]
    assert [f.location.line for f in zero if f.location] == [line(path, "q = FakeQuant()(h)")]
    assert set(zero[0].variables) == {"q1/kernel", "q1/bias", "q2/kernel", "q2/bias"}


def test_look_alikes_stay_silent(tmp_path: Path) -> None:
    report, _ = run(tmp_path, INPUT_BINS)
    assert loud(report) == [], report.findings
    # the clamp passes part of its outputs: no unit at 0 or 6 everywhere
    report, _ = run(tmp_path, CLAMP.replace("BIAS", "0.0"))
    assert [f.rule for f in report.findings] == [], report.findings


def test_an_op_of_the_users_own_call_keeps_its_line(tmp_path: Path) -> None:
    report, path = run(tmp_path, OWN_CALL)
    assert loud(report) == [("TM201", line(path, "return tf.round(x)"),
                             ("own/d1/kernel", "own/d1/bias"))], report.findings


def test_hooks_change_no_keras_behaviour(tmp_path: Path) -> None:
    """A layer class with no ``__init__`` of its own: Keras reads ``cls.__init__``'s argspec
    for its config; the hooks leave that signature and every class dict as they were."""
    import keras
    from keras.src.layers.layer import BackendLayer
    from keras.src.ops.node import Node

    before = (dict(BackendLayer.__dict__), dict(Node.__dict__))
    report, _ = run(tmp_path, HEAD + """\
class Plain(layers.Layer):
    def call(self, x):
        return x * 2.0


config = Plain(name="plain").get_config()
assert config["name"] == "plain", config
""")
    assert report is not None
    assert (dict(BackendLayer.__dict__), dict(Node.__dict__)) == before
    assert keras.layers.Dense(2).get_config()["units"] == 2


def test_a_layer_a_library_function_applied_has_no_site_of_the_users() -> None:
    """``keras.applications.ResNet50(...)`` applies its layers in Keras' own builder function:
    the user's line that called it is not where any of them was applied (a TM506 info on
    ResNet50's convolution biases sat at that line, where nothing can be changed). Keras' own
    operation functions (``keras.layers.add``, ``keras.ops``) still place at the user's line.
    Keras is imported before the check, so the construction hooks are on (the order in which
    the suite found the bug)."""
    import keras
    import tensorflow as tf

    from tapemagic import gradcheck
    from tapemagic.tracing import layer_sites

    with gradcheck() as check:
        base = keras.applications.ResNet50(weights=None, include_top=False,
                                           input_shape=(64, 64, 3))
        inputs = keras.Input((4,))
        here = sys._getframe().f_lineno + 1
        total = keras.layers.add([keras.layers.Dense(4, name="a")(inputs), inputs])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(base(tf.random.normal((2, 64, 64, 3)), training=True))
        tape.gradient(loss, base.trainable_variables)
    assert layer_sites.site_of(base.get_layer("conv1_conv")) is None
    add = total._keras_history.operation
    site = layer_sites.site_of(add)
    assert site is not None and site.line == here
    assert check.report is not None and not check.report.findings


DROPOUT = HEAD + """\
model = keras.Sequential([
    keras.Input((4,)),
    layers.Dense(8, activation="relu", name="d1"),
    layers.Dropout(RATE, name="drop"),
    layers.Dense(1, name="d2"),
], name="dr")
""" + FIT


def test_a_layer_configured_to_output_zeros_is_the_line_to_change(tmp_path: Path) -> None:
    # Keras 3's Dropout(rate=1.0) returns zeros_like (a constant once traced): the next layer
    # reads it where the first layer's output was meant; the Dropout line is the cut
    report, path = run(tmp_path, DROPOUT.replace("RATE", "1.0"))
    cut = [f for f in loud(report) if f[0] == "TM104"]
    assert cut == [("TM104", line(path, "layers.Dropout"), ("dr/d1/kernel", "dr/d1/bias"))], (
        report.findings)
    report, _ = run(tmp_path, DROPOUT.replace("RATE", "0.5"))  # drops some: trains
    assert loud(report) == [], report.findings


@pytest.mark.slow
def test_layer_sites_are_noted_when_import_keras_starts_the_check(tmp_path: Path) -> None:
    # a script whose first import is keras: TensorFlow (and the check) starts half-way
    # through `import keras`, before Keras' Layer exists; the sites are noted from then on
    from cli_runs import finish_run, loud_findings, start_run

    source = SEQUENTIAL_BINS.replace("import tensorflow as tf\nimport keras\n", "import keras\n")
    assert "tensorflow" not in source
    _, report, out = finish_run(tmp_path, "keras_first",
                                start_run(tmp_path, "keras_first", source))
    assert loud_findings(report) == [("TM201", line(tmp_path / "keras_first.py",
                                                    "    layers.Discretization"),
                                      ("s/d1/kernel", "s/d1/bias"))], out
