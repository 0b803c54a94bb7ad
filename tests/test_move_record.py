"""The host's look at a checked run (``tracing/move_record.py``) answers as the device would.

Real TensorFlow. When the weights live on the CPU the record's copies are read as NumPy
buffers and compared there (no op per weight); each answer must be the one the device's ops
(``reduce_max(abs)``, ``reduce_all(equal)``) give on the same values, or a verdict of TM118
or TM501 would change with the device.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from tapemagic.tracing.move_record import (
    compare_on_host,
    gradient_tops,
    same_as,
    top_on_host,
    weight_tops,
)

pytestmark = pytest.mark.tf

NAN, INF = float("nan"), float("inf")
#: (before, after) pairs: a NaN never equals itself, -0.0 equals 0.0, an empty weight
PAIRS = [
    ([1.0, -3.0], [1.0, -3.0], "float32"),
    ([1.0, NAN], [1.0, NAN], "float32"),
    ([0.0, 2.0], [-0.0, 2.0], "float32"),
    ([0.0, 0.0], [0.0, 0.0], "float32"),
    ([-INF, 1.0], [-INF, 1.0], "float32"),
    ([], [], "float32"),
    ([2.0], [2.0], "float32"),
    ([], [], "float16"),
    ([1e-8, 3.0], [1e-8, 3.0000001], "float64"),
    ([1e300, 1.0], [1e300, 1.0], "float64"),
    ([0.5, -65504.0], [0.5, -65504.0], "float16"),
    ([0.5, 2.0], [0.5, 2.5], "bfloat16"),
]


def test_the_host_comparison_is_the_devices() -> None:
    before = [tf.constant(b, d) for b, _, d in PAIRS]
    after = [tf.constant(a, d) for _, a, d in PAIRS]
    for dtype in sorted({d for _, _, d in PAIRS}):  # one flat copy per dtype, as the step writes
        chosen = [i for i, (_, _, d) in enumerate(PAIRS) if d == dtype]
        sizes = [int(after[i].shape[0]) for i in chosen]
        flat = [np.concatenate([t.numpy() for t in (ts[i] for i in chosen)])
                for ts in (after, before)]
        tops, same = compare_on_host(flat[0], flat[1], sizes)
        np.testing.assert_array_equal(tops, weight_tops([after[i] for i in chosen]).numpy())
        np.testing.assert_array_equal(
            same, same_as([after[i] for i in chosen], [before[i] for i in chosen]).numpy())
        _, first = compare_on_host(flat[0], None, sizes)
        assert not first.any()  # the first run has nothing to equal


def test_a_gradients_top_on_the_host_is_the_devices() -> None:
    gradients = [tf.constant(a, d) for _, a, d in PAIRS]
    host = np.array([top_on_host(g.numpy()) for g in gradients], np.float32)
    np.testing.assert_array_equal(host, gradient_tops(gradients).numpy())
