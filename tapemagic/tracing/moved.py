"""Weights a step's loss reads that never change: the invariant under every other rule.

Imports TensorFlow. Whatever cut or zeroed a weight's gradient, or kept the optimizer from
applying it (``apply_gradients`` on part of the list, a weight reset every step), the weight
then does not move while the others do. For each analysed gradient call site and set of
sources (``tracing/sites.py``), :class:`MoveWatch` compares, on the device, each trainable
float variable source with its value at the site's previous run, for the first
:data:`RUNS` runs: in an eager loop a few plain ops per run (after the gradient
call returns, before the code applies it), in a traced step (``fit``'s train function, a
``@tf.function`` step) a few ops added to the step's own graph at the gradient call, in a
``tf.cond`` that skips them once the runs are counted. The counts live in variables of the
check's own and are read once, when the check ends: no host read per step.

An interval between two runs counts only when some source whose gradient was usable moved in
it (an optimizer ran with a non-zero learning rate): gradient accumulation, a loss scale
skipping a step with inf gradients and a warmup from a zero learning rate count nothing. A
source is *stuck* in a counted interval when its own gradient of the previous run was usable
(finite, not all zero, and large enough next to the weight that an update would show in
float32) and its value did not change. A source stuck in at least :data:`MIN_INTERVALS`
intervals that never moved is ``GradientCallRecord.unmoved``. A zero-initialised scale (ReZero)
gives the weights behind it a zero gradient on the first step only: that step does not count
for them, and they move on the next.

Keras 3 optimizers end every ``apply_gradients`` in ``BaseOptimizer.apply``, patched while the
check runs (and undone): for a watched weight it notes, on the device, whether the optimizer
was given a usable gradient (the call's own tensor costs no op). A weight given zeros (a layer
frozen by masking its gradients) is not stuck; one never given anything while the call's
other weights were is reported at that optimizer call (``GradientCallRecord.unmoved_apply``).

Under a ``tf.distribute`` strategy the call runs once per replica per step, on threads the
strategy starts (they belong to the check): eagerly only the runs of the replica that started
the watch count, and a traced step is instrumented once per graph (all replicas trace into
it). The counts are the check's own variables, outside the strategy's variable creator: no
replica syncs them, and each worker of a ``MultiWorkerMirroredStrategy`` reads its own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import tensorflow as tf

from tapemagic import frames
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing._tf_private.keras_private import inner_variable
from tapemagic.tracing.imports import after_import
from tapemagic.tracing.results import flatten

if TYPE_CHECKING:
    from tapemagic.trace import GradientCallRecord, RawLocation
    from tapemagic.tracing.recorder import Recorder

#: Checked runs per call site and set of sources (RUNS - 1 intervals between them).
RUNS = 4
#: A weight is reported after this many counted intervals in which it did not move.
MIN_INTERVALS = 2
#: A weight whose gradient was all zero in every checked run is reported after this many runs:
#: a zero-initialised scale (ReZero, Fixup) zeroes the weights behind it on the first only.
MIN_ZERO_RUNS = 2
#: A gradient counts when its largest entry is at least this times the weight's largest:
#: plain SGD with a learning rate above 1e-5 then moves that entry by more than float32's
#: resolution (Adam's first updates are about the learning rate, whatever the gradient).
_RELATIVE = 1e-2
_FLOATS = ("float16", "bfloat16", "float32", "float64")
#: Keras 3's optimizer base: every optimizer's ``apply_gradients`` ends in its ``apply``
_OPTIMIZER_MODULE = "keras.src.optimizers.base_optimizer"


@dataclass(eq=False)  # compared by identity: its fields hold variables
class _Watch:
    """One call site's watched sources, their snapshots and the counts (check-owned)."""

    call: GradientCallRecord
    positions: list[int]  # the watched sources' places in the call's flattened sources
    variables: list[Any]  # their tf.Variables (a Keras variable's inner one)
    snaps: list[Any]  # the value each had at the previous run
    #: [runs, counted intervals, usable gradient last run x n, stuck x n, moved x n,
    #: all-zero gradient x n]
    state: Any
    #: per source, what a Keras optimizer was given for it since the last run: -1 nothing
    #: (or not seen), 0 an unusable gradient (zeros: a layer frozen by masking), 1 a usable one
    applied: Any
    graphs: set[int] = field(default_factory=set)  # id() of the step graphs instrumented
    given: set[int] = field(default_factory=set)  # sources a Keras optimizer was ever given
    apply_loc: RawLocation | None = None  # the user's line of an optimizer call given some
    last: dict[int, int] = field(default_factory=dict)  # index -> id() of its last gradient
    runs: int = 0  # eager runs made (the Python side stops calling after RUNS)
    #: the thread number (``Recorder.thread_number``) whose runs count: under ``strategy.run``
    #: each replica runs the call once per step, and only one replica's runs are intervals
    replica: int = 0


