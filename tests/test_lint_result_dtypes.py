"""Static hints where an API is asked for an integer result dtype, and their look-alikes.

TF-free: sources are parsed, never run. An API with no gradient asked for an integer or
quantized result (``tf.quantization.quantize(h, lo, hi, tf.qint8)``: QuantizeV2) is the cut;
the op that reads its integers further on (``dequantize``) is no second place to change, as
a cast of decoded labels is none (huggingface/optimum-quanto#212's kind: quantisation-aware
training written with the deployment ops). Correct look-alikes stay silent. Our code.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

STEP = """
    dense = keras.layers.Dense(4, activation="relu")
    head = keras.layers.Dense(1)
    model = keras.Sequential([keras.Input((3,)), dense, head])

    def squeeze(h):
        {body}

    @tf.function
    def step(a, b):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(head(squeeze(dense(a))) - b))
        return tape.gradient(loss, model.trainable_variables)

    step(x, y)
    """

BAD = {
    "quantize to qint8 then dequantize in the tape: one hint, at the quantize": (STEP.format(
        body="q, lo, hi = tf.quantization.quantize(h, 0.0, 6.0, tf.qint8)\n"
             "        return tf.quantization.dequantize(q, lo, hi)"), [("TM201", 6)]),
    "quantize with T= given by keyword": (STEP.format(
        body="out = tf.quantization.quantize(h, 0.0, 6.0, T=tf.quint8)\n"
             "        return tf.quantization.dequantize(out[0], out[1], out[2])"),
        [("TM201", 6)]),
}

CLEAN = {
    "fake quantisation in the tape (its gradient is straight-through)": STEP.format(
        body="return tf.quantization.fake_quant_with_min_max_args(h, 0.0, 6.0)"),
    "quantize and dequantize for export, after the tape": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        q, lo, hi = tf.quantization.quantize(model(x), -1.0, 1.0, tf.qint8)
        print(tf.quantization.dequantize(q, lo, hi))
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_first_cut_is_hinted_alone(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []
