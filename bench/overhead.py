"""Benchmark (run by hand, never from the tests): what tracing costs, as ratios to the plain run.

    python bench/overhead.py [--pairs N] [--quick] [--only LABEL] [--no-cold] [--cold-pairs N]
                              [--mode LABEL] [--checked-step] [--out FILE]

Each workload runs plain and traced alternately in this one process (``--pairs`` pairs, at least
5): ``tapemagic.gradcheck(force_eager=True)`` (forced eager) and ``force_eager=False`` (the
cell's own graph mode), plus three anchors on the same workload: a bare no-op op callback,
``tf.debugging.experimental.enable_dump_debug_info(dir, tensor_debug_mode="NO_TENSOR")`` and
``tf.config.run_functions_eagerly(True)`` alone; and auto mode and the cold rows (graph mode
and auto only), from bench/overhead_auto.py. A traced run includes the report (analysis,
findings, graph, DOT), as the user waits for it. Each cell of the table is the median of the
per-pair ratios (traced / the plain run just before it), with their min and max. The fixed cost
of the first check in a fresh process and the extra peak memory are measured in subprocesses.
``--checked-step`` adds the cost of one checked step of a traced train step (the in-graph
record of TM118 and the probe's facts, and the host's read after the call, run on every step:
``bench/moved_cost.py``), as a ratio to the plain step (target ≤ 1.02).
The Markdown table is printed and written to ``--out``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tapemagic  # noqa: E402
from tapemagic.engine import build_report  # noqa: E402
from tapemagic.locations import CellMap  # noqa: E402
from tapemagic.report.model import CellInfo  # noqa: E402
from tapemagic.tracing import _tf_private as tfp  # noqa: E402
from tapemagic.tracing import keras_state  # noqa: E402
from tapemagic.tracing.session import TraceSession  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import overhead_auto  # noqa: E402

keras = tf.keras
RNG = np.random.default_rng(0)


# -- workloads (each call is one "cell": it builds what it needs, like the user's cell) -------
def mlp_loop(steps: int = 50, batch: int = 256) -> None:
    """A 3-layer MLP trained by a custom eager loop."""
    x = tf.constant(RNG.normal(size=(batch, 64)).astype("float32"))
    y = tf.constant(RNG.integers(0, 10, size=(batch,)))
    model = keras.Sequential([keras.layers.Input((64,)), keras.layers.Dense(256, "relu"),
                              keras.layers.Dense(256, "relu"), keras.layers.Dense(10)])
    opt = keras.optimizers.Adam()
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))


def conv_loop(steps: int = 10, layers: int = 12) -> None:
    """A 12-layer conv net trained by a custom eager loop."""
    x = tf.constant(RNG.normal(size=(32, 32, 32, 3)).astype("float32"))
    y = tf.constant(RNG.integers(0, 10, size=(32,)))
    stack = [keras.layers.Input((32, 32, 3))]
    stack += [keras.layers.Conv2D(16, 3, padding="same", activation="relu")
              for _ in range(layers)]
    model = keras.Sequential([*stack, keras.layers.GlobalAveragePooling2D(),
                              keras.layers.Dense(10)])
    opt = keras.optimizers.SGD(0.01)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))


FIT_X = RNG.normal(size=(640, 20)).astype("float32")
FIT_Y = RNG.normal(size=(640, 1)).astype("float32")


def fit_small() -> None:
    """``fit`` of a small model over 20 batches (one epoch)."""
    model = keras.Sequential([keras.layers.Input((20,)), keras.layers.Dense(32, "relu"),
                              keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(FIT_X, FIT_Y, batch_size=32, epochs=1, verbose=0)


def function_steps(steps: int = 50) -> None:
    """A ``tf.function`` train step called 50 times."""
    x = tf.constant(RNG.normal(size=(128, 32)).astype("float32"))
    y = tf.constant(RNG.normal(size=(128, 1)).astype("float32"))
    w1 = tf.Variable(tf.random.normal((32, 64), seed=1))
    w2 = tf.Variable(tf.random.normal((64, 1), seed=2))
    opt = keras.optimizers.SGD(0.01)

    @tf.function
    def step() -> tf.Tensor:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.nn.relu(x @ w1) @ w2 - y) ** 2)
        grads = tape.gradient(loss, [w1, w2])
        opt.apply_gradients(zip(grads, [w1, w2], strict=True))
        return loss

    for _ in range(steps):
        step()


STEP_WEIGHTS = [tf.Variable(tf.random.normal((16, 16), stddev=0.1, seed=i)) for i in range(560)]


def big_step() -> None:
    """One training step of about 10,000 ops (a deep stack of small dense layers)."""
    x = tf.constant(RNG.normal(size=(8, 16)).astype("float32"))
    with tf.GradientTape() as tape:
        h = x
        for w in STEP_WEIGHTS:  # ~6 forward ops per layer, the backward pass adds about as many
            h = tf.tanh(h @ w + 0.1) * 0.9 + h * 0.1
        loss = tf.reduce_mean(h * h)
    tape.gradient(loss, STEP_WEIGHTS)


def lines_cell(n: int) -> Callable[[], None]:
    """A cell of ``n`` lines of ops under one tape (compiled and run like a notebook cell)."""
    body = "\n".join("    " + ("x = x * 1.0001", "x = x + 0.001", "x = tf.tanh(x)",
                               "x = x - 0.0001")[i % 4] for i in range(n))
    source = (f"w = tf.Variable(tf.ones((4,)))\nwith tf.GradientTape() as tape:\n"
              f"    x = w * 1.0\n{body}\n    loss = tf.reduce_sum(x)\n"
              f"g = tape.gradient(loss, [w])\n")
    filename = f"<bench-cell-{n}>"
    import linecache

    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)

    def run() -> None:
        exec(compile(source, filename, "exec"), {"tf": tf})  # noqa: S102 - our own source

    run.__doc__ = f"A cell of {n:,} lines of ops under one tape."
    return run


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
#: The modes measured on the cold rows (each run builds a ResNet50 or a Transformer).
#: the modes whose CPU-time ratios get their own table
CPU_MODES = ("traced, graph mode", "auto mode (%gradcheck on)")
COLD_MODES = ("traced, graph mode", "no-op op callback", "auto mode (%gradcheck on)")
TARGETS = {"MLP custom loop": 1.15, "12-layer conv net": 1.2, "fit, 20 batches": 1.3,
           "tf.function step x 50": 1.2, "cell of 5,000 lines": 2.0}


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


def split_step(pairs: int) -> str:
    """Tracing and analysis + report of one ~10k-op step, in ms (medians)."""
    tracing, analysis, plain_times, count = [], [], [], 0
    for _ in range(pairs + 1):
        start = time.perf_counter()
        big_step()
        plain_times.append(time.perf_counter() - start)
        session = TraceSession(force_eager=True)
        start = time.perf_counter()
        with session:
            big_step()
        tracing.append(time.perf_counter() - start)
        assert session.trace is not None
        count = len(session.trace.ops)
        start = time.perf_counter()
        build_report(session.trace, CellMap(), CellInfo("", "<bench>"))
        analysis.append(time.perf_counter() - start)
    plain_ms = statistics.median(plain_times[1:]) * 1e3
    trace_ms = statistics.median(tracing[1:]) * 1e3
    report_ms = statistics.median(analysis[1:]) * 1e3
    return (f"| one step of {count:,} ops | plain {plain_ms:.0f} ms | tracing {trace_ms:.0f} ms "
            f"({trace_ms / plain_ms:.2f}×) | analysis + report {report_ms:.0f} ms "
            f"(target ≤ 300 ms) |\n\n(a training step of {len(STEP_WEIGHTS)} layers: "
            f"{len(STEP_WEIGHTS)} sources in one gradient call)")


_FIRST_CHECK = """
import os, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf, tapemagic
w = tf.Variable([1.0, 2.0])
def cell():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    tape.gradient(loss, [w])
cell()
times = []
for _ in range(3):
    start = time.perf_counter()
    with tapemagic.gradcheck():
        cell()
    times.append(time.perf_counter() - start)
