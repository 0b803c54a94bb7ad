"""Facts by value under tf.distribute: a step's probes and the weights that never move.

A replica function runs on threads the strategy starts, and they belong to the check: the
in-graph probe of a traced step (``tracing/probes.py``: a dead ReLU's exact zeros) and the
move check (``tracing/moved.py``: TM118) run there as they run without a strategy. Each replica
traces the step's call into the one step graph, so the probe and the counts are built once per
graph; eagerly each replica runs the call once per step, and only one replica's runs count as
the intervals between steps (two replicas' runs of one step are no interval: nothing moved).

The programs model a part of a model that does not train in a custom loop under a strategy
(https://github.com/tensorflow/tensorflow/issues/48361): a dead ReLU layer, and an
``apply_gradients`` given part of the list in the replica function; their correct twins (a
live ReLU, the whole list) stay silent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from checked import run_program
from cli_runs import finish_run, line_in, loud_findings, run_two_workers, start_run

pytestmark = pytest.mark.tf

ONE_CPU = 'strategy = tf.distribute.MirroredStrategy(["/cpu:0"])\n'
TWO_CPUS = """\
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
"""
WORKERS = "strategy = tf.distribute.MultiWorkerMirroredStrategy()\n"

PROGRAM = """\
import numpy as np
import tensorflow as tf
{strategy}tf.keras.utils.set_random_seed(0)
x = tf.constant(np.random.default_rng(1).normal(size=(16, 4)).astype("float32"))
y = tf.constant(np.random.default_rng(2).normal(size=(16, 1)).astype("float32"))
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input((4,)),
        tf.keras.layers.Dense(8, activation="relu", name="h",
                              bias_initializer=tf.keras.initializers.Constant({bias})),  # dead
        tf.keras.layers.Dense(1, name="out"),
    ], name="net")
    part = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                tf.keras.layers.Dense(8, "tanh", name="hidden"),
                                tf.keras.layers.Dense(1, name="top")], name="part")
    opt = tf.keras.optimizers.SGD(0.1)
    opt2 = tf.keras.optimizers.Adam(0.01)
    opt.build(model.trainable_variables)
    opt2.build(part.trainable_variables)


@tf.function
def step(x, y):
    def replica(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        with tf.GradientTape() as tape:
            loss2 = tf.reduce_mean((part(x) - y) ** 2)
        grads = tape.gradient(loss2, part.trainable_variables)
        opt2.apply_gradients(zip(grads[:{applied}], part.trainable_variables[:{applied}]))
        return loss + loss2
    return strategy.run(replica, args=(x, y))


for _ in range(5):
    step(x, y)
"""


def program(strategy: str, broken: bool) -> str:
    return PROGRAM.format(strategy=strategy, bias=-50.0 if broken else 0.5,
                          applied=2 if broken else 4)


def expected(source: str) -> list[tuple[str, int, tuple[str, ...]]]:
    # the dead layer's finding sits at its constant initialiser and names the output kernel
    # that multiplies its zeros
    return [("TM501", line_in(source, "# dead"), ("net/h/kernel", "net/h/bias",
                                                  "net/out/kernel")),
            ("TM118", line_in(source, "opt2.apply_gradients"),
             ("part/top/kernel", "part/top/bias"))]


def _loud(report: Any) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(f.rule, f.location.line if f.location else 0, tuple(f.variables))
            for f in report.findings if f.severity != "info"]


def test_one_replica_step_is_checked_by_value(tmp_path: Path) -> None:
    """In this process (``%%gradcheck``'s case): a one-device strategy still runs replicas."""
    broken = program(ONE_CPU, True)
    done = run_program(tmp_path, broken, name="broken.py")
    assert _loud(done.report) == expected(broken)
    done = run_program(tmp_path, program(ONE_CPU, False), name="correct.py")
    assert done.report.findings == ()
    plain: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(program(ONE_CPU, False), str(tmp_path / "plain.py"), "exec"), plain)  # noqa: S102
    for name in ("model", "part"):  # the checked steps computed the same weights, to the bit
        before = [np.asarray(w) for w in plain[name].get_weights()]
        after = [np.asarray(w) for w in done.namespace[name].get_weights()]
        assert all(a.tobytes() == b.tobytes() for a, b in zip(before, after, strict=True))


@pytest.mark.slow
def test_two_replicas_graph_and_eager_agree(tmp_path: Path) -> None:
    runs = {(mode, broken): start_run(tmp_path, f"{mode}_{broken}", program(TWO_CPUS, broken),
                                      *(["--eager"] if mode == "eager" else []))
            for mode in ("graph", "eager") for broken in (True, False)}
    for (mode, broken), process in runs.items():
        status, report, out = finish_run(tmp_path, f"{mode}_{broken}", process)
        assert status == 0, out  # warnings only: the documented exit status
        assert any("ran on each of 2 replicas" in note for note in report["notes"]), mode
        want = expected(program(TWO_CPUS, True)) if broken else []
        assert loud_findings(report) == want, (mode, broken, out)


@pytest.mark.slow
def test_every_worker_checks_its_step_by_value(tmp_path: Path) -> None:
    source = program(WORKERS, True)
    for status, report, out in run_two_workers(tmp_path, source):
        assert status == 0, out
        assert loud_findings(report) == expected(source), out
