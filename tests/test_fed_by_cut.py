"""A cut fed only by another cut's outputs is no second primary (real TF, graph/fed_by_cut.py).

Quantisation-aware training written with the deployment ops (modelled on
https://github.com/tensorflow/lucid/issues/62: "No gradient defined for operation ... (op type:
Dequantize)"): ``QuantizeV2`` takes the layer's values off the gradient path, and
the ``Dequantize`` after it, which makes the call raise, only ever sees what it made. Two
separate cuts on two paths both stay primary; the fake-quant twin is silent. Own code.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

import tapemagic
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf

SETUP = """\
import numpy as np
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
x = np.random.rand(32, 5).astype("float32")
y = np.random.rand(32, 1).astype("float32")
enc = tf.keras.layers.Dense(8, activation="relu", name="enc")
dec = tf.keras.layers.Dense(1, name="dec")
enc.build((None, 5))
dec.build((None, 8))
weights = enc.trainable_variables + dec.trainable_variables
"""


def _run(tmp_path: Path, body: str) -> Any:
    path = tmp_path / "cell.py"
    path.write_text(SETUP + textwrap.dedent(body))
    with tapemagic.gradcheck() as check:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    report = check.report
    validate_report(report.to_json())
    return report


def _line(tmp_path: Path, needle: str) -> int:
    lines = (tmp_path / "cell.py").read_text().splitlines()
    return next(i for i, text in enumerate(lines, start=1) if needle in text)


def _found(report: Any) -> list[tuple[str, int, bool]]:
    return [(f.rule, f.location.line if f.location else 0, f.primary) for f in report.findings
            if f.severity in ("warning", "error")]


QUANTISED = """
    @tf.function
    def step():
        with tf.GradientTape() as tape:
            q, lo, hi = tf.quantization.quantize(enc(x), 0.0, 4.0, tf.quint8)  # QUANT
            back = tf.quantization.dequantize(q, lo, hi)  # DEQUANT
            loss = tf.reduce_mean(tf.square(dec(back) - y))
        return tape.gradient(loss, weights)

    try:
        step()
    except Exception as error:  # graph mode wraps the LookupError in autograph's StagingError
        print(type(error).__name__)
    """


def test_the_dequantize_fed_by_the_quantize_is_not_a_second_primary(tmp_path: Path) -> None:
    report = _run(tmp_path, QUANTISED)
    quant, dequant = _line(tmp_path, "# QUANT"), _line(tmp_path, "# DEQUANT")
    assert [(r, ln, p) for r, ln, p in _found(report) if p] == [("TM201", quant, True)]
    assert ("TM201", dequant, False) in _found(report)  # still a finding: it must go too


def test_the_same_eagerly_keeps_one_primary(tmp_path: Path) -> None:
    report = _run(tmp_path, QUANTISED.replace("@tf.function", ""))
    assert [ln for _, ln, p in _found(report) if p] == [_line(tmp_path, "# QUANT")]


def test_two_cuts_on_two_paths_both_stay_primary(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                h = enc(x)
                a = tf.round(h)  # ROUND
                b = tf.cast(tf.argmax(h, axis=-1), tf.float32)  # ARGMAX
                loss = tf.reduce_mean(dec(a)) + tf.reduce_mean(b)
            return tape.gradient(loss, enc.trainable_variables)

        step()
        """)
    primaries = sorted(ln for _, ln, p in _found(report) if p)
    assert primaries == [_line(tmp_path, "# ROUND"), _line(tmp_path, "# ARGMAX")]


def test_the_fake_quant_twin_is_silent(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                back = tf.quantization.fake_quant_with_min_max_args(enc(x), 0.0, 4.0)
                loss = tf.reduce_mean(tf.square(dec(back) - y))
            return tape.gradient(loss, weights)

        step()
        """)
    assert _found(report) == []
