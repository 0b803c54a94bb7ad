"""Cuts behind the first one: kept when the user must fix them too, else left out (real TF).

``graph/refine.behind``: a Keras layer's own op on an integer input behind the user's cut is
not one more to fix (an Embedding after an argmax, modelled on
https://github.com/keras-team/keras/issues/11157); a user op that would still cut once the
first is fixed stays (``tf.sets`` after ``tf.argsort``: seed 004); when the first cut only
indexes (a Keras metric object used as the loss, modelled on
https://github.com/Golbstein/KerasExtras/issues/1), the first cut kept is the primary one.
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
import keras
keras.utils.set_random_seed(0)
x = np.random.rand(32, 6).astype("float32")
y = np.random.rand(32, 1).astype("float32")
"""


def _run(tmp_path: Path, body: str) -> Any:
    path = tmp_path / "cell.py"
    path.write_text(SETUP + textwrap.dedent(body))
    with tapemagic.gradcheck() as check:
        try:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
        except ValueError:
            pass  # "No gradients provided": the finding says why
    report = check.report
    validate_report(report.to_json())
    return report


def _line(tmp_path: Path, needle: str) -> int:
    lines = (tmp_path / "cell.py").read_text().splitlines()
    return next(i for i, text in enumerate(lines, start=1) if needle in text)


def test_an_embedding_behind_the_users_argmax_is_no_second_cut(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        inputs = keras.Input((6,))
        scores = keras.layers.Dense(12, activation="softmax", name="scores")(inputs)
        token = keras.layers.Lambda(lambda p: tf.argmax(p, axis=-1))(scores)  # ARGMAX
        vector = keras.layers.Embedding(12, 4, name="table")(token)
        model = keras.Model(inputs, keras.layers.Dense(1, name="out")(vector))
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, epochs=1, batch_size=16, verbose=0)
        """)
    found = [(f.rule, f.location.line if f.location else 0, f.primary) for f in report.findings]
    assert found == [("TM201", _line(tmp_path, "# ARGMAX"), True)]


def test_a_keras_metric_object_as_the_loss_has_a_primary_finding(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1, activation="sigmoid")])
        metric = keras.metrics.BinaryIoU(target_class_ids=[1], threshold=0.5)
        labels = (y > 0.5).astype("float32")

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                metric.reset_state()
                metric.update_state(labels, model(x))  # UPDATE
                loss = 1.0 - metric.result()
            return tape.gradient(loss, model.trainable_variables)

        step()
        """)
    primary = [(f.rule, f.location.line if f.location else 0) for f in report.findings
               if f.primary]
    assert primary == [("TM402", _line(tmp_path, "# UPDATE"))]
    assert len(report.findings[0].variables) == 2


def test_a_user_op_that_would_still_cut_stays_behind_the_first(tmp_path: Path) -> None:
    report = _run(tmp_path, """
        model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(5)])
        truth = tf.argsort(tf.constant(np.random.rand(32, 5).astype("float32")))[:, :2]

        with tf.GradientTape() as tape:
            top = tf.argsort(model(x), direction="DESCENDING")[:, :2]  # ARGSORT
            common = tf.sets.intersection(top, truth)  # SETS
            loss = 1.0 - tf.cast(tf.reduce_sum(tf.sets.size(common)), tf.float32)
        grads = tape.gradient(loss, model.trainable_variables)
        """)
    found = {(f.rule, f.location.line if f.location else 0, f.primary) for f in report.findings}
    assert ("TM202", _line(tmp_path, "# ARGSORT"), True) in found
    assert ("TM201", _line(tmp_path, "# SETS"), False) in found


def test_a_comparison_the_gradient_goes_around_is_no_second_cut(tmp_path: Path) -> None:
    # the binary cross-entropy's comparison reads the output the last Dense trains through
    report = _run(tmp_path, """
        model = keras.Sequential([
            keras.Input((6,)), keras.layers.Dense(2, name="proj"),
            keras.layers.Discretization(bin_boundaries=[0.0, 0.5], output_mode="one_hot"),  # BINS
            keras.layers.Flatten(), keras.layers.Dense(1, activation="sigmoid", name="out")])
        model.compile(optimizer="adam", loss="binary_crossentropy")
        model.fit(x, (y > 0.5).astype("float32"), epochs=1, batch_size=16, verbose=0)
        """)
    found = [(f.rule, f.location.line if f.location else 0) for f in report.findings]
    assert found == [("TM201", _line(tmp_path, "# BINS"))]
