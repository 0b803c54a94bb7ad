"""Weights a derivative-only loss cannot see: no gradient, by design.

TF-free. A Hamiltonian network's loss is built from dH/dx (an inner ``tape.gradient(H, x)``), a
physics-informed network's from du/dx (``batch_jacobian``), a force field's from the energy's
gradient. A weight that only shifts the inner target by a constant (the last layer's bias)
changes none of those derivatives: TensorFlow gives it None, exactly, and the model trains as
meant (Keras' optimizers skip a None gradient). That is no cut to fix.

A source counts when TensorFlow returned None for it, the analysis found no other cause than
"not connected" (or none at all: the path is there, the value is not), the call's target
depends on the output of an earlier gradient call's backward pass, and the source feeds that
earlier call's target only by adding to it (a bias, sums of it: ``_shifts_only``). Its
verdict becomes ``zero`` ("no gradient, by design"), as for ``unconnected_gradients=ZERO``
(``none_handling.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapemagic.graph.walks import forward

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis


def forgive(graph: ProvenanceGraph, analyses: list[CallAnalysis],
            ) -> list[tuple[CallAnalysis, CallAnalysis, list[str]]]:
    """Mark the sources a derivative-only loss cannot reach as given no gradient by design.

    Only in a call where another source got a gradient (when none does, nothing trains).
    Returns (call, the earlier call whose derivatives make its loss, source names) per call
    changed, for a note.
    """
    changed = []
    for analysis in analyses:
        candidates = [s for s in analysis.sources
                      if s.result == "none" and s.node is not None
                      and s.verdict in ("severed", "unexplained")
                      and all(c.cause == "not-connected" for c in s.causes)]
        if not candidates or not any(s.result == "ok" for s in analysis.sources):
            continue
        earlier = [a for a in analyses if a is not analysis and a.call.seq < analysis.call.seq
                   and _derivatives_reach(graph, a, analysis, analyses)]
        names = []
        inner = None
        for source in candidates:
            inner = next((a for a in earlier if source.node in a.ancestors
                          and _shifts_only(graph, source.node, a.ancestors)), None)
            if inner is not None:
                source.verdict, source.causes, source.path = "zero", [], []
                names.append(source.source.name)
        if names and inner is not None:
            changed.append((analysis, inner, names))
    return changed


#: ops through which a weight can only shift what is differentiated by a constant: a bias
#: added, a sum or mean of shifts, a reshape (x + b stays x + b), the variable's read
_SHIFT_OPS = frozenset({"ReadVariableOp", "Identity", "BiasAdd", "Add", "AddV2", "AddN",
                        "Sub", "Sum", "Mean", "Reshape", "ExpandDims", "Squeeze"})


def _shifts_only(graph: ProvenanceGraph, node: int, within: set[int]) -> bool:
    """Return True when every op from ``node`` to the earlier call's target adds it in.

    Then the weight moves that target by a constant, whatever the input, and no derivative
    can see it. A weight behind a matmul, an activation, a ``tf.round`` is another matter:
    its None is a cut (a network whose input went through ``tf.round``, a sub-network added
    where it should condition).
    """
    reach = forward(graph, node, within, diff_only=False)
    for tensor in reach:
        for edge in graph.out_edges.get(tensor, ()):
            if edge.dst in reach and (edge.kind != "op"
                                      or graph.ops[edge.ref].op_type not in _SHIFT_OPS):
                return False
    return True


def _derivatives_reach(graph: ProvenanceGraph, inner: CallAnalysis, outer: CallAnalysis,
                       analyses: list[CallAnalysis]) -> bool:
    """Return True when ``outer``'s target depends on a tensor ``inner``'s backward pass made.

    The call is numbered when it starts (``GradientCallRecord.seq``); its backward ops follow,
    recorded ``in_gradient``, before the next call starts.
    """
    start = inner.call.seq
    end = min((a.call.seq for a in analyses if a.call.seq > start), default=start)
    for tensor in outer.ancestors:
        record = graph.trace.tensors.get(tensor)
        producer = record.producer if record is not None else None
        op = graph.ops.get(producer[0]) if producer is not None else None
        if op is not None and op.in_gradient and start < op.seq < end:
            return True
    return False
