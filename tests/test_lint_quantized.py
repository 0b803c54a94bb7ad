"""TM120's hint: a model quantized to integers, then trained under the same name (lint only).

Keras 3's ``model.quantize("int8")`` makes each kernel a non-trainable int8 variable; a later
``fit`` trains only the biases (https://github.com/keras-team/keras-io/pull/2195). Each
correct look-alike (QLoRA, quantizing after the last fit, another model bound to the name,
a float mode) gets no hint. Own code.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """\
import keras
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
model.compile(optimizer="sgd", loss="mse")
"""


def _hints(body: str) -> list[tuple[str, int]]:
    return [(h.code, h.line) for h in check_source(HEAD + textwrap.dedent(body), "cell.py")]


@pytest.mark.parametrize("quantize", ['model.quantize("int8")', 'model.quantize(mode="int4")'])
def test_quantized_then_fitted_is_hinted_at_quantize(quantize: str) -> None:
    assert _hints(f"""
        {quantize}
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y)
        """) == [("TM120", 5)]


def test_hint_inside_a_function_too() -> None:
    assert _hints("""
        def tune(model, x, y):
            model.quantize("int8")
            model.train_on_batch(x, y)
        """) == [("TM120", 6)]


@pytest.mark.parametrize("body", [
    'model.quantize("int8")\nfor layer in model.layers:\n    layer.enable_lora(2)\n'
    'model.fit(x, y)\n',
    'model.fit(x, y)\nmodel.quantize("int8")\nmodel.evaluate(x, y)\n',
    'model.quantize("int8")\nmodel = keras.models.clone_model(base)\nmodel.fit(x, y)\n',
    'model.quantize("float8")\nmodel.fit(x, y)\n',
    'other.quantize("int8")\nmodel.fit(x, y)\n',
], ids=["qlora", "after-training", "rebound", "float8", "another-model"])
def test_look_alikes_get_no_hint(body: str) -> None:
    assert _hints(body) == []
