"""A layer with several outputs of which the loss reads only some (real TF and Keras 3, fit).

``Bidirectional(..., merge_mode=None)`` returns the forward and the backward output apart; a
head on the forward one alone leaves the backward LSTM's weights out of every loss (modelled
on https://github.com/keras-team/keras-io/pull/386, which documents that mode; own code). In
``fit`` every op of the model is placed at the ``fit`` line, so the line that gave the head its
input is the layer application (``tracing/layer_sites.py``): TM104 there, naming the backward
weights. Unused outputs that carry no weights of their own (an LSTM's states beside its
output) and a head on both directions stay silent.
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

pytestmark = pytest.mark.tf

_SETUP = """
    import keras
    import numpy as np
    keras.utils.set_random_seed(0)
    x = np.random.default_rng(0).normal(size=(32, 6, 3)).astype("float32")
    y = x[:, -2:, 0].sum(axis=1, keepdims=True)
    inputs = keras.Input((6, 3))
    """


def test_a_head_on_the_forward_output_alone_is_the_line(run_checked: RunChecked) -> None:
    report, marked = run_checked(_SETUP + """
    fwd, bwd = keras.layers.Bidirectional(keras.layers.GRU(4), merge_mode=None, name="bi")(inputs)
    outputs = keras.layers.Dense(1, name="head")(fwd)  # <-
    model = keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    """)
    assert report.codes == ["TM104"], report.codes
    finding, = report.findings
    assert finding.primary and finding.location.line == marked[0]  # type: ignore[union-attr]
    assert finding.variables and all("backward_gru" in v for v in finding.variables)
    assert len(finding.variables) == 3


def test_a_head_on_both_directions_is_silent(run_checked: RunChecked) -> None:
    report, _ = run_checked(_SETUP + """
    fwd, bwd = keras.layers.Bidirectional(keras.layers.GRU(4), merge_mode=None, name="bi")(inputs)
    both = keras.layers.Concatenate()([fwd, bwd])
    model = keras.Model(inputs, keras.layers.Dense(1, name="head")(both))
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    """)
    assert report.codes == [], report.codes


def test_unused_states_with_no_weights_of_their_own_are_silent(run_checked: RunChecked) -> None:
    report, _ = run_checked(_SETUP + """
    seq, h, c = keras.layers.LSTM(4, return_sequences=True, return_state=True)(inputs)
    model = keras.Model(inputs, keras.layers.Dense(1)(keras.layers.Flatten()(seq)))
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    """)
    assert report.codes == [], report.codes
