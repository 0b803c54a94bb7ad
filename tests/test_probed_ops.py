"""A traced op a probe asked is no *probable* cause of a zero gradient.

Graph mode sees no values while it traces, so for a gradient TensorFlow returned as zeros the
first op on its path that can saturate (a ReLU, a clip) used to be named as its probable cause.
``tracing/probes.py`` asks those ops on the step's own values: an op it asked that passed
gradients is then a fact, not an unknown. A LoRA adapter whose two factors both start at zero
(a user's bug: no factor breaks the symmetry) is explained by its zero weights in graph mode as
in ``--eager``, not by the live ReLU between the two adapters; the same network with Keras'
usual LoRA start (a random A, a zero B) stays silent in both modes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checked import run_program

pytestmark = pytest.mark.tf

LORA = """
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(26)

class LoraDense(keras.layers.Layer):
    def __init__(self, base, **kw):
        super().__init__(**kw)
        self.base = base
        self.base.trainable = False

    def build(self, input_shape):
        self.a = self.add_weight(shape=(input_shape[-1], 2), initializer="{init_a}", name="lora_a")
        self.b = self.add_weight(shape=(2, self.base.units), initializer="zeros", name="lora_b")

    def call(self, x):
        return self.base(x) + (x @ self.a @ self.b) * 2.0  # adapters

base1, base2 = keras.layers.Dense(16), keras.layers.Dense(4)
pre = keras.Sequential([keras.Input((8,)), base1, keras.layers.ReLU(), base2])
pre(np.zeros((1, 8), "float32"))
model = keras.Sequential([keras.Input((8,)), LoraDense(base1, name="l1"),
                          keras.layers.ReLU(name="act"), LoraDense(base2, name="l2")], name="net")
opt = keras.optimizers.Adam(1e-2)

@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(
            y, model(x), from_logits=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

rng = np.random.default_rng(0)
x = rng.normal(size=(32, 8)).astype("float32")
y = rng.integers(0, 4, 32)
for _ in range(3):
    step(x, y)
"""

ALL = {"net/l1/lora_a", "net/l1/lora_b", "net/l2/lora_a", "net/l2/lora_b"}


@pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])
def test_both_factors_zero_are_the_cause_not_the_live_relu(tmp_path: Path, eager: bool) -> None:
    report = run_program(tmp_path, LORA.replace("{init_a}", "zeros"), name="prog.py",
                         force_eager=eager).report
    (finding,) = report.findings
    assert finding.rule == "TM501" and finding.location is not None
    assert "# adapters" in (tmp_path / "prog.py").read_text().splitlines()[
        finding.location.line - 1]
    assert set(finding.variables) == ALL
    assert "start at exactly zero" in finding.message


@pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])
def test_the_usual_lora_start_is_silent(tmp_path: Path, eager: bool) -> None:
    report = run_program(tmp_path, LORA.replace("{init_a}", "he_uniform"), name="prog.py",
                         force_eager=eager).report
    assert [f.rule for f in report.findings if f.severity != "info"] == []
