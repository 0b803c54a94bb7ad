"""Correct training programs modelled on keras-io examples run with no finding they do not earn.

A false-positive hunt: each program here is correct code of a real example's shape that once
got a finding by mistake. It runs under ``tapemagic.gradcheck`` in graph mode as written and
forced eager. The whole programs are in ``bench/cases/clean/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from checked import run_program

pytestmark = pytest.mark.tf
MODES = pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])


# keras.io "Image classification with Vision Transformer" trains with AdamW. The attention key
# bias (shape (heads, key_dim)) gets a round-off gradient by construction (the softmax ignores a
# score added to every key); TM502 leaves offsets out, but the optimizer's update in the same
# traced step reads the bias for its decoupled weight decay (a Mul that never reaches the loss)
# and made the bias look like more than an offset.
ATTENTION_ADAMW = """
att = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=8, name="att")
head = tf.keras.layers.Dense(2, name="head")
x = tf.random.normal((8, 10, 8)); y = tf.constant(np.random.default_rng(0).integers(0, 2, 8))
head(tf.reduce_mean(att(x, x), axis=1))
weights = att.trainable_variables + head.trainable_variables
opt = tf.keras.optimizers.AdamW(1e-3, weight_decay=1e-2)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        logits = head(tf.reduce_mean(att(a, a), axis=1))
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
            b, logits, from_logits=True))
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads

g = step(x, y)
key_bias = float(tf.norm(g[3])) / max(float(tf.norm(t)) for t in g)
"""


@MODES
def test_attention_key_bias_with_adamw_in_the_step_is_silent(tmp_path: Path, eager: bool) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    done = run_program(tmp_path, ATTENTION_ADAMW, name="prog.py", namespace=namespace,
                       force_eager=eager, prefix="import numpy as np\nimport tensorflow as tf\n"
                                                 "tf.keras.utils.set_random_seed(0)\n")
    assert namespace["key_bias"] < 1e-6  # the shape TM502 looks at, still there
    assert done.report.findings == ()
