"""Zeros made from the data and the code alone, seen in a step that ran once (TM501).

A zero factor zero in every checked step, two at least, is reported (tests/test_zero_factors.py);
one seen in a single step is not, since a zero-initialised scale (ReZero) zeroes its branch on
the first step only. A zero with no variable upstream of it (an out-of-range ``one_hot`` code:
the walk back over the recorded ops meets no variable, no random draw) is one no update can
remove: reported after one step, at the line that made it. A zero a variable upstream makes
(a warmup gate read from a step counter, a zero scale) keeps the guard.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import blocking, line

pytestmark = pytest.mark.tf

CODED = """
    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="relu", name="pre"),
                            keras.layers.Dense(3, activation="softmax", name="probs")], name="net")
    codes = tf.constant([{codes}] * 4)

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            targets = tf.one_hot(codes, 3)  # MADE
            probs = net(tf.random.stateless_normal((8, 4), seed=(1, 2)))
            loss = -tf.reduce_mean(tf.reduce_sum(targets * tf.math.log(probs + 1e-7), axis=-1))
        return tape.gradient(loss, net.trainable_variables)

    grads = step()
    """

GATED = """
    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="tanh", name="pre"),
                            keras.layers.Dense(1, name="head")], name="net")
    count = tf.Variable(0.0, trainable=False)
    inputs, targets = tf.random.normal((8, 4)), tf.random.normal((8, 1))

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            gate = tf.cast(count > 0.0, tf.float32)  # warmup: the loss counts from step two
            loss = gate * tf.reduce_mean(tf.square(net(inputs) - targets))
        count.assign_add(1.0)
        return tape.gradient(loss, net.trainable_variables)

    grads = step()
    """

SCALED = """
    class Scaled(keras.layers.Layer):
        def build(self, shape):
            self.branch = keras.layers.Dense(shape[-1], activation="tanh", name="branch")
            self.alpha = self.add_weight(shape=(), initializer="zeros", name="alpha")

        def call(self, h):
            return h + self.alpha * self.branch(h)

    net = keras.Sequential([keras.Input((4,)), Scaled(name="block"),
                            keras.layers.Dense(1, name="head")], name="net")
    inputs, targets = tf.random.normal((8, 4)), tf.random.normal((8, 1))

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(inputs) - targets))
        return tape.gradient(loss, net.trainable_variables)

    grads = step()
    """

MODES = [("@tf.function", False), ("", True)]
IDS = ["function", "eager"]


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_out_of_range_one_hot_codes_are_reported_after_one_step(
        tmp_path: Path, decorator: str, eager: bool) -> None:
    """Codes 5 and 7 of 3 classes: every target row is zero; nothing trainable made it."""
    path = _write(tmp_path, CODED.format(codes="5, 7", decorator=decorator))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# MADE"))], found
    assert set(found[0][2]) == {"net/pre/kernel", "net/pre/bias", "net/probs/kernel",
                                "net/probs/bias"}
    assert "no update can change that" in result.report.findings[0].message


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_valid_one_hot_codes_are_silent(tmp_path: Path, decorator: str, eager: bool) -> None:
    result = run(_write(tmp_path, CODED.format(codes="0, 2", decorator=decorator)),
                 force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_gate_read_from_a_variable_keeps_the_two_step_guard(tmp_path: Path, decorator: str,
                                                               eager: bool) -> None:
    """A warmup gate from a step counter is zero on the one step run: the next may open it."""
    result = run(_write(tmp_path, GATED.format(decorator=decorator)), force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_zero_scale_on_the_one_step_run_is_silent(tmp_path: Path, decorator: str,
                                                     eager: bool) -> None:
    """ReZero's alpha starts at zero and zeroes its branch on step one: the update moves it."""
    result = run(_write(tmp_path, SCALED.format(decorator=decorator)), force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


ABS_SCALED = """
    class Scaled(keras.layers.Layer):
        def build(self, shape):
            self.branch = keras.layers.Dense(shape[-1], activation="tanh", name="branch")
            self.scale = self.add_weight(shape=(), initializer="{init}", name="scale")

        def call(self, h):
            return h + tf.abs(self.scale) * self.branch(h)  # ABS

    net = keras.Sequential([keras.Input((4,)), Scaled(name="block")], name="net")
    inputs, targets = tf.random.normal((8, 4)), tf.random.normal((8, 4))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(inputs) - targets))
    grads = tape.gradient(loss, net.trainable_variables)
    """


def test_abs_of_a_zero_scale_names_the_branch_it_holds_at_zero(tmp_path: Path) -> None:
    """``abs`` at 0 gives its scale a zero gradient: it stays 0 and so does the branch's.

    The dead op reads only that scale (a variable whose gradient is zero), so one step shows
    it holds: the branch's weights are named in its finding.
    """
    path = _write(tmp_path, ABS_SCALED.format(init="zeros"))
    result = run(path, force_eager=True)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# ABS"))], found
    assert set(found[0][2]) == {"net/block/scale", "net/block/branch/kernel",
                                "net/block/branch/bias"}


def test_abs_of_a_non_zero_scale_is_silent(tmp_path: Path) -> None:
    result = run(_write(tmp_path, ABS_SCALED.format(init="ones")), force_eager=True)
    assert result.error is None
    assert blocking(result) == []


DEAD_ON_DATA = """
    net = keras.Sequential([keras.Input((4,)),
                            keras.layers.Dense(3, activation="relu", use_bias=False,
                                               kernel_initializer="ones", name="gate"),
                            keras.layers.Dense(1, name="head")], name="net")
    inputs, targets = -tf.abs(tf.random.normal((8, 4))), tf.random.normal((8, 1))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(inputs) - targets))
    grads = tape.gradient(loss, net.trainable_variables)
    """


def test_a_relu_dead_on_one_batch_of_data_does_not_name_the_head_after_one_step(
        tmp_path: Path) -> None:
    """Every input negative: the gate is dead on this batch, the next may revive it.

    What it reads is data, so the head behind it is not named from one step.
    """
    result = run(_write(tmp_path, DEAD_ON_DATA), force_eager=True)
    assert result.error is None
    assert all("net/head/kernel" not in names for _, _, names in blocking(result))
