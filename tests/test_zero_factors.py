"""Zeros made through another input (tracing/zero_factors.py, graph/zero_factors.py): TM501.

A weight's gradient is zero in every checked step because an op on its path multiplies it by
an all-zero mask, selects by an all-false condition or divides by zero with ``divide_no_nan``.
The probe (graph mode: inside the traced step; eagerly: on the recorded values) sees which
input zeroed the gradient, and the report sits where that input was made: the comparison, the
zero-initialised variable. The same shapes that zero only part of the values (a padding mask,
a select that gates half the batch), or zero only the first step (a zero-initialised scale
whose own gradient is not zero), stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import blocking, line

pytestmark = pytest.mark.tf

MASKED = """
    class Pruned(keras.layers.Dense):
        def call(self, inputs):
            keep = keras.ops.cast(keras.ops.abs(self.kernel) > {threshold}, "float32")  # MASK
            return keras.ops.matmul(inputs, self.kernel * keep) + self.bias

    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation="tanh", name="pre"),
                            Pruned(5, name="pruned"), keras.layers.Dense(1, name="head")],
                           name="net")
    net.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    net.fit(np.ones((32, 4), "float32") * np.arange(4, dtype="float32"),
            np.ones((32, 1), "float32"), batch_size=8, epochs=1, verbose=0)
    """

DIVIDED = """
    class Tempered(keras.layers.Layer):
        def build(self, shape):
            self.kernel = self.add_weight(shape=(shape[-1], 2), name="kernel")
            self.scale = self.add_weight(shape=(), initializer="{init}", name="scale")  # MADE

        def call(self, h):
            return tf.math.divide_no_nan(tf.matmul(h, self.kernel), self.scale)

    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="pre"),
                            Tempered(name="tempered")], name="net")
    opt = keras.optimizers.SGD(0.1)
    inputs, targets = tf.random.normal((16, 4)), tf.random.normal((16, 2))

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(inputs) - targets))
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))

    for _ in range(3):
        step()
    """

SELECTED = """
    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="tanh", name="pre"),
                            keras.layers.Dense(1, name="head")], name="net")
    opt = keras.optimizers.SGD(0.1)
    inputs, targets = tf.random.normal((16, 4)), tf.random.normal((16, 1))
    weights = tf.constant([{weights}] * 8)

    {decorator}
    def step():
        with tf.GradientTape() as tape:
            errors = tf.reduce_sum(tf.square(net(inputs) - targets), axis=-1)
            kept = tf.where(weights > 0.5, errors, tf.zeros_like(errors))  # SELECT
            loss = tf.reduce_mean(kept)
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))

    for _ in range(3):
        step()
    """

SCALED = """
    class Scaled(keras.layers.Layer):
        def build(self, shape):
            self.branch = keras.layers.Dense(shape[-1], activation="relu", name="branch")
            self.gamma = self.add_weight(shape=(shape[-1],), initializer="zeros", name="gamma")

        def call(self, h):
            return h + self.gamma * self.branch(h)

    net = keras.Sequential([keras.Input((4,)), Scaled(name="block"),
                            keras.layers.Dense(1, name="head")], name="net")
    net.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    net.fit(np.random.default_rng(0).normal(size=(32, 4)).astype("float32"),
            np.ones((32, 1), "float32"), batch_size=8, epochs=1, verbose=0)
    """

MODES = [("@tf.function", False), ("", True)]
IDS = ["function", "eager"]


@pytest.mark.parametrize("eager", [False, True], ids=["fit", "fit-eager"])
def test_an_all_zero_mask_is_reported_where_it_is_made(tmp_path: Path, eager: bool) -> None:
    """A threshold above every weight masks the whole kernel: TM501 at the comparison."""
    path = _write(tmp_path, MASKED.format(threshold=5.0))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# MASK"))], found
    assert set(found[0][2]) == {"net/pre/kernel", "net/pre/bias", "net/pruned/kernel"}
    assert "Greater" in result.report.findings[0].message


@pytest.mark.parametrize("eager", [False, True], ids=["fit", "fit-eager"])
def test_a_mask_that_keeps_some_weights_is_silent(tmp_path: Path, eager: bool) -> None:
    result = run(_write(tmp_path, MASKED.format(threshold=0.05)), force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_zero_divisor_variable_is_reported_where_it_is_made(tmp_path: Path, decorator: str,
                                                              eager: bool) -> None:
    """divide_no_nan by a zero-initialised scale: its own gradient is zero too; at its line."""
    path = _write(tmp_path, DIVIDED.format(init="zeros", decorator=decorator))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# MADE"))], found
    assert set(found[0][2]) == {"net/pre/kernel", "net/pre/bias", "net/tempered/kernel",
                                "net/tempered/scale"}


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_non_zero_divisor_is_silent(tmp_path: Path, decorator: str, eager: bool) -> None:
    result = run(_write(tmp_path, DIVIDED.format(init="ones", decorator=decorator)),
                 force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_an_all_false_condition_is_reported_at_its_comparison(tmp_path: Path, decorator: str,
                                                               eager: bool) -> None:
    path = _write(tmp_path, SELECTED.format(weights="0.1, 0.2", decorator=decorator))
    result = run(path, force_eager=eager)
    assert result.error is None
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# SELECT"))], found
    assert set(found[0][2]) == {"net/pre/kernel", "net/pre/bias", "net/head/kernel",
                                "net/head/bias"}


@pytest.mark.parametrize(("decorator", "eager"), MODES, ids=IDS)
def test_a_condition_that_keeps_half_the_batch_is_silent(tmp_path: Path, decorator: str,
                                                          eager: bool) -> None:
    result = run(_write(tmp_path, SELECTED.format(weights="0.1, 0.9", decorator=decorator)),
                 force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


@pytest.mark.parametrize("eager", [False, True], ids=["fit", "fit-eager"])
def test_a_zero_scale_that_moves_is_silent(tmp_path: Path, eager: bool) -> None:
    """LayerScale's zero gamma zeroes the branch on the first step only: no finding."""
    result = run(_write(tmp_path, SCALED), force_eager=eager)
    assert result.error is None
    assert blocking(result) == []


