"""Every None has a witness: an op differentiable in some inputs only, read from the registry.

``tf.math.betainc``'s registered gradient returns None for its shape parameters ``a`` and
``b``, ``tf.math.zeta``'s for ``x``, ``tf.math.polygamma``'s for ``a``. A weight that reaches
the loss only through such an input got TM106 ("unexplained"); tracing/witness.py now asks the
op's registered gradient on a scratch graph and TM201 names the op, the input and its line.
Correct code of the same shapes (only the differentiable input depends on the weights) stays
silent. A gradient call that raised LookupError names every weight it would have reached.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

BETAINC = """
    a = tf.Variable(2.0, name="a")
    b = tf.Variable(3.0, name="b")
    x = tf.Variable(0.4, name="x")

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.math.betainc({a_arg}, {b_arg}, tf.sigmoid(x)))
        return tape.gradient(loss, [a, b, x])

    grads = step()
    """

MODES = [("", True), ("@tf.function", False)]
IDS = ["eager", "function"]


def _blocking(result: object) -> list[tuple[str, tuple[str, ...], int | None]]:
    report = result.report  # type: ignore[attr-defined]
    return [(f.rule, tuple(f.variables), f.location.line if f.location else None)
            for f in report.findings if f.severity != "info"]


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_betainc_shape_parameters_are_named_not_unexplained(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """TM201 at the betainc line, naming `a` and `b` and the op's inputs; no TM106."""
    path = _write(tmp_path, BETAINC.format(decorator=decorator, a_arg="tf.nn.softplus(a)",
                                           b_arg="b"))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = _blocking(result)
    assert found == [("TM201", ("a", "b"), line_of(path, "tf.math.betainc"))], found
    finding = result.report.findings[0]
    assert "`tf.math.betainc`" in finding.message
    assert "returns None for its inputs `a`, `b`" in finding.message
    verdicts = {s.variable: s.verdict for s in result.report.gradient_calls[0].sources}
    assert verdicts == {"a": "severed", "b": "severed", "x": "connected"}


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_betainc_with_only_x_trained_is_silent(tmp_path: Path, decorator: str,
                                               eager: bool) -> None:
    """Correct code: the shape parameters are constants, x is the weight (no finding)."""
    path = _write(tmp_path, BETAINC.format(decorator=decorator, a_arg="2.0", b_arg="3.0")
                  .replace("[a, b, x]", "[x]"))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert _blocking(result) == []
    assert [s.verdict for s in result.report.gradient_calls[0].sources] == ["connected"]


def test_a_weight_that_also_reaches_x_is_connected(tmp_path: Path) -> None:
    """A weight feeding both `a` and `x` gets a gradient through `x`: no cut, no finding."""
    path = _write(tmp_path, BETAINC.format(decorator="@tf.function",
                                           a_arg="tf.nn.softplus(x) + 1.0", b_arg="3.0")
                  .replace("[a, b, x]", "[x]"))
    result = run(path, force_eager=False)
    assert result.error is None
    assert _blocking(result) == []


def test_zeta_inside_a_keras_layer_trained_by_fit(tmp_path: Path) -> None:
    """Graph mode, Keras 3 fit: the layer's weight behind zeta's `x` is named at its line."""
    path = _write(tmp_path, """
        class Zeta(keras.layers.Layer):
            def build(self, shape):
                self.s = self.add_weight(shape=(), initializer="ones", name="s")
                self.q = self.add_weight(shape=(), initializer="ones", name="q")

            def call(self, x):
                return tf.math.zeta(2.0 + tf.nn.softplus(self.s), x + tf.nn.softplus(self.q))

        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softplus"),
                                  Zeta()])
        model.compile("sgd", "mse")
        model.fit(tf.random.uniform((8, 3)), tf.random.uniform((8, 3)), epochs=1, verbose=0)
        """)
    result = run(path, force_eager=False)
    assert result.error is None
    found = _blocking(result)
    assert [(rule, line) for rule, _, line in found] == [
        ("TM201", line_of(path, "tf.math.zeta"))], found
    assert [name.split("/", 1)[1] for name in found[0][1]] == ["zeta/s"]
    assert "its input `x`" in result.report.findings[0].message


def test_polygamma_order_is_named_with_no_list_of_ops(tmp_path: Path) -> None:
    """Another op of the same kind: its input name comes from the op's definition."""
    path = _write(tmp_path, """
        n = tf.Variable(1.0, name="n")
        z = tf.Variable(0.7, name="z")
        with tf.GradientTape() as tape:
            loss = tf.math.polygamma(n, z + 1.0)
        grads = tape.gradient(loss, [n, z])
        """)
    result = run(path, force_eager=True)
    assert result.error is None
    found = _blocking(result)
    assert found == [("TM201", ("n",), line_of(path, "polygamma"))], found
    assert "its input `a`" in result.report.findings[0].message


LOOKUP = """
    w = tf.Variable([1.0, 2.0, 3.0], name="w")
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    unused = tf.Variable([1.0], name="unused")

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            y, idx = tf.unique(w * 2.0)
            loss = tf.reduce_sum(y) + tf.reduce_sum(v * v)
        return tape.gradient(loss, [w, v, unused])

    try:
        step()
    except LookupError as error:
        print("caught", error)
    """


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_missing_gradient_names_every_weight_the_call_would_reach(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """LookupError: the call gave no source anything; the finding names `w` and `v` too.

    `unused` has no recorded path to the loss: it is not one the call would have reached.
    """
    path = _write(tmp_path, LOOKUP.format(decorator=decorator))
    result = run(path, force_eager=eager)
    rules = {(rule, names) for rule, names, _ in _blocking(result)}
    assert ("TM201", ("w", "v")) in rules, rules
    tm201 = next(f for f in result.report.findings if f.rule == "TM201")
    assert tm201.location is not None and tm201.location.line == line_of(path, "tf.unique")
