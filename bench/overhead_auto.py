"""Auto mode and realistic cold workloads for bench/overhead.py (run by hand, never by tests).

``auto_mode`` runs a workload as auto mode (``%gradcheck on``) checks a cell: the extension's
own ``pre_run_cell``/``post_run_cell`` hooks of a kernel-less IPython shell around it, so the
column is the cost auto mode adds to the cell itself. ``plain_python_cell`` is the extra time of
a cell of plain Python run through ``shell.run_cell`` with auto mode on. The cold workloads are
a user's first run of a cell: the model is built and its first call traced inside each run.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

keras = tf.keras
RNG = np.random.default_rng(1)


def _controller() -> Any:
    """The auto-mode configurable of a kernel-less IPython shell, with auto mode on."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False  # no history database: nothing to save at exit
    shell = InteractiveShell.instance(config=config)
    if "gradcheck" not in shell.magics_manager.magics["cell"]:
        shell.run_line_magic("load_ext", "tapemagic")
    found = [c for c in shell.configurables if type(c).__name__ == "Gradcheck"]
    found[0].auto = True
    return found[0]


@contextlib.contextmanager
def auto_mode() -> Iterator[None]:
    """Run the block as auto mode runs a cell: the extension's two event hooks around it."""
    from IPython.core.interactiveshell import ExecutionInfo, ExecutionResult

    mode = _controller()
    info = ExecutionInfo("workload()", False, False, True, None)
    mode.pre_run_cell(info)
    result = ExecutionResult(info)
    result.execution_count = 0
    try:
        yield
    except BaseException as error:
        result.error_in_exec = error
        raise
    finally:
        mode.post_run_cell(result)


def plain_python_cell(runs: int = 300) -> str:
    """Return the extra time auto mode adds to ``x = 1 + 2`` run by ``shell.run_cell`` (ms)."""
    mode = _controller()
    shell = mode.shell
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(runs):
        for on in (False, True):
            mode.auto = on
            start = time.perf_counter()
            shell.run_cell("x = 1 + 2\n", store_history=False)
            times[on].append(time.perf_counter() - start)
    mode.auto = True
    off, on = statistics.median(times[False]), statistics.median(times[True])
    return (f"a cell of plain Python (`x = 1 + 2` through `shell.run_cell`, {runs} runs each): "
            f"{off * 1e3:.2f} ms plain, {on * 1e3:.2f} ms with auto mode on: "
            f"{(on - off) * 1e3:+.2f} ms (target ≤ 1 ms)")


# -- cold workloads: each run builds its model and traces its first call ------------------------
def _resnet() -> tuple[Any, Any, Any, Any]:
    model = keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3), classes=10)
    x = tf.constant(RNG.normal(size=(4, 64, 64, 3)).astype("float32"))
    y = tf.constant(RNG.integers(0, 10, size=(4,)))
    loss_fn = keras.losses.SparseCategoricalCrossentropy()
    return model, x, y, loss_fn


def resnet_eager_step() -> None:
    """ResNet50 (weights=None), batch 4 of 64×64, one custom eager train step."""
    model, x, y, loss_fn = _resnet()
    opt = keras.optimizers.SGD(0.01)
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))


def resnet_function_step() -> None:
    """ResNet50 (weights=None), batch 4 of 64×64, one ``@tf.function`` train step (traced)."""
    model, x, y, loss_fn = _resnet()
    opt = keras.optimizers.SGD(0.01)

    @tf.function
    def step() -> Any:
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables, strict=True))
        return loss

    step()


TOKENS = RNG.integers(1, 1000, size=(256, 32))
LABELS = RNG.integers(0, 2, size=(256,))


def transformer_fit() -> None:
    """A small Transformer encoder classifier: ``compile`` + ``fit`` (8 batches of 32)."""
    inputs = keras.layers.Input((32,), dtype="int32")
    h = keras.layers.Embedding(1000, 64)(inputs)
    for _ in range(2):
        attended = keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)(h, h)
        h = keras.layers.LayerNormalization()(h + attended)
        ffn = keras.layers.Dense(64)(keras.layers.Dense(128, activation="relu")(h))
        h = keras.layers.LayerNormalization()(h + ffn)
    outputs = keras.layers.Dense(2)(keras.layers.GlobalAveragePooling1D()(h))
    model = keras.Model(inputs, outputs)
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(TOKENS, LABELS, batch_size=32, epochs=1, verbose=0)