print(times[0] - min(times[1:]))
"""

_PEAK = """
import os, sys, threading, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
sys.argv = ["overhead"]
sys.path.insert(0, {bench!r})
import overhead, tapemagic
work = getattr(overhead, {name!r})
def run():
    if {traced!r}:
        with tapemagic.gradcheck():
            work()
    else:
        work()
def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
run()  # warm: first traces, self-test, allocator pools
base, peak, done = rss(), [0], threading.Event()
def sample():
    while not done.is_set():
        peak[0] = max(peak[0], rss())
        time.sleep(0.002)
sampler = threading.Thread(target=sample)
sampler.start()
for _ in range(2):
    run()
done.set()
sampler.join()
print(base, max(peak[0], rss()))
"""


def subprocess_value(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=900, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
                          check=True)
    return done.stdout.strip().splitlines()[-1]


def first_check_cost() -> str:
    values = sorted(float(subprocess_value(_FIRST_CHECK)) for _ in range(3))
    return f"{values[1] * 1e3:.0f} ms (min {values[0] * 1e3:.0f}, max {values[2] * 1e3:.0f})"


def peak_memory(name: str) -> str:
    """Resident memory sampled while the workload runs, one process plain and one traced."""
    bench = os.path.dirname(os.path.abspath(__file__))
    runs = []
    for traced_run in (False, True):
        base, peak = map(int, subprocess_value(
            _PEAK.format(bench=bench, name=name, traced=traced_run)).split())
        runs.append((base, peak))
    (p_base, p_peak), (t_base, t_peak) = runs
    mib = 1 << 20
    extra = ((t_peak - t_base) - (p_peak - p_base)) / p_peak * 100
    return (f"plain: {p_peak / mib:.0f} MiB peak ({(p_peak - p_base) / mib:+.0f} MiB while it "
            f"ran), traced: {t_peak / mib:.0f} MiB ({(t_peak - t_base) / mib:+.0f} MiB): "
            f"{extra:+.1f} % of the plain peak")


def checked_step_rows(pairs: int) -> list[str]:
    """What one checked step of a traced train step costs (``bench/moved_cost.py``)."""
    import moved_cost
    from probe_cost import cell, conv, mlp

    rows = ["| checked step of a `tf.function` train step, batch 32 | plain step | wall | CPU |"
            " target |", "|---|---|---|---|---|"]
    for name, make in (("3-layer MLP", mlp), ("8-layer conv net", conv)):
        base, wall, cpu = moved_cost.measure(make, max(3, pairs))
        rows.append(f"| {name} | {base * 1e3:.1f} ms | {cell(wall)} | {cell(cpu)} | ≤ 1.02× |")
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer workloads (smoke test)")
    parser.add_argument("--only", action="append", metavar="LABEL", help="only the workloads "
                        "and cold rows whose label contains LABEL (repeatable; no subprocess "
                        "figures)")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold rows")
    parser.add_argument("--cold-pairs", type=int, metavar="N",
                        help="pairs for the cold rows (default: half of --pairs, at least 3)")
    parser.add_argument("--mode", action="append", metavar="LABEL", help="only the modes "
                        "whose label contains LABEL (repeatable), e.g. 'graph mode'")
    parser.add_argument("--checked-step", action="store_true", help="add the cost of one "
                        "checked step of a traced train step (bench/moved_cost.py)")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "OVERHEAD.md"))
    args = parser.parse_args()
    pairs = max(args.pairs, 1 if args.quick else 5)
    workloads: list[tuple[str, Callable[[], None]]] = [
        ("MLP custom loop", mlp_loop), ("12-layer conv net", conv_loop),
        ("fit, 20 batches", fit_small), ("tf.function step x 50", function_steps),
        ("cell of 250 lines", lines_cell(250)), ("cell of 1,000 lines", lines_cell(1000)),
        ("cell of 5,000 lines", lines_cell(5000)),
    ]
    if args.quick:
        workloads = workloads[:1]
    if args.only:
        workloads = [(label, fn) for label, fn in workloads if any(o in label for o in args.only)]
    modes = {name: mode for name, mode in MODES.items()
             if not args.mode or any(m in name for m in args.mode)}
    cpu_modes = [name for name in CPU_MODES if name in modes]
    header = ["workload", "plain", *modes, "target"]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    cpu_rows = ["| workload | " + " | ".join(cpu_modes) + " |", "|" + "---|" * (1 + len(cpu_modes))]
    for label, fn in workloads:
        base, found = ratios(fn, pairs, modes)
        target = TARGETS.get(label)
        rows.append(f"| {label} | {base * 1e3:.0f} ms | "
                    + " | ".join(cell_text(found[name]) for name in modes)
                    + f" | {f'≤ {target}×' if target else ''} |")
        cpu_rows.append(f"| {label} | "
                        + " | ".join(cell_text(CPU_RATIOS[name]) for name in cpu_modes) + " |")
        print(rows[-1], cpu_rows[-1], sep="\n", flush=True)
    cold_pairs = args.cold_pairs or max(3, pairs // 2)
    if not args.no_cold and not args.mode:
        rows += overhead_auto.cold_rows(ratios, MODES, COLD_MODES, cell_text, cold_pairs,
                                        CPU_RATIOS, args.only)
    lines = [
        "# tapemagic overhead",
        "",
        f"`python bench/overhead.py --pairs {pairs}` on {platform.processor() or 'cpu'} "
        f"({os.cpu_count()} cores, shared), Python {platform.python_version()}, "
        f"TensorFlow {tf.__version__}, Keras {keras_state.keras_version()}, "
        f"{time.strftime('%Y-%m-%d')}.",
        "",
        "Ratios to the plain run just before each traced run: median (min–max) of the pairs.",
        "A traced run includes its report. Cold rows: "
        f"{'not run' if args.no_cold else f'{cold_pairs} pairs'}, "
        "each run builds its model and traces its first call; each cell gives the wall ratio, "
        "then the ratio of process CPU time (all threads) of the same runs.",
        "",
        *rows,
        "",
        "The same runs in process CPU time (all threads; steadier than wall time on a shared "
        "machine):",
        "",
        *cpu_rows,
        "",
    ]
    if not args.mode:  # the figures of every mode
        lines += [split_step(pairs), "",
                  *overhead_auto.summary(workloads, MODES["traced, graph mode"], pairs * 2)]
    if args.checked_step:
        lines += ["", *checked_step_rows(pairs), ""]
    if not args.quick and not args.only and not args.mode:
        lines += [f"- fixed cost of the first check in a process: {first_check_cost()} "
                  "(target ≤ 1 s)",
                  f"- extra peak memory, MLP loop: {peak_memory('mlp_loop')} (target ≤ 10 %)",
                  f"- extra peak memory, conv net: {peak_memory('conv_loop')}", ""]
    text = "\n".join(lines)
    print(text)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(text)


if __name__ == "__main__":
    main()
