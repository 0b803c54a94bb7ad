"""In-graph facts of a traced step: its gradients' values, seen by the step as written.

Imports TensorFlow. A ``tf.function`` step (``fit``'s train function, a ``@tf.function`` that
calls ``apply_gradients``) usually applies its gradients inside the graph: the trace knows they
are not None, but not whether they are all zero. While the analysed gradient call is traced,
:class:`Probes` adds a few ops to the step's own graph that compute, per gradient, whether it
is zero everywhere and its sum of squares, and per op on their paths whose registered gradient
reads its values (a ReLU, a clip, a fake-quant, a softmax: ``saturation.py``) whether that
gradient, called on the op with ones, gives its input zeros everywhere. They are written into
one small variable of the probe's own, which the run reads once, after the step's first run:
one host read per checked step, no per-op reads, so the check stays cheap on an accelerator.

The step's outputs, its variables and its other ops are unchanged: the probe only reads
tensors the step computes anyway, and writes a variable nothing else reads. Under a
``tf.distribute`` strategy every replica traces the step's call into the one step graph (on
the threads the strategy starts, which belong to the check): the first replica's gradients are
probed, and the probe is written once per graph. The variable is the check's own (made
outside the strategy's variable creator, ``tfp.host_variable``), so no replica syncs it and no
collective op is added: each worker of a ``MultiWorkerMirroredStrategy`` reads its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import tensorflow as tf

from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import zero_factors
from tapemagic.tracing.saturation import MAX_ASKED, gated, on_path, zero_flag

if TYPE_CHECKING:
    from tapemagic.trace import OpRecord, SourceRecord
    from tapemagic.tracing.recorder import Recorder

#: Not written yet: a flag is 0 or 1, a sum of squares is never negative.
_UNSET = -1.0
_FLOATS = ("float16", "bfloat16", "float32", "float64")


@dataclass(eq=False)  # compared by identity: its fields hold tensors (`==` runs an op)
class _Probe:
    """One traced gradient call's probe: what it measures and the variable it writes.

    ``positions`` are the probed gradients' places in the call's result, ``op_names`` the
    graph names of the saturating ops: a later trace of the same call (the retrace after a
    first call that made variables, which is the one that runs) writes the same facts.
    """

    variable: Any
    sources: list[SourceRecord]
    ops: list[OpRecord]
    positions: list[int]
    op_names: list[str]
    weights: list[Any]  # each probed source's variable (None for a tensor source)
    #: id() of the step graphs that write it: under a ``tf.distribute`` strategy every replica
    #: traces its copy of the call into the same graph, and one replica's facts are written
    graphs: set[int] = field(default_factory=set)
    #: ops whose gradient another input may zero (a mask, a divisor), and their inputs' makers
    factors: list[zero_factors.Asked] = field(default_factory=list)


@dataclass
class Probes:
    """The probes of one run: candidates noted at trace time, probes armed, facts read."""

    rec: Recorder
    #: id(FuncGraph) -> the saturating ops traced in it: (record, op type, inputs, outputs)
    candidates: dict[int, list[tuple[OpRecord, str, tuple[Any, ...], tuple[Any, ...]]]] = \
        field(default_factory=dict)
    armed: list[_Probe] = field(default_factory=list)
    by_site: dict[object, _Probe] = field(default_factory=dict)

    def note(self, op: OpRecord, op_type: str, inputs: tuple[Any, ...],
             outputs: tuple[Any, ...], graph: Any) -> None:
        """Remember a saturating op traced in ``graph`` (its saturation is built in-graph)."""
        self.candidates.setdefault(id(graph), []).append((op, op_type, inputs, outputs))

    def arm(self, site: object, sources: list[SourceRecord], variables: list[Any],
            pairs: list[tuple[Any, SourceRecord]], targets: tuple[int, ...] = (),
            ) -> list[tuple[Any, SourceRecord]]:
        """Probe the symbolic gradients ``pairs`` (tensor, source) of one traced call.

        ``sources`` are the call's source records in order and ``variables`` the objects the
        code passed as sources (a variable's value when the call ran is one of the facts).
        Returns the pairs it could not probe (they stay pending on the function's outputs).
        """
        graph = pairs[0][0].graph if pairs else None
        if graph is None:
            return pairs
        probed = [(g, s) for g, s in pairs
                  if g.graph is graph and tfp.dtype_name(g.dtype) in _FLOATS]
        if not probed:
            return pairs
        index = {id(s): n for n, s in enumerate(sources)}
        positions = [index[id(s)] for _, s in probed]
        weights = [variables[p] if p < len(variables) and s.kind != "tensor" else None
                   for p, (_, s) in zip(positions, probed, strict=True)]
        ops, factors = self._asked(graph, [s for _, s in probed], targets)
        held = {c[0].seq: c for c in self.candidates.get(id(graph), ())}
        for entry in factors:
            entry.name = held[entry.op.seq][3][0].op.name
        facts = self._write(graph, [g for g, _ in probed], weights,
                            [(t, i, o, c.data_input) for c, t, i, o in ops], None,
                            (factors, [(held[e.op.seq][2], held[e.op.seq][3], None)
                                      for e in factors]))
        if facts is None:
            return pairs
        probe = _Probe(facts, [s for _, s in probed], [c[0] for c in ops], positions,
                       [o[0].op.name if o else "" for _, _, _, o in ops], weights, {id(graph)},
                       factors)
        self.armed.append(probe)
        self.by_site[site] = probe
        kept = {id(s) for _, s in probed}
        return [(g, s) for g, s in pairs if id(s) not in kept]

    def _asked(self, graph: Any, sources: list[SourceRecord], targets: tuple[int, ...],
               ) -> tuple[list[tuple[OpRecord, str, tuple[Any, ...], tuple[Any, ...]]],
                          list[zero_factors.Asked]]:
        """Return the candidates of ``graph`` on the probed sources' paths that are asked.

        Those whose registered gradient to input 0 reads its values (saturation.gated), at
        most ``MAX_ASKED``, the nearest the sources first; and the ops whose gradient reads
        another input (zero_factors.py).
        """
        candidates = {c[0].seq: c for c in self.candidates.get(id(graph), ())}
        if not candidates:
            return [], []
        nodes = [n for s in sources
                 if (n := s.handle if s.handle is not None else s.tensor) is not None]
        trace, attrs = self.rec.trace, self.rec.op_attrs
        chosen = []
        with self.rec.quiet():
            path = on_path(trace, nodes, targets)
            for op in path:
                found = candidates.get(op.seq)
                if found is not None and gated(trace, op, attrs.get(op.seq)):
                    chosen.append(found)
                    if len(chosen) >= MAX_ASKED:
                        break
            factors = zero_factors.plan(trace, attrs, path, set(nodes), set(candidates))
        return chosen, factors

    def rearm(self, site: object, flat: list[Any]) -> None:
        """Write the facts of a later trace of an armed call into the same probe.

        TensorFlow traces a step again when its first call made variables (an optimizer's
        slots), and runs that trace: its gradients and saturating ops, matched by position and
        graph name, feed the probe the analysed trace armed.
        """
        probe = self.by_site.get(site)
        if probe is None or probe not in self.armed:
            return
        values = [getattr(flat[p], "values", flat[p]) if p < len(flat) else None
                  for p in probe.positions]
        graph = next((v.graph for v in values if isinstance(v, tfp.SymbolicTensor)), None)
        if graph is None or id(graph) in probe.graphs:  # another replica of a probed trace
            return
        probe.graphs.add(id(graph))
        gradients = [v if isinstance(v, tfp.SymbolicTensor) and v.graph is graph
                     and tfp.dtype_name(v.dtype) in _FLOATS else None for v in values]
        ops = []
        for name, op in zip(probe.op_names, probe.ops, strict=True):
            try:
                found = graph.get_operation_by_name(name)
            except (KeyError, ValueError):
                found = None
            ops.append((op.op_type, tuple(found.inputs), tuple(found.outputs), op.data_input)
                       if found is not None else None)
        self._write(graph, gradients, probe.weights, ops, probe.variable,
                    (probe.factors, zero_factors.graph_ops(graph, probe.factors)))

    def _write(self, graph: Any, gradients: list[Any], weights: list[Any], ops: list[Any],
               variable: Any, factors: tuple[list[zero_factors.Asked], list[Any]]) -> Any:
        """Build the facts in ``graph`` and their write; return the variable (None: failed).

        The write sits in a ``tf.cond`` on the variable being unwritten: the first run of the
        step computes and writes the facts, every later run only reads one element, so the
        steps after the checked one cost (almost) what they cost without the check.
        """
        count = 3 * len(gradients) + len(ops) + zero_factors.count(factors[0])
        try:
            with self.rec.quiet(), graph.as_default(), tf.name_scope("tapemagic_probe"):
                if variable is None:
                    with tf.init_scope():
                        variable = tfp.host_variable(
                            tf.fill([count], tf.constant(_UNSET, tf.float32)))
                target = variable

                def write() -> Any:
                    extra = zero_factors.flags(*factors)
                    facts = _facts(gradients, weights, ops)
                    if extra:
                        facts = tf.concat([facts, tf.cast(tf.stack(extra), tf.float32)], 0)
                    target.assign(facts)
                    return tf.constant(True)

                unwritten = tf.equal(target[0], tf.constant(_UNSET, tf.float32))
                tf.cond(unwritten, write, lambda: tf.constant(False))
        except Exception:  # noqa: BLE001 - an op the probe cannot build: the step goes unprobed
            return None
        return variable

    def read(self) -> bool:
        """Read every armed probe whose step ran; return True when one was resolved."""
        if not self.armed:
            return False
        with self.rec.quiet():  # the reads are ours, not the user's ops
            done = [(probe, tfp.read_host_variable(probe.variable)) for probe in self.armed]
        resolved = False
        for probe, values in done:
            if values is None or values.size == 0 or values[0] == _UNSET:
                continue  # that step has not run yet
            self.armed.remove(probe)
            resolved = True
            n, k = len(probe.sources), len(probe.ops)  # the layout of _facts
            for i, source in enumerate(probe.sources):
                zero, zero_value = float(values[i]), float(values[n + i])
                squares = float(values[2 * n + k + i])
                if zero == 1.0:
                    source.result, source.norm = "zero", 0.0
                elif squares >= 0.0:  # else the trace that ran did not have this gradient
                    source.norm = math.sqrt(squares)
                if probe.weights[i] is not None:  # its value when the call ran (first_step.py)
                    source.zero_value = zero_value == 1.0
            for j, op in enumerate(probe.ops):
                op.saturated, op.probed = bool(values[2 * n + j] == 1.0), True
            zero_factors.apply(probe.factors, values[3 * n + k:])
        return resolved

    def clear(self) -> None:
        """Drop every graph tensor and variable (end of the run)."""
        self.candidates.clear()
        self.armed.clear()
        self.by_site.clear()


def _facts(gradients: list[Any], weights: list[Any], ops: list[Any]) -> Any:
    """Return the probe's facts as one float32 vector, built with few ops.

    Layout, for n gradients and k ops: per gradient whether it is zero everywhere, per weight
    whether its value is all zero (0 for a tensor source), per op whether its registered
    gradient gives its input zeros (saturation.py), as 0 or 1; then per gradient its sum of
    squares (-1 when the trace that runs lacks it). The flags are stacked and cast once, and
    each rank's reduction axes and each dtype's zero are made once (every op made here
    is paid at trace time, and again by the function's first run that optimises it).
    """
    shared: dict[object, Any] = {}

    def const(key: object, make: Any) -> Any:
        if key not in shared:
            shared[key] = make()
        return shared[key]

    def axes(value: Any) -> Any:  # every axis: one constant per rank
        rank = value.shape.rank
        return None if rank is None else const(("rank", rank),
                                                   lambda: tf.constant(list(range(rank)), tf.int32))

    def all_zero(value: Any) -> Any:
        zero = const(("dtype", value.dtype), lambda: tf.zeros([], value.dtype))
        return tf.reduce_all(tf.equal(value, zero), axis=axes(value))

    false = tf.constant(False)
    zeros, squares = [], []
    for gradient in gradients:
        if gradient is None:
            zeros.append(false)
            squares.append(tf.constant(-1.0))
            continue
        zeros.append(all_zero(gradient))
        wide = tf.cast(gradient, tf.float32)
        squares.append(tf.reduce_sum(tf.square(wide), axis=axes(wide)))
    # the weight is read where the call ran: automatic control dependencies order the read
    # after the step's earlier writes of it and before its optimizer's update
    values = [false if w is None else all_zero(tf.convert_to_tensor(w)) for w in weights]
    flags = [_op_flag(*o) if o is not None else false for o in ops]
    return tf.concat([tf.cast(tf.stack(zeros + values + flags), tf.float32),
                      tf.stack(squares)], axis=0)


def _op_flag(op_type: str, inputs: tuple[Any, ...], outputs: tuple[Any, ...],
             index: int = 0) -> Any:
    """Return True when the op's registered gradient gives its data input zeros (saturation.py).

    Built in the step's graph from the op itself: the ops its gradient function adds read
    what the step computes anyway (a ReLU's gradient reads its output).
    """
    del inputs  # the op holds them
    try:
        flag = zero_flag(op_type, outputs[0].op, outputs, index)
    except Exception:  # noqa: BLE001 - one op's gradient we cannot build leaves the rest probed
        flag = None
    return tf.constant(False) if flag is None else flag