class MoveWatch:
    """The watches of one run, keyed by (call site, sources key) as ``TapeHooks`` keys them."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.watches: dict[object, _Watch] = {}
        #: id() of a watched tf.Variable -> (watch, its index there)
        self._index: dict[int, list[tuple[_Watch, int]]] = {}
        self._undo: list[Callable[[], None]] = []

    def install(self) -> None:
        """Note what Keras optimizers are given, once Keras' optimizer module is loaded."""
        self._undo.append(after_import(_OPTIMIZER_MODULE, self._patch_apply))

    def remove(self) -> None:
        """Undo the patch (and the wait for Keras' import)."""
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()

    def _patch_apply(self) -> None:
        owner = getattr(sys.modules.get(_OPTIMIZER_MODULE), "BaseOptimizer", None)
        original = getattr(owner, "__dict__", {}).get("apply")
        if owner is None or original is None:
            return
        watch = self

        def apply(optimizer: Any, grads: Any, trainable_variables: Any = None,
                  *args: Any, **kwargs: Any) -> Any:
            if watch._index and watch.rec.mine() and not watch.rec.busy and isinstance(
                    grads, (list, tuple)) and isinstance(trainable_variables, (list, tuple)):
                watch.applied(grads, trainable_variables, optimizer)
            return original(optimizer, grads, trainable_variables, *args, **kwargs)

        owner.apply = apply
        self._undo.append(lambda: setattr(owner, "apply", original))

    def applied(self, grads: Any, variables: Any, optimizer: Any = None) -> None:
        """Note, on the device, whether each watched variable was given a usable gradient.

        With a learning rate of zero (a part frozen by its own optimizer, a warmup's first
        step) nothing it is given counts as usable.
        """
        rate = getattr(optimizer, "learning_rate", None)
        found: dict[int, tuple[_Watch, list[tuple[int, Any, Any]]]] = {}
        for gradient, variable in zip(grads, variables, strict=False):
            inner = inner_variable(variable, variable)
            for watch, i in self._index.get(id(inner), ()):
                found.setdefault(id(watch), (watch, []))[1].append((i, gradient, inner))
        if not found:
            return
        user, _ = frames.user_frame(sys._getframe(2))
        for watch, items in found.values():
            watch.given.update(i for i, _, _ in items)
            if watch.apply_loc is None and user is not None:
                watch.apply_loc = frames.location_of(user)
        try:
            with self.rec.quiet(), tfp.stop_recording(), tf.name_scope("tapemagic_moved"):
                for watch, items in found.values():
                    if tfp.executing_eagerly() and watch.runs > RUNS:
                        continue
                    _note_applied(watch, items, rate)
        except Exception:  # noqa: BLE001 - unnoted: the weight counts as given nothing
            return

    def start(self, key: object, call: GradientCallRecord, sources: Any, result: Any) -> None:
        """Watch an analysed call's trainable float variable sources, then count this run."""
        if key in self.watches or call.method != "gradient":
            return
        objects = flatten(sources)
        if len(objects) != len(call.sources):
            return
        positions, variables = [], []
        for n, (record, item) in enumerate(zip(call.sources, objects, strict=True)):
            variable = inner_variable(item, item)
            shape = getattr(variable, "shape", None)
            if (record.kind == "tensor" or not record.trainable
                    or record.dtype not in _FLOATS or not hasattr(variable, "read_value")
                    or shape is None or not shape.is_fully_defined()):
                continue
            positions.append(n)
            variables.append(variable)
        if len(positions) < 2:  # a lone weight has no other to show that a step was taken
            return
        try:
            with self.rec.quiet(), tf.init_scope():
                snaps = [tfp.host_variable(tf.zeros(v.shape, v.dtype)) for v in variables]
                state = tfp.host_variable(tf.zeros([2 + 4 * len(variables)], tf.float32))
                given = tfp.host_variable(tf.fill([len(variables)], -1.0))
        except Exception:  # noqa: BLE001 - a device the check cannot place a copy on: unwatched
            return
        watch = self.watches[key] = _Watch(call, positions, variables, snaps, state, given,
                                           replica=self.rec.thread_number())
        for i, variable in enumerate(variables):
            self._index.setdefault(id(variable), []).append((watch, i))
        self.run(key, result)

    def run(self, key: object, result: Any) -> None:
        """Count one run of a watched site (eager), or instrument the graph being traced."""
        watch = self.watches.get(key)
        if watch is None:
            return
        flat = flatten(result)
        if len(flat) != len(watch.call.sources):
            return
        gradients = [flat[p] for p in watch.positions]
        try:
            with self.rec.quiet(), tfp.stop_recording():
                if tfp.executing_eagerly():
                    if watch.runs < RUNS and self.rec.thread_number() == watch.replica:
                        watch.runs += 1
                        # plain ops, never a tf.function of the check's own: each would be
                        # one more trace in TensorFlow's retracing count, and its "triggered
                        # tf.function retracing" warning would then reach the user's output
                        _count(watch, gradients)
                    return
                graph = tfp.get_default_graph()
                if id(graph) in watch.graphs:
                    return
                watch.graphs.add(id(graph))
                _count(watch, gradients)
        except Exception:  # noqa: BLE001 - the step runs unwatched rather than not at all
            return

    def finish(self) -> None:
        """Read every watch's counts (one read each) into its call record; drop the watches."""
        with self.rec.quiet():
            for watch in self.watches.values():
                values = tfp.read_host_variable(watch.state)
                if values is None:
                    continue
                n = len(watch.positions)
                runs = watch.call.checked_runs = int(values[0])
                for i, position in enumerate(watch.positions):
                    stuck, moved = int(values[2 + n + i]), int(values[2 + 2 * n + i])
                    if runs >= MIN_ZERO_RUNS and int(values[2 + 3 * n + i]) == runs:
                        watch.call.zeroed.append((position, runs))
                    if stuck >= MIN_INTERVALS and moved == 0:
                        watch.call.unmoved.append((position, stuck))
                        if i not in watch.given:
                            watch.call.unmoved_apply = watch.apply_loc
        self.watches.clear()
        self._index.clear()


