"""Weights a step's loss reads that never change: the invariant under every other rule.

Imports TensorFlow. Whatever cut or zeroed a weight's gradient, or kept the optimizer from
applying it (``apply_gradients`` on part of the list, a weight reset every step), the weight
then does not move while the others do. For each analysed gradient call site and set of
sources (``tracing/sites.py``), :class:`MoveWatch` looks, for the first :data:`RUNS` runs, at
each trainable float variable source's value where the call ran and at its gradient's
largest magnitude, and tallies them on the host, one host read per run: in an eager loop a
few plain ops after the call returns; in a traced step (``fit``'s train function, a
``@tf.function`` step) a ``tf.cond`` on a run count of the check's own, built into the step
at the gradient call, that copies each weight and the gradients' largest magnitudes, read
after each eager call of the step (``AtomicFunction.call_flat``, wrapped while a step
counts). Later runs read the count only.

An interval between two runs counts only when some source whose gradient was usable moved in
it (an optimizer ran with a non-zero learning rate): gradient accumulation, a loss scale
skipping a step with inf gradients and a warmup from a zero learning rate count nothing. A
source is *stuck* in a counted interval when its own gradient of the previous run was usable
(finite, not all zero, and large enough next to the weight that an update would show in
float32) and its value did not change. A source stuck in at least :data:`MIN_INTERVALS`
intervals that never moved is ``GradientCallRecord.unmoved``; one whose gradient was zero in
every run (at least :data:`MIN_ZERO_RUNS`) is ``zeroed``: a zero-initialised scale (ReZero)
zeroes the weights behind it on the first step only.

Keras 3 optimizers end every ``apply_gradients`` in ``BaseOptimizer.apply``, patched while the
check runs (and undone): for a watched weight it notes, on the device, whether the optimizer
was given a usable gradient. A weight given zeros (a layer frozen by masking its gradients)
is not stuck; one never given anything while the call's other weights were is reported at
that optimizer call (``GradientCallRecord.unmoved_apply``).

Under a ``tf.distribute`` strategy eagerly only the runs of the replica that started the
watch count, and a traced step is instrumented once per graph (all replicas trace into it).
The record is the check's own variables, outside the strategy's variable creator: no replica
syncs them, and each worker of a ``MultiWorkerMirroredStrategy`` reads its own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import tensorflow as tf

from tapemagic import frames
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing._tf_private.keras_private import inner_variable
from tapemagic.tracing.imports import after_import
from tapemagic.tracing.move_record import (
    FLOATS,
    Tally,
    Watch,
    count_eager,
    count_traced,
    look,
    note_applied,
)
from tapemagic.tracing.results import flatten

if TYPE_CHECKING:
    from tapemagic.trace import GradientCallRecord
    from tapemagic.tracing.recorder import Recorder

#: Checked runs per call site and set of sources (RUNS - 1 intervals between them).
RUNS = 4
#: A weight is reported after this many counted intervals in which it did not move.
MIN_INTERVALS = 2
#: A weight whose gradient was all zero in every checked run is reported after this many runs:
#: a zero-initialised scale (ReZero, Fixup) zeroes the weights behind it on the first only.
MIN_ZERO_RUNS = 2
#: Keras 3's optimizer base: every optimizer's ``apply_gradients`` ends in its ``apply``
_OPTIMIZER_MODULE = "keras.src.optimizers.base_optimizer"


class MoveWatch:
    """The watches of one run, keyed by (call site, sources key) as ``TapeHooks`` keys them."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.watches: dict[object, Watch] = {}
        #: id() of a watched tf.Variable -> (watch, its index there)
        self._index: dict[int, list[tuple[Watch, int]]] = {}
        self._undo: list[Callable[[], None]] = []
        self._traced: list[Watch] = []  # the watches of traced steps still counting
        self._calls_patched = False

    def install(self) -> None:
        """Note what Keras optimizers are given, once Keras' optimizer module is loaded."""
        self._undo.append(after_import(_OPTIMIZER_MODULE, self._patch_apply))

    def remove(self) -> None:
        """Undo the patches (and the wait for Keras' import)."""
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()
        self._calls_patched = False

    def _patch_calls(self) -> None:
        """Look after each eager call of a traced function while a traced step is counting.

        ``AtomicFunction.call_flat`` runs every call of a traced function; wrapped (and
        undone with the other patches) it costs one test per call once the runs are counted.
        Not an op callback: one more callback on the thread would change what the recorder's
        own does (it takes its callback off the thread only when it is the only one).
        """
        if self._calls_patched:
            return
        owner = tfp.AtomicFunction
        original = owner.__dict__.get("call_flat")
        if original is None:
            return
        watch = self

        def call_flat(function: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(function, *args, **kwargs)
            if watch._traced and not watch.rec.busy and tfp.executing_eagerly():
                watch._called(function)
            return result

        owner.call_flat = call_flat
        self._calls_patched = True
        self._undo.append(lambda: setattr(owner, "call_flat", original))

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
        found: dict[int, tuple[Watch, list[tuple[int, Any, Any]]]] = {}
        for gradient, variable in zip(grads, variables, strict=False):
            inner = inner_variable(variable, variable)
            for watch, i in self._index.get(id(inner), ()):
                found.setdefault(id(watch), (watch, []))[1].append((i, gradient, inner))
        if not found:
            return
        user, _ = frames.user_frame(sys._getframe(2))
        for watch, items in found.values():
            watch.given.update(i for i, _, _ in items)
            for i, gradient, _ in items:  # a value made from the gradient: where it was made
                if watch.last.get(i) != id(gradient):  # (None: made while nothing recorded)
                    watch.given_serials[i] = self.rec.ids.serial_of(gradient)
            if watch.apply_loc is None and user is not None:
                watch.apply_loc = frames.location_of(user)
        try:
            with self.rec.quiet(), tfp.stop_recording(), tf.name_scope("tapemagic_moved"):
                for watch, items in found.values():
                    if tfp.executing_eagerly() and watch.runs > RUNS:
                        continue
                    note_applied(watch, items, rate)
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
                    or record.dtype not in FLOATS or not hasattr(variable, "read_value")
                    or shape is None or not shape.is_fully_defined()):
                continue
            positions.append(n)
            variables.append(variable)
        if len(positions) < 2:  # a lone weight has no other to show that a step was taken
            return
        try:
            with self.rec.quiet(), tf.init_scope():
                given = tfp.host_variable(tf.fill([len(variables)], -1.0))
        except Exception:  # noqa: BLE001 - a device the check cannot place a copy on: unwatched
            return
        watch = self.watches[key] = Watch(call, positions, variables, given,
                                           replica=self.rec.thread_number(),
                                           tally=Tally(len(variables)))
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
        watch.last = {i: id(g) for i, g in enumerate(gradients) if g is not None}
        try:
            with self.rec.quiet(), tfp.stop_recording(), tf.name_scope("tapemagic_moved"):
                if tfp.executing_eagerly():
                    if watch.runs < RUNS and self.rec.thread_number() == watch.replica:
                        watch.runs += 1
                        # plain ops, never a tf.function of the check's own: each would be
                        # one more trace in TensorFlow's retracing count, and its "triggered
                        # tf.function retracing" warning would then reach the user's output
                        count_eager(watch, gradients)
                    return
                graph = tfp.get_default_graph()
                if id(graph) in watch.graphs:
                    return
                count_traced(watch, gradients, RUNS)
                watch.graphs.add(id(graph))
                while graph is not None:  # the step and the functions that call it
                    watch.callers.add(id(graph))
                    watch.held.append(graph)
                    graph = getattr(graph, "outer_graph", None)
                if watch not in self._traced:
                    self._traced.append(watch)
                self._patch_calls()
        except Exception:  # noqa: BLE001 - the step runs unwatched rather than not at all
            return

    def _called(self, function: Any) -> None:
        """After an eager call of a traced function: tally the watched steps it ran."""
        with self.rec.quiet():
            try:
                called = id(tfp.cached_function_graph(function))
                for watch in [w for w in self._traced if called in w.callers]:
                    self._look(watch)
            except Exception:  # noqa: BLE001 - never break the user's call for our bookkeeping
                pass

    def _look(self, watch: Watch) -> None:
        """Tally a traced step's last checked run if one ran since the last look."""
        runs = look(watch)
        if runs is not None and runs >= RUNS:
            self._traced.remove(watch)

    def finish(self) -> None:
        """Write every watch's tallies into its call record; drop the watches."""
        with self.rec.quiet():
            for watch in list(self._traced):
                try:
                    self._look(watch)  # a run no eager call showed (a call made elsewhere)
                except Exception:  # noqa: BLE001 - a device gone: the runs tallied stand
                    continue
            for watch in self.watches.values():
                tally = watch.tally
                watch.call.checked_runs = tally.runs
                for i, position in enumerate(watch.positions):
                    if tally.runs >= MIN_ZERO_RUNS and tally.zero[i] == tally.runs:
                        watch.call.zeroed.append((position, tally.runs))
                    if (tally.emptied >= MIN_INTERVALS and tally.zapped[i] == tally.emptied
                            and tally.moved[i] == 0 and i in watch.given_serials):
                        watch.call.emptied.append((position, tally.emptied,
                                                   watch.given_serials[i]))
                        watch.call.emptied_apply = watch.apply_loc
                    if tally.stuck[i] >= MIN_INTERVALS and tally.moved[i] == 0:
                        watch.call.unmoved.append((position, int(tally.stuck[i])))
                        if i not in watch.given:
                            watch.call.unmoved_apply = watch.apply_loc
        self.watches.clear()
        self._index.clear()
        self._traced.clear()


