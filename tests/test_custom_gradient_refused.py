"""A tf.custom_gradient that TensorFlow refuses before any gradient call still gets its finding.

A decorated function that reads a variable needs a gradient function accepting ``variables=``;
without it TensorFlow raises ``TypeError`` from the decorator as the forward pass calls the
function, inside the tape, and no gradient call is ever made, so the report said only "no
gradient call ran". Now TM203 sits at the gradient function's definition and names the
variables it read (tracing/custom_errors.py reads the decorator's frame the error left, through
the error a Keras layer re-raises). The user's error is the one a plain run raises. A gradient
function that accepts ``variables`` stays silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

MODES = [("", True), ("@tf.function", False)]
IDS = ["eager", "function"]

MARGIN = """
    kernel = tf.Variable(tf.ones([4, 1]), name="kernel")
    margin = tf.Variable(3.0, name="margin")

    @tf.custom_gradient
    def scaled(z):
        def grad(dy{extra}):
            return {returned}
        return z * margin, grad

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(scaled(tf.matmul(x, kernel)) - y))
        return tape.gradient(loss, [kernel, margin])

    grads = step()
    """
BAD = {"extra": "", "returned": "dy * margin"}
GOOD = {"extra": ", variables=None",
        "returned": "dy * margin, [tf.reduce_sum(dy * z) for _ in variables]"}


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_refused_custom_gradient_names_its_variables(tmp_path: Path, decorator: str,
                                                       eager: bool) -> None:
    path = _write(tmp_path, MARGIN.format(decorator=decorator, **BAD))
    plain = run(path, force_eager=eager, traced=False)
    result = run(path, force_eager=eager)
    assert type(result.error) is TypeError and type(plain.error) is TypeError
    assert str(result.error) == str(plain.error)
    assert "must accept keyword argument 'variables'" in str(result.error)
    found = [(f.rule, tuple(f.variables), f.location.line if f.location else None, f.primary)
             for f in result.report.findings]
    assert found == [("TM203", ("margin",), line_of(path, "def grad(dy"), True)], found


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_custom_gradient_taking_variables_is_silent(tmp_path: Path, decorator: str,
                                                      eager: bool) -> None:
    path = _write(tmp_path, MARGIN.format(decorator=decorator, **GOOD))
    result = run(path, force_eager=eager)
    assert result.error is None
    assert [f for f in result.report.findings if f.severity != "info"] == []


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_keras_layer_re_raising_the_error_is_seen_through(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """Keras 3 re-raises a layer's error as a new one: the decorator's frame is in its context."""
    path = _write(tmp_path, f"""
        class Gain(keras.layers.Layer):
            def build(self, shape):
                self.gain = self.add_weight(shape=(), initializer="ones", name="gain")

            def call(self, inputs):
                @tf.custom_gradient
                def scaled(t):
                    def grad(dy):
                        return dy * self.gain
                    return t * self.gain, grad
                return scaled(inputs)

        layer = Gain(name="g")
        layer.build((None, 4))

        {decorator}
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(layer(x))
            return tape.gradient(loss, layer.trainable_variables)

        step()
        """)
    result = run(path, force_eager=eager)
    assert type(result.error) is TypeError
    found = [(f.rule, tuple(f.variables), f.location.line if f.location else None)
             for f in result.report.findings]
    assert found == [("TM203", ("g/gain",), line_of(path, "def grad(dy"))], found