def _count(watch: _Watch, gradients: list[Any]) -> None:
    """Build (in the graph being traced, or the eager run's function) one run's counting.

    A handful of ops per weight (its read, an equality with its snapshot, two maxima and a
    sum), the rest on short vectors: what a checked step costs is mostly their dispatch.
    """
    state, n = watch.state, len(watch.variables)
    watch.last = {i: id(g) for i, g in enumerate(gradients) if g is not None}

    def count() -> Any:
        values = [v.read_value() for v in watch.variables]
        axes = _axes()
        same = tf.stack([tf.reduce_all(tf.equal(x, s.read_value()), axis=axes(x))
                         for x, s in zip(values, watch.snaps, strict=True)])
        usable, zero = _flags(gradients, values, axes)
        head, usable_old, stuck_old, moved_old, zero_old = tf.split(
            state.read_value(), [2, n, n, n, n])
        given = watch.applied.read_value()
        usable_before = usable_old > 0.5
        # a weight its optimizer was given zeros for (a layer frozen by masking) is left alone
        before = tf.logical_and(usable_before, tf.not_equal(given, 0.0))
        moved = tf.logical_and(usable_before, tf.logical_not(same))
        counted = tf.logical_and(head[0] > 0.5, tf.reduce_any(moved))
        stuck = tf.logical_and(counted, tf.logical_and(before, same))
        new = tf.concat([head + tf.stack([1.0, tf.cast(counted, tf.float32)]),
                         tf.cast(usable, tf.float32),
                         stuck_old + tf.cast(stuck, tf.float32),
                         moved_old + tf.cast(moved, tf.float32),
                         zero_old + tf.cast(zero, tf.float32)], axis=0)
        with tf.control_dependencies([new]):  # the snapshots are read before they are written
            writes = [s.assign(x) for s, x in zip(watch.snaps, values, strict=True)]
        with tf.control_dependencies(writes):
            state.assign(new)
            watch.applied.assign(tf.fill([n], -1.0))
        return tf.constant(True)

    with tf.name_scope("tapemagic_moved"):
        tf.cond(state[0] < float(RUNS), count, lambda: tf.constant(False))


