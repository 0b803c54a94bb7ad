"""Causes named by mechanism for families the blind splits found (real TF).

A weight whose only way to the loss is a ``tf.cond`` condition (cond_v2's gradient gives the
predicate None): TM201 at the comparison that made the condition, not "not connected"
(the ``If`` op's condition is recorded as a gating input by ``tracing/graphs.link_cond``;
modelled on https://github.com/jingyaogong/minimind/pull/859). A straight-through estimator
with its terms swapped is cut at its stop_gradient only (``graph/straight_through.py``), and
integer arithmetic on a cast size is no second cut. A loss that subtracts a term from itself
(the same tensor, or one model called twice on one batch) is zero at the subtraction
(``tracing/cancel.py``, modelled on
https://github.com/SerezD/vqvae-vqgan-pytorch-lightning/issues/3); two dropout views are not.
Own code.
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
x = np.random.rand(16, 4).astype("float32")
y = np.random.rand(16, 4).astype("float32")
gate = tf.keras.layers.Dense(1, name="gate")
head = tf.keras.layers.Dense(4, name="head")
for layer in (gate, head):
    layer.build((None, 4))
weights = gate.trainable_variables + head.trainable_variables
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


def _found(report: Any) -> list[tuple[str, str, int, bool]]:
    return [(f.rule, f.cause, f.location.line if f.location else 0, f.primary)
            for f in report.findings if f.severity in ("warning", "error")]


def test_a_gate_read_only_by_a_cond_condition_is_cut_at_the_condition(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                score = tf.reduce_mean(gate(x))
                out = tf.cond(score > 0.0,  # PRED
                              lambda: head(x), lambda: 2.0 * head(x))
                loss = tf.reduce_mean(tf.square(out - y))
            return tape.gradient(loss, weights)

        step()
        """)
    assert _found(report) == [("TM201", "non-differentiable-op", _line(tmp_path, "# PRED"), True)]
    finding = report.findings[0]
    assert set(finding.variables) == {"gate/kernel", "gate/bias"}
    # no straight-through edit: a float cannot stand where a condition goes
    assert finding.fix is not None and not finding.fix.edits


def test_an_autograph_if_on_the_gate_is_cut_at_the_if(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                if tf.reduce_mean(gate(x)) > 0.0:  # PRED
                    out = head(x)
                else:
                    out = 2.0 * head(x)
                loss = tf.reduce_mean(tf.square(out - y))
            return tape.gradient(loss, weights)

        step()
        """)
    assert _found(report) == [("TM201", "non-differentiable-op", _line(tmp_path, "# PRED"), True)]


def test_a_gate_that_also_scales_the_branches_is_silent(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                score = tf.reduce_mean(tf.sigmoid(gate(x)))
                out = tf.cond(score > 0.5, lambda: score * head(x),
                              lambda: (1.0 - score) * head(x))
                loss = tf.reduce_mean(tf.square(out - y))
            return tape.gradient(loss, weights)

        step()
        """)
    assert _found(report) == []


def test_a_straight_through_with_swapped_terms_is_cut_at_the_stop_gradient(
        tmp_path: Path) -> None:
    # the rounding also feeds the stop_gradient: the estimator is the line to change
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                h = 3.0 * tf.tanh(gate(x))
                level = tf.floor(h)
                code = level + tf.stop_gradient(h - level)  # STE
                loss = tf.reduce_mean(tf.square(head(tf.tile(code, [1, 4])) - y))
            return tape.gradient(loss, weights)

        step()
        """)
    assert _found(report) == [("TM401", "stop-gradient", _line(tmp_path, "# STE"), True)]


def test_integer_arithmetic_on_a_cast_size_is_no_second_cut(tmp_path: Path) -> None:
    # `//` on the integer a cast made only sizes a slice: the cast is the one cut
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                width = tf.cast(2.0 + 2.0 * tf.sigmoid(tf.reduce_mean(gate(x))), tf.int32)  # CAST
                half = (width + 1) // 2
                window = tf.slice(x, [0, 0], [16, half])
                loss = tf.reduce_mean(tf.square(head(tf.pad(window, [[0, 0], [0, 4 - half]])) - y))
            return tape.gradient(loss, weights)

        step()
        """)
    assert _found(report) == [("TM202", "integer-dtype", _line(tmp_path, "# CAST"), True)]


def test_a_loss_that_subtracts_a_term_from_itself_is_zero_at_the_subtraction(
        tmp_path: Path) -> None:
    # `tracing/cancel.py`: the two means are the same ops on the same tensor
    report = _run(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                score = head(x)
                loss = tf.reduce_mean(score) - tf.reduce_mean(score)  # CANCEL
            return tape.gradient(loss, head.trainable_variables)

        step()
        """)
    assert _found(report) == [("TM501", "zero-at-runtime", _line(tmp_path, "# CANCEL"), True)]
    assert set(report.findings[0].variables) == {"head/kernel", "head/bias"}


def test_two_calls_of_one_model_on_one_batch_cancel_eagerly_too(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        batch = tf.constant(x)
        with tf.GradientTape() as tape:
            gap = head(batch) - head(batch)  # CANCEL
            loss = tf.reduce_mean(tf.nn.softplus(gap))
        tape.gradient(loss, head.trainable_variables)
        """)
    assert _found(report) == [("TM501", "zero-at-runtime", _line(tmp_path, "# CANCEL"), True)]


def test_two_dropout_views_of_one_batch_are_no_cancellation(tmp_path: Path) -> None:
    # each Dropout call draws from the seed generator's next state: the views differ
    report = _run(tmp_path, """
        drop = tf.keras.layers.Dropout(0.3)

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                gap = head(drop(x, training=True)) - head(drop(x, training=True))
                loss = tf.reduce_mean(tf.square(gap)) + tf.reduce_mean(tf.square(head(x) - y))
            return tape.gradient(loss, head.trainable_variables)

        step()
        """)
    assert _found(report) == []
