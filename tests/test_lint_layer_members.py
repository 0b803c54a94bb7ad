"""Lint on a Keras layer subclass's own members: what its ``call`` reads.

Two correct layers of blind5 got hints (the honest split's first run, 2026-12-07):

- a ``Dense`` subclass that prunes its inherited ``self.kernel`` by a comparison mask and
  multiplies the kernel by it (a magnitude-pruning layer, modelled on
  https://github.com/Eric-mingjie/rethinking-network-pruning/issues/18): the second read of
  ``self.kernel`` in ``call`` found the memo of the first lookup (a member the class never
  assigns) and read no weight, so the mask's comparison looked like the kernel's only path;
- a bucketing layer whose edges are a ``trainable=False`` weight
  (https://github.com/pytorch/pytorch/issues/7284): ``searchsorted`` on the edges and a
  ``take`` of learned values by the bucket index were hinted as integer cuts of the edges,
  which no gradient is asked of.

The broken twins (the kernel reaches the loss only through the mask; learned edges reached
only through ``searchsorted``) stay hinted.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

PRUNED = """\
class PrunedDense(keras.layers.Dense):
    def call(self, inputs):
        mask = keras.ops.cast(keras.ops.abs(self.kernel) > 0.05, "float32")
        return {ret}

model = keras.Sequential([keras.Input((3,)), PrunedDense(1, name="pr")])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, verbose=0)
"""

BUCKETS = """\
class Buckets(keras.layers.Layer):
    def build(self, input_shape):
        self.edges = self.add_weight(shape=(7,), name="edges"{edges})
        self.values = self.add_weight(shape=(8,), name="values")
    def call(self, inputs):
        bucket = keras.ops.searchsorted(self.edges, inputs[:, 0], side="right")
        return keras.ops.expand_dims(keras.ops.take(self.values, bucket), -1){tail}

model = keras.Sequential([keras.Input((3,)), Buckets(name="b")])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, verbose=0)
"""

GOOD = {
    "inherited kernel times its pruning mask": PRUNED.format(
        ret="keras.ops.matmul(inputs, self.kernel * mask) + self.bias"),
    "inherited kernel read twice, plus its mask": PRUNED.format(
        ret="keras.ops.matmul(inputs, self.kernel + mask)"),
    "bucket edges that are not trainable": BUCKETS.format(edges=", trainable=False", tail=""),
}

BAD = {
    # the kernel reaches the loss only through its comparison
    "inherited kernel only through its mask": (
        PRUNED.format(ret="keras.ops.matmul(inputs, mask) + self.bias"), [("TM201", 3)]),
    # learned edges reach the loss only through searchsorted's integer bucket (the take of
    # the learned values by it is hinted too, as a codebook lookup is: not asserted here)
    "learned bucket edges": (BUCKETS.format(edges="", tail=""), [("TM202", 6)]),
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_a_correct_layer_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_broken_twin_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert set(expected) <= set(hints(body))
