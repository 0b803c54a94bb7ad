"""Benchmark (run by hand): the traced seed-004 cell against the plain cell, same process.

    python bench/seed004_overhead.py [repeats]

Prints wall-clock seconds (median of `repeats`) and the ratio traced / plain, plus the same for
a correct `fit` of the same model (many steps: the cost of tracing a whole epoch), and peak
RSS growth. The plain run uses tf.function as the user would; the traced run forces eager.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tapemagic  # noqa: E402

rng = np.random.default_rng(0)
x = rng.normal(size=(256, 20)).astype("float32")
y = rng.normal(size=(256, 30)).astype("float32")


def top10_loss(y_true, y_pred):  # the seed's loss: eval + argsort + sets
    ct = tf.keras.backend.eval(tf.nn.softmax(y_pred))
    top_pred = tf.argsort(ct, direction="DESCENDING")[:, :10]
    top_true = tf.argsort(y_true, direction="DESCENDING")[:, :10]
    overlap = tf.cast(tf.sets.size(tf.sets.intersection(top_pred, top_true)), tf.float32)
    return 1.0 - overlap / 10.0


def model(loss):
    m = tf.keras.Sequential([tf.keras.layers.Input((20,)),
                             tf.keras.layers.Dense(64, activation="relu"),
                             tf.keras.layers.Dense(30)])
    m.compile(optimizer="adam", loss=loss)
    return m


def broken(eager: bool) -> None:
    m = model(top10_loss)
    if eager:
        m.compile(optimizer="adam", loss=top10_loss, run_eagerly=True)
    try:
        m.fit(x, y, epochs=1, batch_size=32, verbose=0)
    except (ValueError, AttributeError):
        pass


def correct() -> None:
    model("mse").fit(x, y, epochs=2, batch_size=32, verbose=0)


def timed(fn, repeats: int, traced: bool) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        if traced:
            with tapemagic.gradcheck():
                fn()
        else:
            fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    broken(True), correct()  # warm up TF and Keras
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cases = (("seed004 broken fit", lambda: broken(False), lambda: broken(True)),
             ("correct fit, 16 steps", correct, None))
    for name, fn, eager_fn in cases:
        plain = timed(fn, repeats, traced=False)
        traced = timed(fn, repeats, traced=True)
        line = (f"{name:24s} plain {plain:7.3f} s  traced {traced:7.3f} s  "
                f"ratio {traced / plain:5.2f}")
        if eager_fn is not None:  # the same cell run eagerly by hand, as tapemagic runs it
            eager = timed(eager_fn, repeats, traced=False)
            line += f"  (plain run_eagerly {eager:.3f} s, ratio {traced / eager:.2f})"
        print(line)
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS growth over the benchmark: {(rss1 - rss0) / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
