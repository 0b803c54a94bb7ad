"""TM120: weights a Keras API froze as a side effect, then left out of a ``fit``.

Real Keras 3 (3.15): ``load_model`` restores a layer's saved ``trainable=False`` and
``model.quantize("int8")`` replaces each kernel by a non-trainable int8 variable; a ``fit``
afterwards never changes those weights and nothing warns. Each broken program checks that the
weights really did not move; each correct look-alike (a freeze the code reads or sets itself,
a quantized backbone under a new head, QLoRA, fine-tuning before quantizing) stays silent.
TM120 is a note (info), never a warning: the same code is correct when the freeze is meant
(bench/cases/clean/load_model_frozen_base_continue_fit.py freezes, saves, reloads and trains
the head on purpose, exactly as the broken program does by mistake).
Shapes from public reports (https://github.com/keras-team/keras/issues/13587,
https://github.com/keras-team/keras-io/pull/2195); own code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from checked import line_of, loud, run_program

pytestmark = pytest.mark.tf

DATA = """\
import os
import tempfile
import keras
import numpy as np
keras.utils.set_random_seed(0)
rng = np.random.default_rng(4)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.normal(size=(32, 2)).astype("float32")
"""

SAVED = """
inputs = keras.Input((5,))
hidden = keras.layers.Dense(6, activation="tanh", name="block")(inputs)
first = keras.Model(inputs, keras.layers.Dense(2, name="top")(hidden), name="net")
first.get_layer("block").trainable = False
path = os.path.join(tempfile.mkdtemp(), "net.keras")
first.save(path)
model = keras.models.load_model(path)  # LOAD
{after_load}model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
start = model.get_layer("block").kernel.numpy().copy()
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
moved = not np.allclose(start, model.get_layer("block").kernel.numpy())
"""

QUANTIZED = """
model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(6, activation="relu", name="h"),
                          keras.layers.Dense(2, name="o")], name="small")
model.compile(optimizer="sgd", loss="mse")
{before}model.quantize("int8")  # QUANTIZE
{after}model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
start = [v.numpy().copy() for v in model.weights if "int" in str(v.dtype)]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
moved = not all(np.array_equal(s, v.numpy())
                for s, v in zip(start, [v for v in model.weights if "int" in str(v.dtype)]))
"""


def _frozen(report: Any) -> list[tuple[str, int]]:
    """Warnings and errors, and TM120's notes (an info finding: the freeze may be on purpose)."""
    return [(f.rule, f.location.line if f.location else 0) for f in report.findings
            if f.severity != "info" or f.rule == "TM120"]


def _run(tmp_path: Path, body: str) -> tuple[Any, dict[str, Any]]:
    done = run_program(tmp_path, body, name="cell.py", prefix=DATA)
    return done.report, done.namespace


@pytest.mark.parametrize("force_eager", [False, True], ids=["graph", "eager"])
def test_flag_restored_by_load_model_is_reported_there(tmp_path: Path,
                                                       force_eager: bool) -> None:
    done = run_program(tmp_path, SAVED.format(after_load=""), name="cell.py", prefix=DATA,
                       force_eager=force_eager)
    assert not done.namespace["moved"]  # Keras 3 keeps the restored freeze
    assert loud(done.report) == []  # the same code is correct when the freeze is meant
    assert _frozen(done.report) == [("TM120", line_of(tmp_path / "cell.py", "# LOAD"))]
    (finding,) = done.report.findings
    assert finding.cause == "sources-mismatch"
    assert set(finding.variables) == {"block/kernel", "block/bias"}
    assert "`load_model`" in finding.message and "`block`" in finding.message


@pytest.mark.parametrize("after_load", [
    'assert not model.get_layer("block").trainable\n',  # read: kept frozen on purpose
    'model.get_layer("block").trainable = False\n',  # set again by the code itself
    'if model.trainable:\n    print("training the head")\n',  # the model's own flag read
], ids=["read", "set-again", "model-read"])
def test_restored_flag_the_code_looks_at_is_silent(tmp_path: Path, after_load: str) -> None:
    report, ns = _run(tmp_path, SAVED.format(after_load=after_load))
    assert not ns["moved"]
    assert _frozen(report) == []


def test_restored_flag_undone_by_the_code_is_silent(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, SAVED.format(
        after_load='model.get_layer("block").trainable = True\n'))
    assert ns["moved"]
    assert _frozen(report) == []


def test_saved_training_resumed_as_it_was_is_silent(tmp_path: Path) -> None:
    # load_model restores the compiled optimizer too: fit resumes stage one, freeze and all
    report, _ = _run(tmp_path, """
        inputs = keras.Input((5,))
        hidden = keras.layers.Dense(6, activation="tanh", name="block")(inputs)
        first = keras.Model(inputs, keras.layers.Dense(2, name="top")(hidden), name="net")
        first.get_layer("block").trainable = False
        first.compile(optimizer="sgd", loss="mse")
        first.fit(x, y, epochs=1, batch_size=16, verbose=0)
        path = os.path.join(tempfile.mkdtemp(), "net.keras")
        first.save(path)
        resumed = keras.models.load_model(path)
        resumed.fit(x, y, epochs=1, batch_size=16, verbose=0)
        """)
    assert _frozen(report) == []


def test_layer_frozen_by_its_own_argument_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        model = keras.Sequential([keras.Input((5,)),
                                  keras.layers.Dense(6, trainable=False, name="fixed"),
                                  keras.layers.Dense(2, name="head")])
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, epochs=1, batch_size=16, verbose=0)
        """)
    assert _frozen(report) == []


def test_quantized_model_fine_tuned_is_reported_at_quantize(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, QUANTIZED.format(before="", after=""))
    assert not ns["moved"]
    assert loud(report) == []
    assert _frozen(report) == [("TM120", line_of(tmp_path / "cell.py", "# QUANTIZE"))]
    (finding,) = report.findings
    assert {v.rsplit("/", 1)[-1] for v in finding.variables} == {"kernel"}
    assert len(finding.variables) == 2  # both layers' kernels, not their scales


@pytest.mark.parametrize(("before", "after"), [
    ("", "for layer in model.layers:\n    layer.enable_lora(2)\n"),  # QLoRA
], ids=["qlora"])
def test_quantized_layers_with_lora_are_silent(tmp_path: Path, before: str, after: str) -> None:
    report, _ = _run(tmp_path, QUANTIZED.format(before=before, after=after))
    assert _frozen(report) == []


def test_quantized_backbone_under_a_new_head_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        backbone = keras.Sequential([keras.Input((5,)), keras.layers.Dense(6, name="f")],
                                    name="backbone")
        backbone.quantize("int8")
        inputs = keras.Input((5,))
        model = keras.Model(inputs, keras.layers.Dense(2, name="new")(backbone(inputs)))
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, epochs=1, batch_size=16, verbose=0)
        """)
    assert _frozen(report) == []


def test_quantized_after_training_and_only_evaluated_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, """
        model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(2, name="o")])
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, epochs=1, batch_size=16, verbose=0)
        model.quantize("int8")
        model.evaluate(x, y, verbose=0)
        """)
    assert _frozen(report) == []
