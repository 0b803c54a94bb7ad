"""A saturation is asked of the input the weights reach the op through, not always input 0.

``tf.maximum(0.0, margin)`` writes the constant first: the weights reach the ``Maximum``
through its input 1. The saturation check asked the registered gradient of input 0 only (the
constant), so a hinge whose every term sits below zero (its margin written backwards,
modelled on https://github.com/BVLC/caffe/issues/1605, our own code) gave all-zero gradients
and no finding, in graph mode and eagerly. Now the input on the weights' path is asked: TM501
at the ``maximum``. A hinge with active terms (the margin the right way round) stays silent.
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
x = np.random.default_rng(3).normal(size=(32, 4)).astype("float32")
y = np.where(x[:, :1] > 0, 1.0, -1.0).astype("float32")
model = tf.keras.Sequential([
    tf.keras.Input((4,)), tf.keras.layers.Dense(4, activation="relu", name="h"),
    tf.keras.layers.Dense(1, name="score",
                          kernel_initializer=tf.keras.initializers.RandomNormal(stddev=0.05))])
"""

STEP = """\
{decorator}
def step():
    with tf.GradientTape() as tape:
        scores = model(x, training=True)
        loss = tf.reduce_mean(tf.maximum(0.0, {margin}))  # HINGE
    return tape.gradient(loss, model.trainable_variables)

grads = step()
"""

BACKWARDS = "y * scores - 1.0"  # below zero for every small score: nothing active
RIGHT = "1.0 - y * scores"


def _run(tmp_path: Path, body: str, **options: Any) -> Any:
    path = tmp_path / "cell.py"
    path.write_text(SETUP + textwrap.dedent(body))
    with tapemagic.gradcheck(**options) as check:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    validate_report(check.report.to_json())
    return check.report


def _hinge_line(tmp_path: Path) -> int:
    lines = (tmp_path / "cell.py").read_text().splitlines()
    return next(i for i, text in enumerate(lines, start=1) if "# HINGE" in text)


@pytest.mark.parametrize("decorator", ["@tf.function", ""])
def test_a_hinge_with_no_active_term_is_found_at_its_maximum(tmp_path: Path,
                                                              decorator: str) -> None:
    report = _run(tmp_path, STEP.format(decorator=decorator, margin=BACKWARDS))
    found = [(f.rule, f.cause, f.location.line if f.location else 0, f.primary)
             for f in report.findings if f.severity in ("warning", "error")]
    assert found == [("TM501", "zero-at-runtime", _hinge_line(tmp_path), True)]
    (finding,) = report.findings
    assert set(finding.variables) == {v.variable for c in report.gradient_calls
                                      for v in c.sources}


@pytest.mark.parametrize("decorator", ["@tf.function", ""])
def test_a_hinge_with_active_terms_is_silent(tmp_path: Path, decorator: str) -> None:
    report = _run(tmp_path, STEP.format(decorator=decorator, margin=RIGHT))
    assert not report.findings
