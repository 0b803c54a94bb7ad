"""Benchmark (run by hand): how long a Ctrl-C takes to give the prompt back, plain vs %%gradcheck.

    python bench/ctrl_c_latency.py [delay_seconds ...]

Runs, in one IPython shell, a custom eager training loop and a Keras ``fit``; a thread sends
the interrupt (``_thread.interrupt_main``) after each delay. Prints seconds from the interrupt to
``run_cell`` returning, plain and traced, and their ratio. Most of the plain time is IPython
formatting the long TensorFlow traceback; under the magic the report is built only up to the
last analysed gradient call (tapemagic.api._until_last_gradient_call), so it stays small.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

LOOP = """\
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((32,))]
                         + [keras.layers.Dense(64, activation="relu") for _ in range(8)]
                         + [keras.layers.Dense(1)])
opt = keras.optimizers.Adam()
x, y = tf.random.normal((64, 32)), tf.random.normal((64, 1))
threading.Thread(target=fire, daemon=True).start()
for step in range(1_000_000):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
"""
FIT = """\
keras.utils.set_random_seed(0)
x = np.random.rand(4096, 32).astype("float32")
y = np.random.rand(4096, 1).astype("float32")
model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(64, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
threading.Thread(target=fire, daemon=True).start()
model.fit(x, y, epochs=10_000, batch_size=32, verbose=0)
"""
SETUP = """\
import _thread, threading, time
import numpy as np, tensorflow as tf, keras
stamp = []
def fire():
    time.sleep(DELAY)
    stamp.append(time.perf_counter())
    _thread.interrupt_main()
"""


def main() -> None:
    from IPython.testing import globalipapp

    delays = [float(a) for a in sys.argv[1:]] or [3.0, 10.0]
    shell = globalipapp.start_ipython()
    shell.run_line_magic("load_ext", "tapemagic")
    shell.run_cell(SETUP.replace("DELAY", "delay"))
    for name, body in (("eager loop", LOOP), ("fit", FIT)):
        for delay in delays:
            seconds = []
            for prefix in ("", "%%gradcheck\n"):
                shell.user_ns.update(delay=delay, stamp=[])
                result = shell.run_cell(prefix + body, store_history=True)
                end = time.perf_counter()
                assert isinstance(result.error_in_exec, KeyboardInterrupt), result
                seconds.append(end - shell.user_ns["stamp"][0])
            plain, traced = seconds
            print(f"{name:10s} interrupt after {delay:5.1f}s: plain {plain:5.2f}s, "
                  f"traced {traced:5.2f}s, ratio {traced / plain:4.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
