"""No location in a report points at autograph's generated code (issue 33, 5.).

A replica function defined inside the ``@tf.function`` step (the shape of the multi-worker
tutorial, https://www.tensorflow.org/tutorials/distribute/multi_worker_with_ctl, and of
https://github.com/tensorflow/tensorflow/issues/35442) is converted along with the step, and
``tf.distribute`` runs it on its own threads: autograph's source map for it stays on the
tracing thread's stack. The report placed the cut and the gradient call (and the note that it
ran on each replica) in ``/tmp/__autograph_generated_file….py``. Now every location is the
user's file and line, in every worker of a ``MultiWorkerMirroredStrategy`` too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checked import run_program
from cli_runs import finish_run, line_in, loud_findings, run_two_workers, start_run

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf

GENERATED = "__autograph_generated_file"

REPLICA_INSIDE = """\
import tensorflow as tf
strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2, name="r1")],
                                name="inside")


@tf.function
def train(xb, yb):
    def replica(xb, yb):
        with tf.GradientTape() as tape:
            pred = tf.round(model(xb))
            loss = tf.reduce_mean((pred - yb) ** 2)
        return tape.gradient(loss, model.trainable_variables)
    return strategy.run(replica, args=(xb, yb))


train(tf.ones((4, 4)), tf.ones((4, 2)))
"""

# other graph-mode shapes whose code autograph converts: a nested helper, a py_function
# lambda, a Lambda layer trained by fit
OTHER_GRAPHS = """\
import numpy as np
import tensorflow as tf
w = tf.Variable(tf.ones((3, 1)), name="w")
v = tf.Variable(tf.ones((3, 1)), name="v")


@tf.function
def step(x):
    def helper(t):
        return tf.cast(tf.argmax(t, axis=-1), tf.float32)
    with tf.GradientTape() as tape:
        scaled = tf.py_function(lambda t: t * 2.0, [tf.matmul(x, v)], tf.float32)
        loss = tf.reduce_sum(helper(tf.matmul(x, w))) + tf.reduce_sum(scaled)
    return tape.gradient(loss, [w, v])


step(tf.ones((2, 3)))
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(2, name="f1"),
                             tf.keras.layers.Lambda(lambda t: tf.round(t)),
                             tf.keras.layers.Dense(2, name="f2")], name="lam")
model.compile(optimizer="sgd", loss="mse")
model.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), epochs=1, verbose=0)
"""


def _check(tmp_path: Path, name: str, source: str) -> tuple[Report, Path]:
    done = run_program(tmp_path, source, name=f"{name}.py")
    return done.report, done.path


def _files(node: Any) -> list[str]:
    """Return every ``file`` of a place anywhere in a report's JSON (graph nodes' too)."""
    if isinstance(node, dict):
        # a graph node with no place (a weight) has file None
        found = [str(node["file"])] if node.get("file") is not None and "line" in node else []
        return found + [f for value in node.values() for f in _files(value)]
    if isinstance(node, list):
        return [f for value in node for f in _files(value)]
    return []


def _assert_user_places(report: dict[str, Any], path: Path) -> None:
    files = _files(report)
    assert files, report
    assert set(files) == {str(path)}, files
    assert GENERATED not in json.dumps(report)  # notes, messages and labels too


def test_no_location_is_in_generated_code(tmp_path: Path) -> None:
    """One test: autograph caches conversions by code object, and code objects compare equal
    whatever their file (the same program run twice in one process shares one conversion)."""
    report, path = _check(tmp_path, "graphs", OTHER_GRAPHS)
    assert report.findings
    _assert_user_places(report.to_json(), path)
    report, path = _check(tmp_path, "inside", REPLICA_INSIDE)
    _assert_user_places(report.to_json(), path)
    found = [(f.rule, f.location.line, tuple(f.variables))
             for f in report.findings if f.location is not None]
    assert found == [("TM201", line_in(REPLICA_INSIDE, "tf.round(model(xb))"),
                      ("inside/r1/kernel", "inside/r1/bias"))]
    call = report.gradient_calls[0]
    assert call.location is not None
    assert call.location.line == line_in(REPLICA_INSIDE, "return tape.gradient")


TWO_REPLICAS = """\
import tensorflow as tf
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
""" + REPLICA_INSIDE.split("\n", 2)[2]

MULTI_WORKER_INSIDE = REPLICA_INSIDE.replace(
    'tf.distribute.MirroredStrategy(["/cpu:0"])', "tf.distribute.MultiWorkerMirroredStrategy()")


@pytest.mark.slow
def test_two_replicas_note_names_the_usersline_in(tmp_path: Path) -> None:
    status, report, out = finish_run(tmp_path, "two", start_run(tmp_path, "two", TWO_REPLICAS))
    assert status == 1, out
    _assert_user_places(report, tmp_path / "two.py")
    line = line_in(TWO_REPLICAS, "return tape.gradient")
    assert any(f"two.py:{line} ran on each of 2 replicas" in note
               for note in report["notes"]), report["notes"]
    assert loud_findings(report) == [("TM201", line_in(TWO_REPLICAS, "tf.round(model(xb))"),
                                ("inside/r1/kernel", "inside/r1/bias"))]


@pytest.mark.slow
def test_multi_worker_replica_function_inside_the_step(tmp_path: Path) -> None:
    results = run_two_workers(tmp_path, MULTI_WORKER_INSIDE)
    line = line_in(MULTI_WORKER_INSIDE, "tf.round(model(xb))")
    for index, (status, report, out) in enumerate(results):
        assert status == 1, out
        assert loud_findings(report) == [
            ("TM201", line, ("inside/r1/kernel", "inside/r1/bias"))], out
        _assert_user_places(report, tmp_path / f"worker{index}.py")
