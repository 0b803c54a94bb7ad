"""Zeros the next update removes are not cuts (graph/first_step.py), a dead ReLU gate still is.

A residual branch scaled by a weight that starts at zero (ReZero's alpha, a zero-initialised
last BatchNormalization gamma as in Fixup and "zero-init the last BN gamma", a zero-initialised
final Dense) gives the branch's inner weights exact-zero gradients on the first step only: the
zero weight gets a gradient itself and moves at once. In graph mode such a step got TM501
("probably saturated"); now it is silent, with a note. A bias-free ReLU layer with a zero kernel
is dead and stays dead (its zero kernel gets a zero gradient): TM501 as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

REZERO = """
    class ReZero(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.inner = keras.layers.Dense(units, activation="relu", name="inner")
            self.out = keras.layers.Dense(units, name="out")

        def build(self, shape):
            self.alpha = self.add_weight(shape=(), initializer="zeros", name="alpha",
                                         trainable={trainable})

        def call(self, h):
            return h + self.alpha * self.out(self.inner(h))

    net = keras.Sequential([keras.Input((8,)), keras.layers.Dense(8, name="stem"),
                            ReZero(8, name="block"), keras.layers.Dense(1, name="head")])
    inputs, targets = tf.random.normal((16, 8)), tf.random.normal((16, 1))

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(inputs) - targets))
        return tape.gradient(loss, net.trainable_variables)

    grads = step()
    keras.optimizers.SGD(0.1).apply_gradients(zip(grads, net.trainable_variables))
    """

MODES = [("", True), ("@tf.function", False)]
IDS = ["eager", "function"]


def _blocking(result: object) -> list[tuple[str, tuple[str, ...]]]:
    report = result.report  # type: ignore[attr-defined]
    return [(f.rule, f.variables) for f in report.findings if f.severity != "info"]


def _verdict(result: object, name: str) -> tuple[str, str]:
    """Return (result, verdict) of the source whose Keras path ends with ``name``."""
    call = result.report.gradient_calls[0]  # type: ignore[attr-defined]
    return next((s.result, s.verdict) for s in call.sources if s.variable.endswith(name))


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_rezero_alpha_zero_is_silent(tmp_path: Path, decorator: str, eager: bool) -> None:
    """The branch's weights get zeros on this step; alpha gets a gradient: no finding, a note."""
    path = _write(tmp_path, REZERO.format(decorator=decorator, trainable=True))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert _blocking(result) == []
    assert _verdict(result, "block/alpha")[0] == "ok"
    assert _verdict(result, "block/inner/kernel") == ("zero", "zero")
    notes = [n for n in result.report.notes if "zero-initialised scale" in n]
    assert len(notes) == 1 and "block/alpha` is zero" in notes[0], result.report.notes
    assert "block/inner/kernel" in notes[0] and "stem" not in notes[0]
    # the headline does not lead with an alarm about zeros the first update removes
    headline = result.report.headline
    assert headline.startswith("All 9 weights get a gradient (4 of them all-zero on this "
                               "first step only"), headline


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_zero_scale_nothing_trains_is_no_first_step_zero(tmp_path: Path, decorator: str,
                                                           eager: bool) -> None:
    """The same branch with alpha frozen at zero: its zeros never go, so no first-step note.

    Nothing names the frozen scale yet (a non-trainable zero is no source, whose value the
    run reads), and the ReLU before it is live: the probe asked it in graph mode as --eager
    sees its values, so neither mode blames it as "probably saturated".
    """
    path = _write(tmp_path, REZERO.format(decorator=decorator, trainable=False))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert _verdict(result, "block/inner/kernel") == ("zero", "zero")
    assert not any("zero-initialised scale" in n for n in result.report.notes)
    assert not any("saturated" in f.message for f in result.report.findings)


FIXUP = """
    inp = keras.Input((8, 8, 3))
    h = keras.layers.Conv2D(8, 3, padding="same", name="stem")(inp)
    r = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="conv_a")(h)
    r = keras.layers.Conv2D(8, 3, padding="same", name="conv_b")(r)
    r = keras.layers.BatchNormalization(gamma_initializer="zeros", name="bn_last")(r)
    merged = keras.layers.Activation("relu")(keras.layers.Add()([h, r]))
    out = keras.layers.Dense(1, name="head")(keras.layers.GlobalAveragePooling2D()(merged))
    net = keras.Model(inp, out)
    images, targets = tf.random.normal((4, 8, 8, 3)), tf.random.normal((4, 1))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(images, training=True) - targets))
        return tape.gradient(loss, net.trainable_variables)

    grads = step()
    keras.optimizers.SGD(0.01).apply_gradients(zip(grads, net.trainable_variables))
    """


def test_zero_initialised_last_batchnorm_gamma_is_silent(tmp_path: Path) -> None:
    """Graph mode: the branch's convolutions get zeros through gamma = 0 (no TM501)."""
    path = _write(tmp_path, FIXUP)
    result = run(path, force_eager=False)
    assert result.error is None
    assert _blocking(result) == []
    assert _verdict(result, "conv_a/kernel") == ("zero", "zero")
    assert any("`bn_last/gamma` is zero" in n for n in result.report.notes)


ZERO_DENSE = """
    inp = keras.Input((8,))
    h = keras.layers.Dense(8, name="stem")(inp)
    r = keras.layers.Dense(16, activation="relu", name="inner")(h)
    r = keras.layers.Dense(8, kernel_initializer="zeros", name="proj")(r)
    out = keras.layers.Dense(1, name="head")(keras.layers.Add()([h, r]))
    net = keras.Model(inp, out)
    {gate}
    inputs, targets = tf.random.normal((16, 8)), tf.random.normal((16, 1))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(inputs) - targets){extra})
        return tape.gradient(loss, net.trainable_variables{sources})

    grads = step()
    """

GATE = """
    gate_in = keras.Input((8,))
    gated = keras.layers.Dense(16, activation="relu", use_bias=False,
                               kernel_initializer="zeros", name="gate")(gate_in)
    gate_net = keras.Model(gate_in, keras.layers.Dense(1, name="gate_head")(gated))
    """


def test_zero_initialised_final_dense_of_a_branch_is_silent(tmp_path: Path) -> None:
    """proj's zero kernel multiplies the inner layer's path and gets a gradient: silent."""
    path = _write(tmp_path, ZERO_DENSE.format(gate="", extra="", sources=""))
    result = run(path, force_eager=False)
    assert result.error is None
    assert _blocking(result) == []
    assert _verdict(result, "inner/kernel") == ("zero", "zero")
    assert any("`proj/kernel` is zero" in n for n in result.report.notes)


@pytest.mark.parametrize("eager", [True, False], ids=["eager", "function"])
def test_a_relu_gate_dead_at_init_is_still_found_beside_a_zero_init_branch(
        tmp_path: Path, eager: bool) -> None:
    """A bias-free ReLU layer with a zero kernel stays dead: TM501 names it, not the branch."""
    path = _write(tmp_path, ZERO_DENSE.format(
        gate=GATE, extra=" + tf.reduce_mean(gate_net(inputs))",
        sources=" + gate_net.trainable_variables"))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = _blocking(result)
    assert [rule for rule, _ in found] == ["TM501"], found
    assert found[0][1] == ("gate/kernel",), found
