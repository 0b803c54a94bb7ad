"""Zeros by value, explained by the op's own registered gradient, with no list of saturating ops.

A weight's gradient came back all zeros on a connected path. The op that passed nothing back is
found by calling its registered gradient function on the op as it ran, with ones as the output
gradient (tracing/saturation.py): eagerly on the recorded values, and in a traced step inside
the probe that runs with it (tracing/probes.py). A tanh saturated to float precision
(``1 - y*y`` is exactly 0) and a fake-quant whose range clamps every element were never on a
list and got no cause; now TM501 names them. Ops whose gradient to the path reads only the
other factor (a zero-initialised gate: ReZero) are not asked, so those first-step zeros stay
silent, and the same ops on live values stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

MODES = [("", True), ("@tf.function", False)]
IDS = ["eager", "function"]

TANH = """
    w = tf.Variable(tf.fill([4, 3], 0.5), name="w")
    b = tf.Variable(tf.fill([3], {bias}), name="b")
    v = tf.Variable(tf.ones([3, 1]), name="v")

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            h = tf.tanh(tf.matmul(tf.abs(x), w) + b)
            loss = tf.reduce_mean(tf.square(tf.matmul(h, v) - y))
        return tape.gradient(loss, [w, b, v])

    grads = step()
    """


def _blocking(result: object) -> list[tuple[str, tuple[str, ...], int | None]]:
    report = result.report  # type: ignore[attr-defined]
    return [(f.rule, tuple(f.variables), f.location.line if f.location else None)
            for f in report.findings if f.severity != "info"]


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_tanh_saturated_to_float_precision_is_the_cause(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """tanh of values above 10 is exactly 1.0: TM501 at the tanh line naming w and b."""
    path = _write(tmp_path, TANH.format(decorator=decorator, bias="30.0"))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert _blocking(result) == [("TM501", ("w", "b"), line_of(path, "tf.tanh"))]
    assert result.report.findings[0].op_type == "Tanh"


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_live_tanh_is_silent(tmp_path: Path, decorator: str, eager: bool) -> None:
    """The same program with a bias of 0.5: tanh has a slope, every weight is connected."""
    path = _write(tmp_path, TANH.format(decorator=decorator, bias="0.5"))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert _blocking(result) == []


FAKE_QUANT = """
    class Quantised(keras.layers.Layer):
        def call(self, inputs):
            return tf.quantization.fake_quant_with_min_max_args(inputs, min=-1.0, max=1.0)

    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(
        3, name="pre", bias_initializer=keras.initializers.Constant({bias})),
        Quantised(name="quant"), keras.layers.Dense(1, name="post")], name="net")
    net.compile(optimizer="sgd", loss="mse")
    net.fit(tf.random.uniform((16, 4)), tf.random.normal((16, 1)), epochs=1, verbose=0)
    """


def test_a_fake_quant_that_clamps_everything_in_fit(tmp_path: Path) -> None:
    """Graph mode, fit: the probe asks the fake-quant's registered gradient inside the step."""
    path = _write(tmp_path, FAKE_QUANT.format(bias="9.0"))
    result = run(path, force_eager=False)
    assert result.error is None
    found = _blocking(result)
    assert [(rule, names) for rule, names, _ in found] == [
        ("TM501", ("net/pre/kernel", "net/pre/bias"))], found
    assert found[0][2] == line_of(path, "fake_quant_with_min_max_args")
    assert result.report.findings[0].op_type == "FakeQuantWithMinMaxArgs"


def test_a_fake_quant_whose_range_covers_the_values_is_silent(tmp_path: Path) -> None:
    path = _write(tmp_path, FAKE_QUANT.format(bias="0.0"))
    result = run(path, force_eager=False)
    assert result.error is None
    assert _blocking(result) == []


REZERO = """
    gate = tf.Variable(0.0, name="gate")
    inner = tf.Variable(tf.fill([4, 4], 0.1), name="inner")

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            branch = tf.tanh(tf.matmul(x, inner))
            loss = tf.reduce_mean(tf.square(x + gate * branch))
        return tape.gradient(loss, [gate, inner])

    grads = step()
    """


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_zero_gate_is_not_a_saturation(tmp_path: Path, decorator: str, eager: bool) -> None:
    """ReZero: `inner` gets zeros through `gate * branch`; the product is not asked: silent."""
    path = _write(tmp_path, REZERO.format(decorator=decorator))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert _blocking(result) == []