def _note_applied(watch: _Watch, items: list[tuple[int, Any, Any]], rate: Any = None) -> None:
    """Build the write of ``watch.applied`` for (index, gradient, variable) ``items``.

    A gradient the optimizer gets as the call returned it (the same tensor) is usable when
    the call's was: 1 with no op; only a changed one (clipped, masked) is measured again.
    """
    same = [(i, g) for i, g, _ in items if watch.last.get(i) == id(g)]
    changed = [(i, g, v) for i, g, v in items if watch.last.get(i) != id(g)]

    def note() -> None:
        flags = [tf.constant([1.0] * len(same))] if same else []
        if changed:
            flags.append(tf.cast(_usable([g for _, g, _ in changed],
                                         [v.read_value() for _, _, v in changed]), tf.float32))
        order = [[i] for i, _ in same] + [[i] for i, _, _ in changed]
        given = tf.concat(flags, axis=0)
        if rate is not None:  # a learning rate of zero applies nothing
            given = given * tf.cast(tf.not_equal(tf.cast(rate, tf.float32), 0.0), tf.float32)
        watch.applied.scatter_nd_update(order, given)

    # plain ops, no tf.cond, in a traced step too: once the runs are counted the state's run
    # count stays at RUNS, so a cond on it would run this on every step anyway, and a cond
    # costs more ops to trace (and to optimise on the first run) than this write
    note()


def _axes() -> Callable[[Any], Any]:
    """Return a maker of every axis of a value: one constant per rank, not per reduction."""
    made: dict[int, Any] = {}

    def axes(value: Any) -> Any:
        rank = value.shape.rank
        if rank is None:
            return None
        if rank not in made:
            made[rank] = tf.constant(list(range(rank)), tf.int32)
        return made[rank]

    return axes


def _usable(gradients: list[Any], values: list[Any],
            axes: Callable[[Any], Any] | None = None) -> Any:
    """Return a bool vector: would an update by each gradient show in its weight's value."""
    return _flags(gradients, values, axes)[0]


def _flags(gradients: list[Any], values: list[Any],
           axes: Callable[[Any], Any] | None = None) -> tuple[Any, Any]:
    """Return two bool vectors: each gradient is usable, each is all zero.

    Usable: finite (its sum is), not all zero, and its largest entry at least ``_RELATIVE``
    times the weight's largest. A None (or integer) gradient is neither usable nor zero (a
    severed path is other rules' finding).
    """
    axes = axes or _axes()
    tops, sums, weights, present = [], [], [], []
    for gradient, value in zip(gradients, values, strict=True):
        data = getattr(gradient, "values", gradient)  # IndexedSlices: the rows it touches
        present.append(data is not None
                       and tfp.dtype_name(getattr(data, "dtype", None)) in _FLOATS)
        if not present[-1]:
            data = tf.zeros([], tf.float32)
        tops.append(tf.cast(tf.reduce_max(tf.abs(data), axis=axes(data)), tf.float32))
        sums.append(tf.cast(tf.reduce_sum(data, axis=axes(data)), tf.float32))
        weights.append(tf.cast(tf.reduce_max(tf.abs(value), axis=axes(value)), tf.float32))
    top, total = tf.stack(tops), tf.stack(sums)
    usable = tf.logical_and(tf.logical_and(tf.math.is_finite(total), top > 0.0),
                            top >= _RELATIVE * tf.stack(weights))
    return usable, tf.logical_and(tf.constant(present), tf.equal(top, 0.0))
