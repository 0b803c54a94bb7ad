"""Benchmark (run by hand, never from the tests): what TM118's move check adds to a checked step.

    python bench/moved_cost.py [--pairs N] [--model mlp|conv|both]

For each of the first runs of an analysed gradient call, ``tracing/moved.py`` adds a few ops
to the step (per trainable source: a read, an equality with its snapshot, a usable-gradient
flag, a snapshot write; per optimizer call, a flag per weight it is given). This measures
those ops as a ratio per step: the same ``@tf.function`` train step (the models of
``bench/probe_cost.py``, batch 32, Adam) with the check's counting ops built in and always
run (``RUNS`` raised so the ``tf.cond`` never skips them), against the plain step, in
alternating blocks of steps in this one process; each cell is the median of per-pair ratios
with min and max, of wall and of process CPU time. The steps after the checked ones pay only
the skipped ``tf.cond`` (see ``bench/probe_cost.py`` for that steady-state cost).
Target: at most 1.02.
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
from tapemagic.tracing import moved  # noqa: E402

keras = tf.keras
STEPS = 16


def make_step(model: keras.Model, checked: bool) -> tuple[object, keras.optimizers.Optimizer]:
    optimizer = keras.optimizers.Adam()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(True)
    variables = [v.value for v in model.trainable_variables]
    watch = moved._Watch(  # noqa: SLF001 - the check's own counting, outside a session
        None, list(range(len(variables))), variables,  # type: ignore[arg-type]
        [tfp.host_variable(tf.zeros(v.shape, v.dtype)) for v in variables],
        tfp.host_variable(tf.zeros([2 + 3 * len(variables)], tf.float32)),
        tfp.host_variable(tf.fill([len(variables)], -1.0)))

    @tf.function
    def step(x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        if checked:
            moved._count(watch, grads)  # noqa: SLF001
            moved._note_applied(  # noqa: SLF001
                watch, [(i, g, v) for i, (g, v) in enumerate(zip(grads, variables, strict=True))])
        optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        return loss

    return step, optimizer


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
    moved.RUNS = 1 << 30  # every step is a checked step
    models = {"mlp": mlp, "conv": conv}
    names = list(models) if args.model == "both" else [args.model]
    print("| custom step, batch 32 | plain step | wall: checked / plain | CPU: checked / plain |")
    print("|---|---|---|---|")
    for name in names:
        base, wall, cpu = measure(models[name], max(3, args.pairs))
        print(f"| {name} | {base * 1e3:.1f} ms | {cell(wall)} | {cell(cpu)} |", flush=True)


if __name__ == "__main__":
    main()
