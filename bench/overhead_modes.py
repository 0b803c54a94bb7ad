"""The modes and the timing loop of ``bench/overhead.py``: plain, traced and the anchors.

Each mode is a context manager a workload runs under; ``ratios`` runs plain and each mode
alternately and keeps the per-pair wall and CPU ratios (run by hand, never by tests).
"""

from __future__ import annotations

import contextlib
import gc
import os
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import overhead_auto  # noqa: E402
import tensorflow as tf  # noqa: E402

import tapemagic  # noqa: E402
from tapemagic.tracing import _tf_private as tfp  # noqa: E402


# -- modes ------------------------------------------------------------------------------------
@contextlib.contextmanager
def plain() -> Iterator[None]:
    yield


@contextlib.contextmanager
def traced(force_eager: bool) -> Iterator[None]:
    with tapemagic.gradcheck(force_eager=force_eager) as check:
        yield
    assert check.report is not None


@contextlib.contextmanager
def noop_callback() -> Iterator[None]:
    def callback(*args: object, **kwargs: object) -> None:
        return None

    tfp.add_op_callback(callback)
    try:
        yield
    finally:
        tfp.remove_op_callback(callback)


@contextlib.contextmanager
def dump_debug_info() -> Iterator[None]:
    with tempfile.TemporaryDirectory() as directory:
        tf.debugging.experimental.enable_dump_debug_info(directory, tensor_debug_mode="NO_TENSOR")
        try:
            yield
        finally:
            tf.debugging.experimental.disable_dump_debug_info()


@contextlib.contextmanager
def functions_eagerly() -> Iterator[None]:
    before = tf.config.functions_run_eagerly()
    tf.config.run_functions_eagerly(True)
    try:
        with warnings.catch_warnings():  # tf.data says it stays in graph mode: not news here
            warnings.simplefilter("ignore", UserWarning)
            yield
    finally:
        tf.config.run_functions_eagerly(before)


MODES: dict[str, Callable[[], contextlib.AbstractContextManager[None]]] = {
    "traced, forced eager": lambda: traced(True),
    "traced, graph mode": lambda: traced(False),
    "no-op op callback": noop_callback,
    "dump_debug_info NO_TENSOR": dump_debug_info,
    "run_functions_eagerly alone": functions_eagerly,
    "auto mode (%gradcheck on)": overhead_auto.auto_mode,
}
#: the modes whose CPU-time ratios get their own table
CPU_MODES = ("traced, graph mode", "auto mode (%gradcheck on)")
#: The modes measured on the cold rows (each run builds a ResNet50 or a Transformer).
COLD_MODES = ("traced, graph mode", "no-op op callback", "auto mode (%gradcheck on)")


def timed(fn: Callable[[], None], mode: Callable[[], contextlib.AbstractContextManager[None]],
          cpu: list[float] | None = None) -> float:
    """Return the wall seconds of one run of ``fn`` under ``mode`` (its CPU seconds to ``cpu``).

    The previous run's garbage is collected first, so no run pays for another's (a cold run
    leaves a whole ResNet50 behind, and a check keeps the heap frozen while it runs).
    """
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    with mode():
        fn()
    if cpu is not None:
        cpu.append(time.process_time() - start_cpu)
    return time.perf_counter() - start


#: per mode, the per-pair ratios of process CPU time (every thread's user + system time) of the
#: last ``ratios`` call: on a machine shared with other work, wall ratios swing with the load,
#: CPU ratios much less (what the check costs, not what the neighbours cost)
CPU_RATIOS: dict[str, list[float]] = {}


def ratios(fn: Callable[[], None], pairs: int, modes: dict[str, Callable[[], object]],
           ) -> tuple[float, dict[str, list[float]]]:
    """Return (median plain seconds, per-mode list of per-pair ratios); CPU ratios to CPU_RATIOS."""
    timed(fn, plain)  # warm-up: imports, first traces, self-test
    for mode in modes.values():
        timed(fn, mode)  # type: ignore[arg-type]
    plain_times: list[float] = []
    found: dict[str, list[float]] = {name: [] for name in modes}
    CPU_RATIOS.clear()
    for pair in range(pairs):
        for name, mode in modes.items():
            # every other pair runs the mode first: a drift between the first and the second
            # run of a pair (the heap, the allocator, a neighbour) then favours neither
            cpu: list[float] = []
            if pair % 2:
                checked = timed(fn, mode, cpu)  # type: ignore[arg-type]
                base = timed(fn, plain, cpu)
                cpu.reverse()
            else:
                base = timed(fn, plain, cpu)
                checked = timed(fn, mode, cpu)  # type: ignore[arg-type]
            plain_times.append(base)
            found[name].append(checked / base)
            CPU_RATIOS.setdefault(name, []).append(cpu[1] / cpu[0])
    return statistics.median(plain_times), found


def cell_text(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}× ({min(values):.2f}–{max(values):.2f})"
