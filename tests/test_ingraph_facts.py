"""Zeros by value inside ``fit`` and ``tf.function`` steps that apply their own gradients.

Graph mode (the default) runs the step as written. The step's trace says a gradient is not
None, but only its run can say it is all zero: the step now computes those facts itself
(``tracing/probes.py``), read once after its first run. A dead ReLU output layer trained by
``fit`` is found at its layer, as ``--eager`` finds it; correct steps of the same shapes stay
silent; and the check changes nothing the step computes, to the last bit.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from checked import run_program

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf

DEAD_FIT = """
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = np.random.default_rng(1).normal(size=(32, 4)).astype("float32")
y = np.random.default_rng(2).normal(size=(32, 1)).astype("float32")
model = tf.keras.Sequential([
    tf.keras.layers.Input((4,)),
    tf.keras.layers.Dense(8, activation="tanh", name="h"),
    tf.keras.layers.Dense(1, activation="relu", name="out",
                          bias_initializer=tf.keras.initializers.Constant({bias})),  # dead
], name="net")
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
"""

OWN_STEP = """
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = tf.constant(np.random.default_rng(1).normal(size=(16, 4)).astype("float32"))
y = tf.constant(np.random.default_rng(2).normal(size=(16, 1)).astype("float32"))
model = tf.keras.Sequential([
    tf.keras.layers.Input((4,)),
    tf.keras.layers.Dense(8, activation="relu", name="h",
                          bias_initializer=tf.keras.initializers.Constant({bias})),  # dead
    tf.keras.layers.Dense(1, name="out"),
], name="net")
opt = tf.keras.optimizers.SGD(0.1)

@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

for _ in range(3):
    step(x, y)
"""


def run(tmp_path: Path, source: str, eager: bool = False) -> tuple[Report, dict[str, Any],
                                                                      Path]:
    done = run_program(tmp_path, source, name="prog.py", force_eager=eager)
    return done.report, done.namespace, done.path


def dead_line(path: Path) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "# dead" in text)


def loud(report: Report) -> list[str]:
    return [f"{f.rule}: {f.message}" for f in report.findings
            if f.severity in ("warning", "error")]


def test_a_dead_relu_output_layer_in_fit_is_found_as_written(tmp_path: Path) -> None:
    report, _, path = run(tmp_path, DEAD_FIT.format(bias=-20.0))
    (finding,) = report.findings
    assert finding.rule == "TM501" and finding.location is not None
    assert finding.location.line == dead_line(path)
    assert set(finding.variables) == {"net/h/kernel", "net/h/bias", "net/out/kernel",
                                    "net/out/bias"}
    assert not any("symbolic when it is traced" in note for note in report.notes)


def test_a_step_that_applies_its_own_gradients_is_checked_by_value(tmp_path: Path) -> None:
    report, _, path = run(tmp_path, OWN_STEP.format(bias=-50.0))
    (finding,) = report.findings
    assert finding.rule == "TM501" and finding.location is not None
    assert finding.location.line == dead_line(path)
    assert set(finding.variables) == {"net/h/kernel", "net/h/bias", "net/out/kernel"}
    # the output kernel reads the dead layer's zeros (zero, no cut of its own: named in the
    # dead layer's finding); the output bias still gets a gradient
    (call,) = report.gradient_calls
    verdicts = {s.variable: (s.result, s.verdict) for s in call.sources}
    assert verdicts["net/out/kernel"] == ("zero", "zero")
    assert verdicts["net/out/bias"] == ("ok", "connected")


@pytest.mark.parametrize("source", [DEAD_FIT, OWN_STEP], ids=["fit", "own_step"])
def test_the_same_shapes_alive_are_silent_and_their_values_are_seen(
        tmp_path: Path, source: str) -> None:
    report, _, _ = run(tmp_path, source.format(bias=0.5))
    assert report.findings == ()
    (call,) = report.gradient_calls
    assert all(s.result == "ok" and s.verdict == "connected" for s in call.sources)
    assert not any("symbolic when it is traced" in note for note in report.notes)


@pytest.mark.parametrize("source", [DEAD_FIT, OWN_STEP], ids=["fit", "own_step"])
def test_the_checked_step_computes_the_same_weights_to_the_last_bit(
        tmp_path: Path, source: str) -> None:
    program = textwrap.dedent(source.format(bias=0.5))
    plain: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(program, str(tmp_path / "plain.py"), "exec"), plain)  # noqa: S102
    _, checked, _ = run(tmp_path, program)
    before = [np.asarray(w) for w in plain["model"].get_weights()]
    after = [np.asarray(w) for w in checked["model"].get_weights()]
    assert all(a.tobytes() == b.tobytes() for a, b in zip(before, after, strict=True))
    names = {v.name for v in checked["model"].variables}
    assert not any("tapemagic" in name for name in names)  # the probe is no model's


@pytest.mark.parametrize(("source", "bias"), [(DEAD_FIT, -20.0), (OWN_STEP, -50.0)],
                         ids=["fit", "own_step"])
def test_graph_mode_and_eager_agree_on_the_dead_layer(tmp_path: Path, source: str,
                                                      bias: float) -> None:
    graph, _, _ = run(tmp_path, source.format(bias=bias))
    eager, _, _ = run(tmp_path, source.format(bias=bias), eager=True)
    assert [(f.rule, f.location.line if f.location else 0, set(f.variables))
            for f in graph.findings] == [
        (f.rule, f.location.line if f.location else 0, set(f.variables)) for f in eager.findings]
    assert loud(graph) == loud(eager)


UNSCALED = """
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
keras.mixed_precision.set_global_policy("mixed_float16")
try:
    x = tf.constant(np.random.default_rng(1).normal(size=(32, 8)).astype("float32"))
    y = tf.constant(np.random.default_rng(2).normal(size=(32, 1)).astype("float32"))
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, "tanh", name="h"),
                              keras.layers.Dense(1, name="out")], name="mp")
    optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.AdamW(1e-3))

    @tf.function
    def train_step(features, labels):
        with tf.GradientTape() as tape:
            pred = tf.cast(model(features, training=True), tf.float32)
            loss = {scale} * tf.reduce_mean(tf.square(pred - labels))
        grads = tape.gradient(loss, model.trainable_variables)  # the call
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

    for _ in range(2):
        train_step(x, y)
