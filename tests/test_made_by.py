"""A cut at a gradient op is reported where its forward op was made (graph/made_by.py).

A second-order gradient (a gradient penalty, a physics residual) differentiates the ops the
first gradient call made. When one of them has no gradient of its own (``ResizeBicubicGrad``),
the user never wrote it: the forward op whose registered gradient made it is the line to
change (a ``Resizing(interpolation="bicubic")`` layer, a ``tf.image.resize`` call). The
recorder reads that link from TensorFlow's gradient function as the step is traced
(``OpRecord.grad_of``). The same programs with a bilinear resize stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import blocking, line

pytestmark = pytest.mark.tf

PENALTY_LAYER = """
    critic = keras.Sequential([keras.Input((6, 6, 1)),
                               keras.layers.Resizing(12, 12, name="up",  # LAYER
                                                     interpolation="{method}"),
                               keras.layers.Conv2D(2, 3, activation="tanh", name="conv"),
                               keras.layers.Flatten(),
                               keras.layers.Dense(1, name="score")], name="critic")
    images = tf.random.normal((4, 6, 6, 1))

    @tf.function
    def step(images):
        with tf.GradientTape() as tape:
            with tf.GradientTape() as inner:
                inner.watch(images)
                score = critic(images, training=True)
            grad = inner.gradient(score, images)  # BITES
            penalty = tf.reduce_mean(tf.square(tf.norm(tf.reshape(grad, (4, -1)), axis=1) - 1.0))
            loss = tf.reduce_mean(critic(images)) + 10.0 * penalty
        return tape.gradient(loss, critic.trainable_variables)

    try:
        step(images)
    except Exception as err:
        print(type(err).__name__)
    """

PENALTY_OP = """
    conv = keras.layers.Conv2D(2, 3, activation="tanh", name="conv")
    conv.build((None, 12, 12, 1))
    images = tf.random.normal((4, 6, 6, 1))

    @tf.function
    def step(images):
        with tf.GradientTape() as tape:
            with tf.GradientTape() as inner:
                inner.watch(images)
                big = tf.image.resize(images, (12, 12), method="{method}")  # RESIZE
                score = tf.reduce_sum(conv(big))
            grad = inner.gradient(score, images)
            loss = score + tf.reduce_mean(tf.square(grad))
        return tape.gradient(loss, conv.trainable_variables)

    try:
        step(images)
    except Exception as err:
        print(type(err).__name__)
    """


def test_a_bicubic_layer_under_a_gradient_penalty_is_reported_at_the_layer(tmp_path: Path) -> None:
    path = _write(tmp_path, PENALTY_LAYER.format(method="bicubic"))
    result = run(path, force_eager=False)
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM201", line(path, "# LAYER"))], found
    assert set(found[0][2]) == {"critic/conv/kernel", "critic/conv/bias", "critic/score/kernel",
                                "critic/score/bias"}
    finding = result.report.findings[0]
    assert finding.op_type == "ResizeBicubicGrad"
    # where it bites: the first gradient call that made the op, by its line
    assert f"(line {line(path, '# BITES')})" in finding.message
    assert "`ResizeBicubic`" in finding.message


def test_a_bicubic_resize_call_under_a_gradient_penalty_is_reported_at_the_call(
        tmp_path: Path) -> None:
    path = _write(tmp_path, PENALTY_OP.format(method="bicubic"))
    result = run(path, force_eager=False)
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM201", line(path, "# RESIZE"))], found


@pytest.mark.parametrize("program", [PENALTY_LAYER, PENALTY_OP], ids=["layer", "op"])
def test_a_bilinear_resize_under_a_gradient_penalty_is_silent(tmp_path: Path,
                                                               program: str) -> None:
    result = run(_write(tmp_path, program.format(method="bilinear")), force_eager=False)
    assert result.error is None
    assert blocking(result) == []
    assert "LookupError" not in result.stdout
