"""tf.distribute: replica functions run on threads the strategy starts; they belong to the check.

Real strategies: ``MirroredStrategy`` over two logical CPU devices (set before TensorFlow starts,
so in a fresh ``python -m tapemagic run`` process), a one-device ``MirroredStrategy`` in this
process through ``%%gradcheck``, and ``MultiWorkerMirroredStrategy`` with two worker processes
on localhost (``TF_CONFIG``). Each program mixes broken and correct steps, so one process checks
both that the cut is found at its line and that correct code stays silent.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from cli_runs import finish_run, line_in, loud_findings, run_two_workers, start_run

pytestmark = pytest.mark.tf

TWO_CPUS = """\
import tensorflow as tf
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
"""

# A custom step in strategy.run (a cut, then a correct one), then fit under the scope with a
# loss that cuts: Keras raises "No gradients provided for any variable", as without tapemagic.
MIRRORED = TWO_CPUS + """\
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(8, name="d1"),
                                 tf.keras.layers.Dense(1, name="d2")], name="m")
    good = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="g1")],
                               name="good")
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(8))

def broken(xb, yb):
    with tf.GradientTape() as tape:
        pred = tf.round(model(xb))
        loss = tf.reduce_mean((pred - yb) ** 2)
    return tape.gradient(loss, model.trainable_variables)

def correct(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((good(xb) - yb) ** 2)
    return tape.gradient(loss, good.trainable_variables)

@tf.function
def train(xb, yb):
    strategy.run(broken, args=(xb, yb))
    return strategy.run(correct, args=(xb, yb))

for xb, yb in ds:
    train(xb, yb)

def argmax_loss(y_true, y_pred):
    return tf.reduce_mean(tf.cast(tf.argmax(y_pred, -1), tf.float32) - y_true[:, 0])

with strategy.scope():
    fitted = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="f1")],
                                 name="fitted")
    fitted.compile(optimizer="adam", loss=argmax_loss)
fitted.fit(x, y, batch_size=4, epochs=1, verbose=0)
"""

# A tape in the cross-replica context around strategy.run, and an integer variable as a source.
CROSS_REPLICA = """\
import tensorflow as tf
strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="c1")],
                                name="cross")
    w = tf.Variable(tf.ones((4, 1)), name="w")
    step_count = tf.Variable(0, name="step_count")
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))

def forward(xb, yb):
    return tf.reduce_mean((model(xb) - yb) ** 2)

with tf.GradientTape() as tape:
    per_replica = strategy.run(forward, args=(x, y))
    loss = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
grads = tape.gradient(loss, model.trainable_variables)

def counted(xb, yb):
    with tf.GradientTape() as tape:
        scale = tf.cast(step_count + 1, tf.float32)
        loss = tf.reduce_mean((tf.matmul(xb, w) * scale - yb) ** 2)
    return tape.gradient(loss, [w, step_count])

@tf.function
def train(xb, yb):
    return strategy.run(counted, args=(xb, yb))

train(x, y)
"""

MULTI_WORKER = """\
import tensorflow as tf
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="d1")],
                                name="mw")
x = tf.random.normal((16, 4), seed=1)
y = tf.zeros((16,), tf.int64)
ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(8))

def step(xb, yb):
    with tf.GradientTape() as tape:
        pred = tf.argmax(model(xb), axis=-1)
        loss = tf.reduce_mean(tf.cast(tf.abs(pred - yb), tf.float32))
    return tape.gradient(loss, model.trainable_variables)

@tf.function
def train(xb, yb):
    return strategy.run(step, args=(xb, yb))

for xb, yb in ds:
    train(xb, yb)
"""


def _verdicts(report: dict[str, Any], prefix: str) -> set[str]:
    return {s["verdict"] for call in report["gradient_calls"] for s in call["sources"]
            if s["variable"].startswith(prefix)}


@pytest.fixture(scope="module")
def mirrored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, dict, str]]:
    """Both modes of the two-CPU program, run side by side."""
    tmp = tmp_path_factory.mktemp("mirrored")
    running = {"graph": start_run(tmp, "graph", MIRRORED),
               "eager": start_run(tmp, "eager", MIRRORED, "--eager")}
    return {mode: finish_run(tmp, mode, process) for mode, process in running.items()}


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_mirrored_custom_step_and_fit_are_checked(mirrored: dict, mode: str) -> None:
    status, report, out = mirrored[mode]
    assert status == 1, out  # the script raised (Keras' "No gradients provided"), as plain
    assert "No gradients provided for any variable" in report["exception"]["message"]
    errors = loud_findings(report)
    weights = ("m/d1/kernel", "m/d1/bias", "m/d2/kernel", "m/d2/bias")
    assert ("TM201", line_in(MIRRORED, "tf.round(model(xb))"), weights) in errors, errors
    assert ("TM201", line_in(MIRRORED, "tf.argmax(y_pred"), ("fitted/f1/kernel",
                                                          "fitted/f1/bias")) in errors, errors
    assert len(errors) == 2, errors  # nothing for the correct step
    assert _verdicts(report, "good/") == {"connected"}
    assert "nothing to check" not in report["headline"]


@pytest.mark.slow
def test_tape_around_strategy_run_and_integer_source(tmp_path: Path) -> None:
    status, report, out = finish_run(tmp_path, "cross", start_run(tmp_path, "cross", CROSS_REPLICA))
    assert status == 1, out
    tm103 = [f for f in report["findings"] if f["rule"] == "TM103"]
    assert [f["location"]["line"] for f in tm103] == [line_in(CROSS_REPLICA,
                                                              "with tf.GradientTape")]
    assert "strategy.run" in tm103[0]["message"] and "replica" in tm103[0]["message"]
    assert tm103[0]["variables"] == ["cross/c1/kernel", "cross/c1/bias"]
    assert ("TM202", line_in(CROSS_REPLICA, "step_count = tf.Variable"),
            ("step_count",)) in loud_findings(report)
    assert len(loud_findings(report)) == 2, loud_findings(report)
    assert _verdicts(report, "w") == {"connected"}


@pytest.mark.slow
def test_multi_worker_each_worker_finds_the_cut(tmp_path: Path) -> None:
    results = run_two_workers(tmp_path, MULTI_WORKER)
    line = line_in(MULTI_WORKER, "tf.argmax(model(xb)")
    for status, report, out in results:
        assert status == 1, out  # an error finding: the documented exit status
        assert loud_findings(report) == [("TM201", line, ("mw/d1/kernel", "mw/d1/bias"))], out
    chief, other = (r[1] for r in results)
    assert loud_findings(chief) == loud_findings(other)
    assert chief["headline"] == other["headline"]


def test_replica_threads_in_a_notebook_cell(run_cell: Any, patch_state: Any) -> None:
    """Through ``%%gradcheck`` in this process: a one-device strategy, eager ``strategy.run``."""
    run = run_cell(textwrap.dedent("""\
        %%gradcheck dist_report
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
        with strategy.scope():
            dense = tf.keras.layers.Dense(1, name="dist_dense")
            dense.build((None, 3))
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.cast(tf.cast(dense(x), tf.int32), tf.float32))
            return tape.gradient(loss, dense.trainable_variables)
        strategy.run(step, args=(tf.ones((2, 3)),))
        """))
    assert run.error is None, run.error
    report = run_cell("dist_report").value
    assert report.codes == ["TM202"]
    assert patch_state() == []
