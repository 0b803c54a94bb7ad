"""tf.distribute: MirroredStrategy on two logical CPU devices, checked through the CLI.

A logical device configuration can only be set before TensorFlow's runtime starts, so every
program runs in its own process (``python -m tapemagic run --json``), one at a time (the
machine is shared). The replica functions run on threads the strategy starts; the check must
record them (issue 17, section 1): a custom step in ``strategy.run`` and ``fit`` under
``strategy.scope()`` get the cut at its line, in graph mode and with ``--eager``; a tape opened
in the cross-replica context around ``strategy.run`` is TM103 at the tape line; an int32
``tf.Variable`` among a replica step's sources is placed at its creation line; a correct
distributed loop gets no finding.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf
REPO = Path(__file__).resolve().parent.parent

PRELUDE = """\
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
x = np.linspace(-1.0, 1.0, 64, dtype="float32").reshape(16, 4)
y = np.cos(x[:, :1])
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x, y)).batch(8))
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="h"),
                                 tf.keras.layers.Dense(1, name="o")], name="net")
    optimizer = tf.keras.optimizers.SGD(0.1)
"""  # 15 lines: the scripts below start at line 16

STEP = """\
def replica_step(features, labels):
    with tf.GradientTape() as tape:
        pred = model(features, training=True)
        loss = tf.reduce_mean(tf.abs({pred} - labels))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


@tf.function
def train_step(features, labels):
    per_replica = strategy.run(replica_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)


before = [w.numpy().copy() for w in model.trainable_weights]
for features, labels in dataset:
    train_step(features, labels)
print("changed", all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights)))
"""

SCRIPTS = {
    # line 19: the rounded prediction
    "rounded": STEP.format(pred="tf.round(pred)"),
    "clean": STEP.format(pred="pred"),
    # line 18: the tape, opened around strategy.run in the cross-replica context
    "tape_around_run": """\
@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        per_replica = strategy.run(lambda a, b: tf.reduce_mean(tf.square(model(a) - b)),
                                   args=(features, labels))
        loss = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)
    return tape.gradient(loss, model.trainable_variables)


for features, labels in dataset:
    print(train_step(features, labels))
""",
    # line 17: the int32 variable
    "int_source": """\
with strategy.scope():
    scale = tf.Variable(2, name="scale")


def replica_step(features, labels):
    with tf.GradientTape() as tape:
        pred = model(features) * tf.cast(scale, tf.float32)
        loss = tf.reduce_mean(tf.square(pred - labels))
    return tape.gradient(loss, model.trainable_variables + [scale])


@tf.function
def train_step(features, labels):
    return strategy.run(replica_step, args=(features, labels))


for features, labels in dataset:
    train_step(features, labels)
""",
    # line 17: the thresholded prediction inside the custom loss; Keras raises
    "fit_threshold": """\
def hard_loss(y_true, y_pred):
    decided = tf.cast(y_pred > 0.0, tf.float32)
    return tf.reduce_mean(tf.abs(y_true - decided))


with strategy.scope():
    model.compile(optimizer="sgd", loss=hard_loss)
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
""",
}


def _run(name: str, tmp: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    script = tmp / f"{name}.py"
    script.write_text(PRELUDE + textwrap.dedent(SCRIPTS[name]), encoding="utf-8")
    out = tmp / f"{name}{'-'.join(options)}.json"
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", *options, "--json",
                           str(out), str(script)], cwd=tmp, env=env, text=True,
                          encoding="utf-8", capture_output=True, timeout=300, check=False)
    payload = json.loads(out.read_text(encoding="utf-8"))
    validate_report(payload)
    return done, payload


def _serious(payload: Any) -> list[tuple[str, int]]:
    return [(f["rule"], f["location"]["line"]) for f in payload["findings"]
            if f["severity"] in ("error", "warning")]


@pytest.mark.parametrize("options", [(), ("--eager",)], ids=["graph", "eager"])
def test_cut_in_a_replica_step_is_found_at_its_line(tmp_path: Path,
                                                    options: tuple[str, ...]) -> None:
    done, payload = _run("rounded", tmp_path, *options)
    assert done.returncode == 1, done.stderr
    assert ("TM201", 19) in _serious(payload), payload["findings"]
    primary = [f for f in payload["findings"] if f["primary"]]
    assert [f["location"]["line"] for f in primary] == [19]
    assert {"net/h/kernel", "net/o/kernel"} <= set(primary[0]["variables"])


def test_correct_distributed_loop_is_silent_and_trains(tmp_path: Path) -> None:
    done, payload = _run("clean", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "changed True" in done.stdout
    assert _serious(payload) == []
    assert payload["exception"] is None


def test_tape_around_strategy_run_is_outside_tape_at_the_tape_line(tmp_path: Path) -> None:
    _, payload = _run("tape_around_run", tmp_path)
    assert [f["location"]["line"] for f in payload["findings"] if f["primary"]] == [18]
    assert ("TM103", 18) in _serious(payload)


def test_integer_variable_among_replica_sources_is_placed_at_its_creation(
        tmp_path: Path) -> None:
    _, payload = _run("int_source", tmp_path)
    primary = [f for f in payload["findings"] if f["primary"]]
    assert [(f["rule"], f["location"]["line"]) for f in primary] == [("TM202", 17)]


def test_fit_under_strategy_scope_names_the_cut_not_nothing_ran(tmp_path: Path) -> None:
    done, payload = _run("fit_threshold", tmp_path)
    assert done.returncode == 1
    assert payload["exception"]["type"] == "ValueError"  # Keras: no gradients provided
    assert [f["location"]["line"] for f in payload["findings"] if f["primary"]] == [17]
    # the replica thread's stack ends in TensorFlow: the step is placed at the fit call, as
    # without a strategy, and no graph node has line 0 (the schema's minimum is 1)
    assert [c["location"]["line"] for c in payload["gradient_calls"]] == [23]
