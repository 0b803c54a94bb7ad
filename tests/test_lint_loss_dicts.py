"""A loss dict given to ``compile`` that leaves out one of the model's named outputs.

TF-free: sources are parsed, never run. Keras 3 computes a loss for each output a loss dict
names and none for an output it leaves out, so the layers only that output reads get no
gradient from ``fit`` (tensorflow/tensorflow#35267's kind: a second head's loss forgotten).
Hinted at the ``compile``. Correct look-alikes stay silent: every output named, an output left
out that reads no weight of its own (probabilities next to their logits). Our code.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

TWO_HEADS = """
    inp = keras.Input((3,))
    h = keras.layers.Dense(8, activation="relu")(inp)
    outputs = {{"price": keras.layers.Dense(1)(h), "kind": {second}}}
    model = keras.Model(inp, outputs)
    model.compile(optimizer="adam", loss={loss})
    model.fit(x, {{"price": y, "kind": y}}, epochs=1, verbose=0)
    """

BAD = {
    "the second head's loss left out": (TWO_HEADS.format(
        second="keras.layers.Dense(3)(h)", loss='{"price": "mse"}'), [("TM104", 5)]),
    "a loss object for the first head only": (TWO_HEADS.format(
        second="keras.layers.Dense(3)(h)", loss='{"kind": keras.losses.MeanSquaredError()}'),
        [("TM104", 5)]),
}

CLEAN = {
    "both heads named": TWO_HEADS.format(
        second="keras.layers.Dense(3)(h)",
        loss='{"price": "mse", "kind": keras.losses.MeanSquaredError()}'),
    "one loss for every output": TWO_HEADS.format(
        second="keras.layers.Dense(3)(h)", loss='"mse"'),
    "an output left out that reads no weight of its own": """
        inp = keras.Input((3,))
        logits = keras.layers.Dense(3)(inp)
        model = keras.Model(inp, {"logits": logits, "probs": keras.layers.Softmax()(logits)})
        model.compile(optimizer="adam", loss={"logits": "mse"})
        model.fit(x, {"logits": y, "probs": y}, epochs=1, verbose=0)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_compile_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []
