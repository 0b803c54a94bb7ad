"""Zeros made by the code's structure or a configuration number, seen in one run (TM501).

A value minus its mean over axes of one element (the standardised returns of a single
episode) is exactly zero: the zero walk passes the division to its numerator and ends at the
difference. A zero constant a Keras loss object made from its settings (``Huber(delta=0.0)``)
is the object's configuration: reported where the object was made. Correct look-alikes stay
silent: returns standardised over a batch, a loss object whose zero setting scales no path
of the weights, and a literal ``0.0`` the user's own expression multiplies by.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import blocking, line

pytestmark = pytest.mark.tf

POLICY = """
    policy = keras.Sequential([keras.Input((5,)),
                               keras.layers.Dense(6, activation="tanh", name="h"),
                               keras.layers.Dense(3, name="logits")], name="policy")
    obs = tf.random.stateless_normal(({n}, 5), seed=(3, 4))
    taken = tf.constant([1] * {n})
    returns = tf.range({n}, dtype=tf.float32) + 1.5

    {decorator}
    def step():
        centred = returns - tf.reduce_mean(returns)  # MADE
        advantage = centred / (tf.math.reduce_std(returns) + 1e-8)
        with tf.GradientTape() as tape:
            logp = tf.reduce_sum(tf.nn.log_softmax(policy(obs)) * tf.one_hot(taken, 3), axis=-1)
            loss = -tf.reduce_mean(logp * advantage)
        return tape.gradient(loss, policy.trainable_variables)

    grads = step()
    """

LOSS_OBJECT = """
    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="tanh", name="h"),
                            keras.layers.Dense(3, activation="softmax", name="out")], name="net")
    first = {first}  # MADE
    second = keras.losses.CategoricalCrossentropy(label_smoothing=0.0)
    targets = tf.one_hot([0, 1, 2, 1, 0, 2, 1, 0], 3)

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            probs = net(x)
            extra = {weight} * second(targets, probs)
            loss = first(targets, probs) + extra
        return tape.gradient(loss, net.trainable_variables)

    grads = step()
    """

MODES = [("@tf.function", False), ("", True)]
IDS = ["function", "eager"]
ALL = {"policy/h/kernel", "policy/h/bias", "policy/logits/kernel", "policy/logits/bias"}


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_single_return_standardised_is_reported_at_its_line(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    path = _write(tmp_path, POLICY.format(n=1, decorator=decorator))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# MADE"))], found
    assert set(found[0][2]) == ALL
    assert "one element" in result.report.findings[0].message


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_returns_standardised_over_a_batch_are_silent(tmp_path: Path, decorator: str,
                                                      eager: bool) -> None:
    result = run(_write(tmp_path, POLICY.format(n=6, decorator=decorator)), force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_loss_object_made_with_a_zero_setting_is_reported_where_made(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    path = _write(tmp_path, LOSS_OBJECT.format(first="keras.losses.Huber(delta=0.0)",
                                               weight="0.0", decorator=decorator))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# MADE"))], found
    assert set(found[0][2]) == {"net/h/kernel", "net/h/bias", "net/out/kernel", "net/out/bias"}


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
@pytest.mark.parametrize(("first", "weight"), [
    ("keras.losses.Huber(delta=1.0)", "1.0"),  # a zero label smoothing scales no weight's path
    ("keras.losses.Huber(delta=1.0)", "0.0"),  # the user's own literal 0.0 on a second term
    ("keras.losses.MeanSquaredError()", "0.5"),
], ids=["smoothing-zero", "own-literal", "mse"])
def test_loss_objects_whose_zeros_spare_the_weights_are_silent(
        tmp_path: Path, decorator: str, eager: bool, first: str, weight: str) -> None:
    result = run(_write(tmp_path, LOSS_OBJECT.format(first=first, weight=weight,
                                                     decorator=decorator)), force_eager=eager)
    assert result.error is None
    assert blocking(result) == []
