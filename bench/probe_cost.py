"""Benchmark (run by hand, never from the tests): what the in-graph probe adds to each step.

    python bench/probe_cost.py [--pairs N] [--model mlp|conv|both]

A checked ``fit`` keeps the probe's few ops (per gradient: an all-zero flag and a sum of
squares; per op on the weights' paths whose registered gradient reads its values, a ReLU or a
softmax, whether that gradient gives zeros: tracing/saturation.py; one variable write) in its
train function for the steps after the checked ones. This measures that steady-state cost as a
ratio: two identical models, one whose train function was traced inside
``tapemagic.gradcheck()`` (so it carries the probe) and one traced plainly, trained outside any
check in alternating epochs in this one process; each cell is the median of per-pair ratios
(probed / plain), with min and max, of wall and of process CPU time.
Target: at most 1.02.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tapemagic  # noqa: E402

keras = tf.keras


def mlp() -> keras.Model:
    return keras.Sequential([keras.layers.Input((64,)), keras.layers.Dense(256, "relu"),
                             keras.layers.Dense(256, "relu"), keras.layers.Dense(10)])


def conv() -> keras.Model:
    layers = [keras.layers.Input((32, 32, 3))]
    layers += [keras.layers.Conv2D(32, 3, padding="same", activation="relu") for _ in range(8)]
    return keras.Sequential([*layers, keras.layers.GlobalAveragePooling2D(),
                             keras.layers.Dense(10)])


def data(model: keras.Model) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    shape = (512, *model.input_shape[1:])
    return rng.normal(size=shape).astype("float32"), rng.integers(0, 10, size=(512,))


def build(make: type | object) -> keras.Model:
    model = make()  # type: ignore[operator]
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(True))
    return model


def epoch_seconds(model: keras.Model, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Return (wall, CPU) seconds of one epoch; CPU time counts this process's threads only,
    so it is steadier than wall time on a machine other work shares."""
    start, cpu = time.perf_counter(), time.process_time()
    model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    return time.perf_counter() - start, time.process_time() - cpu


def measure(make: object, pairs: int) -> tuple[float, list[float], list[float]]:
    tf.keras.utils.set_random_seed(0)
    plain, probed = build(make), build(make)
    x, y = data(plain)
    plain.fit(x, y, batch_size=32, epochs=1, verbose=0)  # traced plainly
    with tapemagic.gradcheck() as check:  # traced inside the check: carries the probe
        probed.fit(x, y, batch_size=32, epochs=1, verbose=0)
    assert check.report is not None and not check.report.findings
    wall, cpu, base = [], [], []
    for _ in range(pairs):
        a = epoch_seconds(plain, x, y)
        b = epoch_seconds(probed, x, y)
        wall.append(b[0] / a[0])
        cpu.append(b[1] / a[1])
        base.append(a[0])
    return statistics.median(base), wall, cpu


def cell(values: list[float]) -> str:
    return f"{statistics.median(values):.3f}× ({min(values):.3f}–{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--model", choices=("mlp", "conv", "both"), default="both")
    args = parser.parse_args()
    models = {"mlp": mlp, "conv": conv}
    names = list(models) if args.model == "both" else [args.model]
    print("| fit, 16 steps an epoch | plain epoch | wall: probed / plain | CPU: probed / plain |")
    print("|---|---|---|---|")
    for name in names:
        base, wall, cpu = measure(models[name], max(3, args.pairs))
        print(f"| {name} | {base * 1e3:.0f} ms | {cell(wall)} | {cell(cpu)} |", flush=True)


if __name__ == "__main__":
    main()
