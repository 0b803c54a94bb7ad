"""Zeros the program chose: a batch the loss weighted by zero, a loss weight set later.

Padding examples (all-zero inputs) weighted 0, first in an unshuffled dataset: on the checked
batches every ReLU unit is at 0, and every weight's gradient is zero, the output bias's too,
which only the loss's own zero explains (a bias added after the ReLU gets the incoming
gradient). The ReLU is no cut there: the next batches train. A ReLU its bias initialiser
kills, on data weighted 1, is still reported at its layer (graph/zero_below.py).

A non-trainable loss weight at 0 that a callback raises once the checked steps are done is a
schedule (``Trace.variable_writes``, graph/zero_factors.py); one nothing ever sets is reported
where it was made.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from line_checks import MODES, check, line, loud

pytestmark = pytest.mark.tf

PADDED = """
    x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    weights = np.ones(64, dtype="float32")
    weights[:{padded}] = 0.0  # padding examples count for nothing
    x[:{padded}] = 0.0
    net = tf.keras.Sequential([tf.keras.Input((4,)),
                               tf.keras.layers.Dense(8, activation="relu",
                                                     bias_initializer="{bias}", name="h"),  # H
                               tf.keras.layers.Dense(1, name="out")], name="net")
    net.compile(optimizer="adam", loss="mse")
    data = tf.data.Dataset.from_tensor_slices((x, y, weights)).batch(16)
    net.fit(data, epochs=1, verbose=0)
    """


@MODES
def test_relu_at_zero_on_zero_weighted_padding_batches_is_silent(tmp_path: Path,
                                                                 eager: bool) -> None:
    report, _ = check(tmp_path, PADDED.format(padded=32, bias="zeros"), eager)
    assert loud(report) == []


@MODES
def test_relu_its_bias_kills_on_weighted_data_is_still_reported(tmp_path: Path,
                                                                eager: bool) -> None:
    source = PADDED.format(padded=0, bias="zeros").replace(
        'bias_initializer="zeros"', "bias_initializer=tf.keras.initializers.Constant(-100.0)")
    report, path = check(tmp_path, source, eager)
    found = [(f.rule, f.location.line if f.location else 0) for f in report.findings
             if f.severity == "warning"]
    assert ("TM501", line(path, "# H") - 1) in found or ("TM501", line(path, "# H")) in found, (
        loud(report))


AUX = """
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.body = tf.keras.layers.Dense(8, activation="tanh", name="body")
            self.main = tf.keras.layers.Dense(1, name="main")
            self.aux = tf.keras.layers.Dense(1, name="aux")
            self.aux_weight = tf.Variable(0.0, trainable=False)  # MADE

        def call(self, x):
            h = self.body(x)
            return self.main(h), self.aux(h)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                main, aux = self(x)
                loss = (tf.reduce_mean(tf.square(main - y))
                        + self.aux_weight * tf.reduce_mean(tf.square(aux - y)))  # MUL
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {{"loss": loss}}


    class Ramp(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            {ramp}


    x = np.random.default_rng(1).normal(size=(32, 3)).astype("float32")
    net = Net()
    net(x[:1])
    net.compile(optimizer="adam")
    net.fit(x, x.sum(axis=1, keepdims=True), epochs=2, batch_size=8, verbose=0,
            callbacks=[Ramp()])
    """


@MODES
def test_a_loss_weight_a_callback_raises_after_the_checked_steps_is_silent(
        tmp_path: Path, eager: bool) -> None:
    """The auxiliary head's only path is weighted 0 until the first epoch ends: a schedule."""
    report, _ = check(tmp_path, AUX.format(ramp="self.model.aux_weight.assign(0.3)"), eager)
    assert loud(report) == []


@MODES
def test_a_loss_weight_nothing_ever_sets_is_still_reported(tmp_path: Path, eager: bool) -> None:
    report, path = check(tmp_path, AUX.format(ramp="pass"), eager)
    found = {(f.rule, f.location.line if f.location else 0) for f in report.findings
             if f.severity == "warning"}
    # the zero is read where it multiplies the auxiliary term: that line (the weight's)
    assert ("TM501", line(path, "# MUL")) in found, loud(report)