COLD = [("ResNet50 custom step, eager, cold", resnet_eager_step, 1.1),
        ("ResNet50 custom step, @tf.function, cold", resnet_function_step, 1.1),
        ("small Transformer compile + fit, cold", transformer_fit, 1.1)]


def cold_rows(ratios: Callable[..., Any], modes: dict[str, Any], measured: tuple[str, ...],
              cell_text: Callable[[list[float]], str], pairs: int,
              cpu_ratios: dict[str, list[float]], only: list[str] | None = None) -> list[str]:
    """Return the table rows of the cold workloads (``measured`` modes only, "–" elsewhere).

    Each measured cell gives the wall ratio, then the CPU-time ratio of the same runs
    (``cpu_ratios``, filled by ``ratios``): a cold run takes seconds, long enough for the
    machine's other work to swing its wall time. ``only``: the labels to run (substrings).
    """
    rows = []
    for label, fn, target in COLD:
        if only and not any(o in label for o in only):
            continue
        base, found = ratios(fn, pairs, {name: modes[name] for name in measured})
        rows.append(f"| {label} | {base * 1e3:.0f} ms | "
                    + " | ".join(f"{cell_text(found[name])}; CPU {cell_text(cpu_ratios[name])}"
                                 if name in found else "–" for name in modes)
                    + f" | ≤ {target}× |")
        print(rows[-1], flush=True)
    return rows


def auto_against_cell(fn: Callable[[], None], cell: Callable[[], Any], pairs: int) -> str:
    """Return auto mode's time over the per-cell check's, alternating the two (median, range).

    The direct comparison: both ratios to a plain run swing with the machine's load, the two
    checks run the same tracing, so this is what auto mode adds (or saves) per cell.
    """
    for mode in (cell, auto_mode):  # warm-up
        with mode():
            fn()
    found = []
    for _ in range(pairs):
        times = []
        for mode in (cell, auto_mode):
            start = time.perf_counter()
            with mode():
                fn()
            times.append(time.perf_counter() - start)
        found.append(times[1] / times[0])
    return (f"{statistics.median(found):.3f}× ({min(found):.3f}–{max(found):.3f}, "
            f"{pairs} pairs)")


_W: list[Any] = []


def _tiny_step() -> None:
    if not _W:
        _W.append(tf.Variable([1.0, 2.0]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(_W[0] * _W[0])
    tape.gradient(loss, _W)


def _no_gradient() -> None:
    sum(range(10))


def fixed_cost(cell: Callable[[], Any], runs: int = 200) -> list[str]:
    """Return what auto mode adds to the per-cell check on tiny cells (median ms of ``runs``).

    Precise where the workload rows are not: the difference is a fixed cost per cell (the
    hooks, the report's cell info), so a tiny cell shows it without a workload's noise.
    """
    lines = []
    for label, fn in (("one small gradient call", _tiny_step), ("no gradient call", _no_gradient)):
        found: dict[str, list[float]] = {"cell": [], "auto": []}
        for index in range(runs + 5):
            for name, mode in (("cell", cell), ("auto", auto_mode)):
                start = time.perf_counter()
                with mode():
                    fn()
                if index >= 5:  # warm-up
                    found[name].append(time.perf_counter() - start)
        cell_ms, auto_ms = (statistics.median(found[k]) * 1e3 for k in ("cell", "auto"))
        lines.append(f"- a cell with {label}: per-cell check {cell_ms:.2f} ms, auto mode "
                     f"{auto_ms:.2f} ms ({auto_ms - cell_ms:+.2f} ms; {runs} runs each)")
    return lines


def summary(workloads: list[tuple[str, Callable[[], None]]], cell: Callable[[], Any],
            pairs: int) -> list[str]:
    """Return the Markdown lines under the table: the plain-Python cell, auto / per cell."""
    return [f"- {plain_python_cell()}", *fixed_cost(cell),
            *(f"- auto mode / per-cell check (graph mode), {label}: "
              f"{auto_against_cell(fn, cell, pairs)}" for label, fn in workloads), ""]