finally:
    keras.mixed_precision.set_global_policy("float32")
"""


def test_float16_underflow_in_a_step_traced_twice_is_named_at_the_call(tmp_path: Path) -> None:
    # the optimizer makes its slots on the first call, so TensorFlow traces the step again and
    # runs that trace: the probe armed on the analysed trace is written by the one that runs
    report, _, path = run(tmp_path, UNSCALED.format(scale="1e-8"))
    (finding,) = report.findings
    call_line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "# the call" in t)
    assert finding.rule == "TM503" and finding.location is not None
    assert finding.location.line == call_line
    assert set(finding.variables) == {"mp/h/kernel", "mp/h/bias", "mp/out/kernel", "mp/out/bias"}
    healthy, _, _ = run(tmp_path, UNSCALED.format(scale="1.0"))
    assert healthy.findings == ()


PENALTY = """
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
critic = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, "relu"),
                              tf.keras.layers.Dense(1)], name="critic")
opt = tf.keras.optimizers.Adam(1e-3)
real = tf.constant(np.random.default_rng(1).normal(size=(16, 4)).astype("float32"))
fake = tf.constant(np.random.default_rng(2).normal(size=(16, 4)).astype("float32"))

@tf.function
def step():
    with tf.GradientTape() as tape:
        mixed = 0.5 * real + 0.5 * fake
        with tf.GradientTape() as inner:
            inner.watch(mixed)
            score = critic(mixed)
        slopes = tf.norm(inner.gradient(score, mixed), axis=1)
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) \\
            + 10.0 * tf.reduce_mean((slopes - 1.0) ** 2)
    grads = tape.gradient(loss, critic.trainable_variables)
    opt.apply_gradients(zip(grads, critic.trainable_variables))
    return loss

losses = [float(step()) for _ in range(3)]
"""


def test_a_gradient_penalty_step_probed_twice_runs_unchanged(tmp_path: Path) -> None:
    # two probed calls, the inner one inside the outer tape; the probes are told apart by
    # identity (their fields hold tensors, whose `==` would run an op in the graph)
    plain: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(PENALTY), "plain.py", "exec"), plain)  # noqa: S102
    report, checked, _ = run(tmp_path, PENALTY)
    assert checked["losses"] == plain["losses"]
    assert loud(report) == []
    # the critic's last bias cancels out of critic(fake) - critic(real) and the penalty
    # does not read it: its gradient is zero by the maths, and no finding says otherwise
    outer = report.gradient_calls[-1]
    assert [s.result for s in outer.sources] == ["ok", "ok", "ok", "zero"]
    assert report.findings == ()


REZERO_FIT = """
import numpy as np
import tensorflow as tf
from tensorflow import keras
tf.keras.utils.set_random_seed(0)


class ReZeroBlock(keras.layers.Layer):
    def __init__(self, width, **kw):
        super().__init__(**kw)
        self.inner = keras.layers.Dense(width, activation="relu", name="inner")
        self.alpha = self.add_weight(shape=(), initializer="zeros", name="alpha")

    def call(self, x):
        return x + self.alpha * self.inner(x)


x = np.random.default_rng(1).normal(size=(32, 8)).astype("float32")
y = np.random.default_rng(2).normal(size=(32, 1)).astype("float32")
model = keras.Sequential([keras.Input((8,)), ReZeroBlock(8, name="block"),
                          keras.layers.Dense(1, name="head")], name="net")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
moved = [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)]
assert all(moved), moved
"""


def test_a_zero_initialised_residual_scale_in_fit_is_silent(tmp_path: Path) -> None:
    # ReZero: alpha = 0 makes the inner layer's gradients zero on the first step only; the
    # probe reads alpha's value where the call ran (before the update), so first_step.py
    # knows the zeros go away after one update
    report, _, _ = run(tmp_path, REZERO_FIT)
    assert loud(report) == []
    (call,) = report.gradient_calls
    inner = [s for s in call.sources if "/inner/" in s.variable]
    assert inner and all(s.result == "zero" for s in inner)
