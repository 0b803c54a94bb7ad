"""Benchmark (run by hand, never from the tests): how fast tapemagic starts, in fresh processes.

    python bench/startup.py [--runs 5]

Each figure is the median (min–max) wall time of ``--runs`` fresh interpreters, measured from
outside (``subprocess.run``), so it includes the interpreter's own start-up, as a user waits
for it, and the median CPU time (user + system) of the same processes, which a loaded machine
inflates far less than the wall time (the load average is printed with the table). Rows:
``python -c pass`` (the floor), ``import tapemagic``, ``%load_ext tapemagic`` in a
kernel-less IPython shell (IPython's own import shown apart), and ``python -m tapemagic lint``
on one small file. Targets (issue 16): ``import tapemagic`` ≤ 0.2 s, lint ≤ 0.3 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

_FILE = """\
import tensorflow as tf

w = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.round(w * 3.0))
grads = tape.gradient(loss, [w])
"""
_LOAD_EXT = ("from IPython.core.interactiveshell import InteractiveShell\n"
             "InteractiveShell.instance().run_line_magic('load_ext', 'tapemagic')\n")
_IPYTHON = ("from IPython.core.interactiveshell import InteractiveShell\n"
            "InteractiveShell.instance()\n")


def wall(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Return the wall and CPU times of ``runs`` fresh runs of ``argv`` (seconds)."""
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as directory:
        script = os.path.join(directory, "one_file.py")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(_FILE)
        rows = [
            ("python -c pass", [python, "-c", "pass"], None),
            ("import tapemagic", [python, "-c", "import tapemagic"], 0.2),
            ("IPython shell alone", [python, "-c", _IPYTHON], None),
            ("IPython shell + %load_ext tapemagic", [python, "-c", _LOAD_EXT], None),
            ("python -m tapemagic lint one_file.py", [python, "-m", "tapemagic", "lint", script],
             0.3),
        ]
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"| {args.runs} fresh processes each | wall, median | min–max | CPU, median "
              "| target (wall) |")
        print("|---|---|---|---|---|")
        for label, argv, target in rows:
            times, cpu = wall(argv, args.runs)
            print(f"| {label} | {statistics.median(times):.2f} s | {min(times):.2f}–"
                  f"{max(times):.2f} s | {statistics.median(cpu):.2f} s | "
                  f"{f'≤ {target} s' if target else ''} |", flush=True)
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
