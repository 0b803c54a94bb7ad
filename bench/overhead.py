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
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

from tapemagic.engine import build_report  # noqa: E402
from tapemagic.locations import CellMap  # noqa: E402
from tapemagic.report.model import CellInfo  # noqa: E402
from tapemagic.tracing import keras_state  # noqa: E402
from tapemagic.tracing.session import TraceSession  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import overhead_auto  # noqa: E402
from overhead_modes import (  # noqa: E402
    COLD_MODES,
    CPU_MODES,
    CPU_RATIOS,
    MODES,
    cell_text,
    ratios,
)
from overhead_workloads import (  # noqa: E402
    STEP_WEIGHTS,
    big_step,
    conv_loop,
    fit_small,
    function_steps,
    lines_cell,
    mlp_loop,
)

#: the workloads' names that ``_PEAK`` runs by name in a subprocess (``overhead.mlp_loop``)
__all__ = ["conv_loop", "main", "mlp_loop"]

TARGETS = {"MLP custom loop": 1.15, "12-layer conv net": 1.2, "fit, 20 batches": 1.3,
           "tf.function step x 50": 1.2, "cell of 5,000 lines": 2.0}


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
