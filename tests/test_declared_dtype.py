"""An integer dtype declared elsewhere, that Keras cast a learned value to: the declaration.

A functional model converts each input to its ``keras.Input(dtype=...)``, and a layer casts a
floating input to its own ``dtype``: a learned value reaching such a declaration is truncated
by a ``Cast`` the user did not write (``tracing/declared.py``). TM202 is placed at the
declaration, not at the ``fit`` line where the cast ran; a cast the user wrote keeps its own
line, and integer token ids declared for an Embedding stay silent.
"""

from __future__ import annotations

from typing import Any

import pytest
from checked import loud

pytestmark = pytest.mark.tf

HEAD = """
import keras
import numpy as np
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
"""


def _lines(checked: Any) -> list[tuple[str, str]]:
    text = checked.path.read_text().splitlines()
    return [(rule, text[line - 1].strip()) for rule, line in loud(checked.report)]


def test_a_learned_value_into_an_int32_input(run_checked: Any) -> None:
    checked = run_checked("""
    first = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="est")])
    units = keras.Input((1,), dtype="int32")
    second = keras.Model(units, keras.layers.Dense(1, name="out")(keras.ops.cast(units, "float32")))
    inp = keras.Input((4,))
    model = keras.Model(inp, second(first(inp)))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    """, prefix=HEAD)
    assert _lines(checked) == [("TM202", 'units = keras.Input((1,), dtype="int32")')]


def test_a_learned_value_into_a_layer_made_int32(run_checked: Any) -> None:
    checked = run_checked("""
    class Price(keras.layers.Layer):
        def build(self, shape):
            self.p = self.add_weight(shape=(1,), initializer="ones", dtype="float32")
        def call(self, counts):
            return keras.ops.cast(counts, "float32") * self.p

    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="est"),
                              Price(dtype="int32")])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    """, prefix=HEAD)
    assert _lines(checked) == [("TM202", 'Price(dtype="int32")])')]


def test_a_cast_the_user_wrote_keeps_its_line(run_checked: Any) -> None:
    checked = run_checked("""
    class Floor(keras.layers.Layer):
        def call(self, h):
            return keras.ops.cast(keras.ops.cast(h, "int32"), "float32")

    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="est"), Floor(),
                              keras.layers.Dense(1, name="out")])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    """, prefix=HEAD)
    assert _lines(checked) == [
        ("TM202", 'return keras.ops.cast(keras.ops.cast(h, "int32"), "float32")')]


def test_int32_token_ids_declared_for_an_embedding_stay_silent(run_checked: Any) -> None:
    checked = run_checked("""
    ids = rng.integers(0, 9, size=(32, 3)).astype("float32")
    model = keras.Sequential([keras.Input((3,), dtype="int32"), keras.layers.Embedding(9, 2),
                              keras.layers.Flatten(), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(ids, y, epochs=1, batch_size=16, verbose=0)
    """, prefix=HEAD)
    assert loud(checked.report) == []
