"""Benchmark (run by hand, never from the tests): what the in-graph check adds to a checked step.

    python bench/moved_cost.py [--pairs N] [--model mlp|conv|both]

For each of the first runs of an analysed gradient call (``tracing/moved.RUNS``), a traced step
carries the check's ops: TM118's record (``tracing/move_record.py``: in a ``tf.cond`` on a run
count, the trainable sources read and copied in one flat write per dtype, per gradient its
largest magnitude; per optimizer call a flag per weight it is given) and the probe's facts (``tracing/probes.py``: per
gradient a zero flag and a sum of squares, per weight a zero flag; its first run only). This
measures a checked step as a ratio: the same ``@tf.function`` train step (the models of
``bench/probe_cost.py``, batch 32, Adam) with both built in and run on every step (the run
count never reaches its limit), against the plain step, in alternating blocks of steps in
this one process; each cell is the median of per-pair ratios with min and max, of wall and of
process CPU time. The host's side of a checked step (``move_record.look``: one read of the
record, the comparison with the run before, after each call) runs after each call and is
counted in. Target: at most 1.02.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402
from probe_cost import cell, conv, data, mlp  # noqa: E402

from tapemagic.tracing import _tf_private as tfp  # noqa: E402
from tapemagic.tracing import move_record, probes  # noqa: E402

keras = tf.keras
STEPS = 16


class Checked:
    """The check's in-graph record and probe of one step, and the host's look after a call."""

    def __init__(self, model: keras.Model) -> None:
        variables = [v.value for v in model.trainable_variables]
        self.watch = move_record.Watch(
            None, list(range(len(variables))), variables,  # type: ignore[arg-type]
            tfp.host_variable(tf.fill([len(variables)], -1.0)),
            tally=move_record.Tally(len(variables)))
        self.variables = variables
        self.probe = tfp.host_variable(tf.fill([3 * len(variables)], -1.0))
        self.host = 0.0  # seconds of the host's looks

    def build(self, grads: list[tf.Tensor]) -> None:
        """The record and the probe's facts, in the step being traced, on every run."""
        move_record.count_traced(self.watch, grads, 1 << 30)
        self.probe.assign(probes._facts(grads, self.variables, []))  # noqa: SLF001

    def look(self) -> None:
        """What ``MoveWatch`` does after each eager call of a checked step (one host read)."""
        start = time.perf_counter()
        move_record.look(self.watch)
        self.host += time.perf_counter() - start


def make_step(model: keras.Model, checked: bool) -> tuple[object, Checked | None]:
    optimizer = keras.optimizers.Adam()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(True)
    check = Checked(model) if checked else None

    @tf.function
    def step(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        if check is not None:
            check.build(grads)
            check.watch.last = {i: id(g) for i, g in enumerate(grads)}
            move_record.note_applied(
                check.watch, [(i, g, v) for i, (g, v) in enumerate(
                    zip(grads, check.variables, strict=True))])
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        return loss

    def run(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        loss = step(x, y)
        if check is not None:
            check.look()
        return loss

    return run, check


def block(step: object, x: tf.Tensor, y: tf.Tensor) -> tuple[float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(STEPS):
        step(x[i * 32:(i + 1) * 32], y[i * 32:(i + 1) * 32])  # type: ignore[operator]
    return time.perf_counter() - start, time.process_time() - cpu


def measure(make: object, pairs: int) -> tuple[float, list[float], list[float]]:
    keras.utils.set_random_seed(0)
    plain_model, checked_model = make(), make()  # type: ignore[operator]
    xs, ys = data(plain_model)
    x, y = tf.constant(xs), tf.constant(ys)
    plain, _ = make_step(plain_model, False)
    checked, _ = make_step(checked_model, True)
    block(plain, x, y), block(checked, x, y)  # traced, warmed up
    wall, cpu, base = [], [], []
    for _ in range(pairs):
        a = block(plain, x, y)
        b = block(checked, x, y)
        wall.append(b[0] / a[0])
        cpu.append(b[1] / a[1])
        base.append(a[0] / STEPS)
    return statistics.median(base), wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--model", choices=("mlp", "conv", "both"), default="both")
    args = parser.parse_args()
    models = {"mlp": mlp, "conv": conv}
    names = list(models) if args.model == "both" else [args.model]
    print("| custom step, batch 32 | plain step | wall: checked / plain | CPU: checked / plain |")
    print("|---|---|---|---|")
    for name in names:
        base, wall, cpu = measure(models[name], max(3, args.pairs))
        print(f"| {name} | {base * 1e3:.1f} ms | {cell(wall)} | {cell(cpu)} |", flush=True)


if __name__ == "__main__":
    main()
