"""Values the tape that records the loss never saw, placed at the line the user changes.

A ``tf.GradientTape()`` made and never entered records nothing (its gradient call raises): the
construction is the line to change, not the forward pass that ran beside it. A lazy ``map``
built inside the tape and consumed after its block runs the model after the tape closed: the
``map`` is the line to change. Correct look-alikes stay silent: a tape made on one line and
entered on the next, a ``map`` consumed inside the block, a ``map`` of data only. Real
TensorFlow, eager.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from checked import loud

pytestmark = pytest.mark.tf

MODEL = """
import numpy as np
import tensorflow as tf
rng = np.random.default_rng(0)
x = tf.constant(rng.normal(size=(8, 3)), tf.float32)
y = tf.constant(rng.normal(size=(8, 1)), tf.float32)
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="h"),
                             tf.keras.layers.Dense(1, name="o")])
"""

Run = Callable[..., Any]


def test_a_tape_never_entered_is_placed_at_its_construction(run_checked: Run) -> None:
    checked = run_checked("""
        tape = tf.GradientTape()  # <-
        loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        """, prefix=MODEL, catch=RuntimeError)
    report, marked = checked[0], checked[1]
    assert loud(report) == [("TM103", marked[0])]
    finding = report.findings[0]
    assert "never entered" in finding.message
    assert len(finding.variables) == 4


@pytest.mark.parametrize("body", [
    """
    tape = tf.GradientTape()
    with tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    """,
    """
    tape = tf.GradientTape()
    tape.__enter__()
    loss = tf.reduce_mean(tf.square(model(x) - y))
    tape.__exit__(None, None, None)
    grads = tape.gradient(loss, model.trainable_variables)
    """,
])
def test_a_tape_made_apart_and_entered_stays_silent(run_checked: Run, body: str) -> None:
    report = run_checked(body, prefix=MODEL)[0]
    assert loud(report) == []


CHUNKS = MODEL + """
chunks = [x[:4], x[4:]]
wanted = [y[:4], y[4:]]
"""


@pytest.mark.parametrize("lazy", ["map(model, chunks)", "(model(c) for c in chunks)"])
def test_a_lazy_forward_pass_consumed_after_the_tape_is_placed_where_it_was_built(
        run_checked: Run, lazy: str) -> None:
    checked = run_checked(f"""
        with tf.GradientTape() as tape:
            predictions = {lazy}  # <-
        loss = tf.add_n([tf.reduce_mean(tf.square(p - t)) for p, t in zip(predictions, wanted)])
        grads = tape.gradient(loss, model.trainable_variables)
        """, prefix=CHUNKS)
    report, marked = checked[0], checked[1]
    assert loud(report) == [("TM103", marked[0])]
    assert len(report.findings[0].variables) == 4


def test_a_loss_after_the_tape_beside_a_lazy_map_of_data_stays_at_the_loss(
        run_checked: Run) -> None:
    checked = run_checked("""
        with tf.GradientTape() as tape:
            predictions = [model(c) for c in chunks]
            targets = map(tf.identity, wanted)
        loss = tf.add_n([tf.square(p - t) for p, t in zip(predictions, targets)])  # <-
        grads = tape.gradient(loss, model.trainable_variables)
        """, prefix=CHUNKS)
    report, marked = checked[0], checked[1]
    assert loud(report) == [("TM103", marked[0])]


@pytest.mark.parametrize("lazy", ["map(model, chunks)", "(model(c) for c in chunks)"])
def test_a_lazy_forward_pass_consumed_inside_the_tape_stays_silent(run_checked: Run,
                                                                  lazy: str) -> None:
    report = run_checked(f"""
        with tf.GradientTape() as tape:
            predictions = {lazy}
            loss = tf.add_n([tf.reduce_mean(tf.square(p - t))
                             for p, t in zip(predictions, wanted)])
            scores = map(tf.reduce_mean, wanted)
        seen = [float(s) for s in scores]
        grads = tape.gradient(loss, model.trainable_variables)
        """, prefix=CHUNKS)[0]
    assert loud(report) == []
