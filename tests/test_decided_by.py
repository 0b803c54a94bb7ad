"""A zeroing op's finding sits where its input got the property that bites (graph/decided_by.py).

The op that zeroes the gradients (a softmax one-hot on every row, a clip every element sits
at, a ``top_k`` that keeps nothing) is where it bites; the line to change is upstream, the op
whose own argument gave its input that property: a ``Reshape`` to a one-token axis, a
``band_part(ones, 0, 0)`` mask, a ``log_softmax`` activation under a loss that clips at a
positive floor, a count cast from a float. The biting op stays named in the message by its
line. Look-alikes: the same code with a working argument stays silent, and a zero the
upstream op did not decide (a count that is 0 without a cast, a clip over values of both
signs) keeps the biting op's line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import line

pytestmark = pytest.mark.tf

CAUSAL = """
    inputs = keras.Input((5, 6))
    qkv = keras.Model(inputs, [keras.layers.Dense(8, name="q")(inputs),
                               keras.layers.Dense(8, name="k")(inputs),
                               keras.layers.Dense(6, name="v")(inputs)])
    seq, target = tf.random.normal((4, 5, 6)), tf.random.normal((4, 5, 6))

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            q, k, v = qkv(x)
            scores = tf.matmul(q, k, transpose_b=True)
            allowed = tf.linalg.band_part(tf.ones((5, 5)), {lower}, 0)  # MASK
            weights = tf.nn.softmax(scores + (1.0 - allowed) * -1e9, axis=-1)  # SOFTMAX
            loss = tf.reduce_mean(tf.square(tf.matmul(weights, v) - y))
        return tape.gradient(loss, qkv.trainable_variables)

    step(seq, target)
    """

ONE_TOKEN = """
    data = np.random.default_rng(0).normal(size=(32, 6)).astype("float32")
    inputs = keras.Input((6,))
    tokens = keras.layers.Reshape({shape})(inputs)  # RESHAPE
    attended = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")(tokens, tokens)
    net = keras.Model(inputs, keras.layers.Dense(1, name="head")(keras.layers.Flatten()(attended)))
    net.compile(optimizer="adam", loss="mse")
    net.fit(data, data[:, :1], epochs=1, batch_size=16, verbose=0)
    """

SLICED = """
    inner = keras.layers.Dense(4, name="inner")

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tokens = x[:, None, :]  # NEW_AXIS
            scores = tf.matmul(inner(tokens), inner(tokens), transpose_b=True)
            loss = tf.reduce_sum(tf.nn.softmax(scores) * tf.range(8.0)[:, None, None])
        return tape.gradient(loss, inner.trainable_variables)

    step(x)
    """

TOP_K = """
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            per_element = tf.reshape(tf.square(model(x)), [-1])
            k = {count}  # COUNT
            hardest, _ = tf.math.top_k(per_element, k=k)  # TOPK
            loss = tf.reduce_sum(hardest)
        return tape.gradient(loss, model.trainable_variables)

    step(x)
    """

LOG_PROBS = """
    data = np.random.default_rng(0).normal(size=(32, 4)).astype("float32")
    targets = np.full((32, 3), 1.0 / 3.0, dtype="float32")
    net = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="tanh", name="h"),
                            keras.layers.Dense(3, activation="{activation}", name="out")])  # ACT
    net.compile(optimizer="adam", loss=keras.losses.KLDivergence())  # COMPILE
    net.fit(data, targets, epochs=1, batch_size=16, verbose=0)
    """

CLIP = """
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            floored = tf.maximum(tf.tanh(model(x)), 2.0)  # CLIP
            loss = tf.reduce_mean(floored)
        return tape.gradient(loss, model.trainable_variables)

    step(x)
    """


def _findings(path: Path) -> list[tuple[str, int, str]]:
    result = run(path, force_eager=False)
    return [(f.rule, f.location.line if f.location else 0, f.message)
            for f in result.report.findings]


def test_a_diagonal_only_causal_mask_is_reported_at_the_band_part(tmp_path: Path) -> None:
    path = _write(tmp_path, CAUSAL.format(lower=0))
    found = _findings(path)
    assert [(rule, at) for rule, at, _ in found] == [("TM505", line(path, "# MASK"))], found
    assert f"it bites at line {line(path, '# SOFTMAX')}" in found[0][2]


def test_a_lower_triangular_causal_mask_is_silent(tmp_path: Path) -> None:
    assert _findings(_write(tmp_path, CAUSAL.format(lower=-1))) == []


def test_attention_over_a_one_token_reshape_is_reported_at_the_reshape(tmp_path: Path) -> None:
    path = _write(tmp_path, ONE_TOKEN.format(shape=(1, 6)))
    found = _findings(path)
    assert [(rule, at) for rule, at, _ in found] == [("TM505", line(path, "# RESHAPE"))], found
    assert "axis of one element" in found[0][2]


def test_attention_over_a_two_token_reshape_is_silent(tmp_path: Path) -> None:
    assert _findings(_write(tmp_path, ONE_TOKEN.format(shape=(2, 3)))) == []


def test_a_softmax_over_a_new_axis_of_a_slice_is_reported_at_the_slice(tmp_path: Path) -> None:
    path = _write(tmp_path, SLICED)
    found = [(rule, at) for rule, at, _ in _findings(path)]
    assert ("TM505", line(path, "# NEW_AXIS")) in found, found


def test_a_top_k_count_truncated_by_a_cast_is_reported_at_the_cast(tmp_path: Path) -> None:
    count = "tf.cast(0.001 * tf.cast(tf.size(per_element), tf.float32), tf.int32)"
    path = _write(tmp_path, TOP_K.format(count=count))
    found = _findings(path)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# COUNT"))], found
    assert f"it bites at line {line(path, '# TOPK')}" in found[0][2]


def test_a_top_k_count_of_zero_with_no_cast_stays_at_the_top_k(tmp_path: Path) -> None:
    path = _write(tmp_path, TOP_K.format(count="tf.constant(0)"))
    assert [(rule, at) for rule, at, _ in _findings(path)] == [("TM501", line(path, "# TOPK"))]


def test_a_top_k_count_cast_from_a_float_that_keeps_elements_is_silent(tmp_path: Path) -> None:
    count = "tf.cast(0.5 * tf.cast(tf.size(per_element), tf.float32), tf.int32)"
    assert _findings(_write(tmp_path, TOP_K.format(count=count))) == []


def test_log_probabilities_under_a_kl_loss_are_reported_at_the_activation(tmp_path: Path) -> None:
    path = _write(tmp_path, LOG_PROBS.format(activation="log_softmax"))
    found = _findings(path)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# ACT"))], found
    assert f"it bites at line {line(path, '# COMPILE')}" in found[0][2]


def test_probabilities_under_a_kl_loss_are_silent(tmp_path: Path) -> None:
    assert _findings(_write(tmp_path, LOG_PROBS.format(activation="softmax"))) == []


def test_a_floor_above_a_tanh_stays_at_the_clip(tmp_path: Path) -> None:
    # tanh's values have both signs: the floor's own bound decides, not the op upstream
    path = _write(tmp_path, CLIP)
    assert [(rule, at) for rule, at, _ in _findings(path)] == [("TM501", line(path, "# CLIP"))]
