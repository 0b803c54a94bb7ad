"""Cuts a reader can see in the source, hinted at the line to change; correct twins stay silent.

TF-free: sources are parsed, never run (issue 17 sections 3 and 5): a persistent tape's inner
gradient and the loss built from it after the block, token ids watched for a saliency map,
the loss differentiated with respect to another copy of the model, a Grad-CAM score from a
second forward pass. The broken snippets stand in tests/lint_recall_cases.py, their correct
twins in tests/lint_recall_twins.py.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source
from tests.lint_recall_cases import BAD
from tests.lint_recall_twins import GOOD

HEAD = """\
import tensorflow as tf
import keras
net = keras.Sequential([keras.Input((1,)), keras.layers.Dense(8, activation="tanh"),
                        keras.layers.Dense(1)])
x = tf.ones((4, 1))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body)
    compile(source, "<test>", "exec")  # a test source that does not parse would pass silently
    return [(h.code, h.line - OFFSET) for h in check_source(source)]


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_correct_twin_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []


def test_a_watch_that_raises_is_one_hint_at_the_watch() -> None:
    """`tape.watch(model.inputs)` raises: TM108 there, not TM102 at the tape and the tensor."""
    source = textwrap.dedent("""\
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            tape.watch(model.inputs)
            loss = tf.reduce_sum(model(x))
        saliency = tape.gradient(loss, x)
        """)
    assert [(h.code, h.line) for h in check_source(source)] == [("TM108", 5)]


METRIC_STEP = """\
import tensorflow as tf
w = tf.Variable([1.0, 2.0])
y = tf.constant([1.0, 0.0])
with tf.GradientTape() as tape:
    p = tf.sigmoid(w)
    acc = tf.keras.metrics.binary_accuracy(y, p)
    loss = {loss}
g = tape.gradient(loss, [w])
"""


def test_an_accuracy_metric_in_the_loss_is_hinted_and_one_beside_it_is_not() -> None:
    broken = check_source(METRIC_STEP.format(loss="1.0 - acc"))
    assert [(h.code, h.line) for h in broken] == [("TM201", 6)]
    assert check_source(METRIC_STEP.format(loss="tf.reduce_mean((p - y) ** 2)")) == []


SCAN_STEP = """\
import tensorflow as tf
w = tf.Variable(0.5)
xs = tf.ones((4,))
def step(h, x):
    return {body}
with tf.GradientTape() as tape:
    hs = tf.scan(step, xs, initializer=tf.constant(0.0))
    loss = tf.reduce_sum(hs)
g = tape.gradient(loss, [w])
"""


def test_a_cut_inside_a_scan_function_is_hinted_and_a_correct_one_is_not() -> None:
    broken = check_source(SCAN_STEP.format(body="tf.floor(w * h + x)"))
    assert [(h.code, h.line) for h in broken] == [("TM201", 5)]
    assert check_source(SCAN_STEP.format(body="tf.tanh(w * h + x)")) == []