CELL = """
    class Cell(keras.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.state_size = units

        def build(self, shape):
            self.kernel = self.add_weight(shape=(shape[-1], self.units), name="kernel")
            self.recurrent = self.add_weight(shape=(self.units, self.units), name="recurrent")

        def call(self, inputs, states):
            h = keras.ops.tanh(inputs @ self.kernel + states[0] @ self.recurrent)
            return h, [{state}]  # RETURN

    net = keras.Sequential([keras.Input((5, 2)), keras.layers.RNN(Cell(4, name="cell"), name="rnn"),
                            keras.layers.Dense(1, name="head")], name="net")
    net.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    net.fit(np.random.default_rng(0).normal(size=(32, 5, 2)).astype("float32"),
            np.ones((32, 1), "float32"), batch_size=8, epochs=1, verbose=0)
    """


def test_a_cell_returning_its_incoming_state_is_reported_at_its_return(tmp_path: Path) -> None:
    """The loop body gives the state back unchanged: it stays zero, the recurrent kernel too."""
    path = _write(tmp_path, CELL.format(state="states[0]"))
    result = run(path, force_eager=False)
    assert result.error is None
    found = blocking(result)
    assert found == [("TM501", line(path, "# RETURN"), ("net/rnn/cell/recurrent",))], found


def test_a_cell_returning_its_new_state_is_silent(tmp_path: Path) -> None:
    result = run(_write(tmp_path, CELL.format(state="h")), force_eager=False)
    assert result.error is None
    assert blocking(result) == []


POOLED = """
    class Pool(keras.layers.Layer):
        def call(self, features, tokens):
            keep = keras.ops.cast(keras.ops.{compare}(tokens, 0), features.dtype)  # MASK
            return keras.ops.sum(features * {expand}, axis=1)  # SUM

    tokens = keras.Input((6,), dtype="int32")
    features = keras.layers.Embedding(9, 3, name="embed")(tokens)
    pooled = Pool(name="pool")(features, tokens)
    net = keras.Model(tokens, keras.layers.Dense(1, name="head")(pooled))
    net.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    net.fit(np.random.default_rng(0).integers(1, 9, size=(32, 6)), np.ones((32, 1), "float32"),
            batch_size=8, epochs=1, verbose=0)
    """


EXPANDS = ["keras.ops.expand_dims(keep, -1)", "keep[..., None]"]


@pytest.mark.parametrize("expand", EXPANDS, ids=["expand_dims", "slice"])
def test_a_mask_compared_with_zero_is_reported_at_its_comparison(tmp_path: Path,
                                                                 expand: str) -> None:
    """``tokens == 0`` is all False: the comparison made the zero, not its operand 0.

    ``keep[..., None]`` is a strided slice the graph-mode probe does not read: its zeros are
    its input's elements, walked back through it to the comparison.
    """
    path = _write(tmp_path, POOLED.format(compare="equal", expand=expand))
    result = run(path, force_eager=False)
    assert result.error is None
    found = blocking(result)
    # graph mode reads no tensor a fusion may own: the head's zero input (the sum) is walked
    # back no further than the sum; it comes from the mask's product, so the head is named in
    # the mask's finding (one finding, no count of its own at the fit line)
    assert found == [("TM501", line(path, "# MASK"), ("embed/embeddings", "head/kernel"))]


@pytest.mark.parametrize("expand", EXPANDS, ids=["expand_dims", "slice"])
def test_a_mask_that_keeps_the_tokens_is_silent(tmp_path: Path, expand: str) -> None:
    result = run(_write(tmp_path, POOLED.format(compare="not_equal", expand=expand)),
                 force_eager=False)
    assert result.error is None
    assert blocking(result) == []
