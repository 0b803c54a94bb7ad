"""A ReLU inactive on a batch the loss weighted by zero cut nothing (graph/zero_below.py).

Padding examples (all-zero inputs) weighted 0, first in an unshuffled dataset: on the checked
batches every ReLU unit is at 0, and every weight's gradient is zero, the output bias's too,
which only the loss's own zero explains (a bias added after the ReLU gets the incoming
gradient). The ReLU is no cut there: the next batches train. A ReLU its bias initialiser
kills, on data weighted 1, is still reported at its layer.
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
