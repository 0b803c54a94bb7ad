"""Zeros that reached an op from the loss side: the op did not make them.

TF-free. A value-checked op (a ReLU with no active unit, a clip at its bounds) is reported as
the op that zeroed the weights before it only when a gradient reached it. The probe asks the
op's registered gradient with ones (``tracing/saturation.py``), not with the gradient the run
gave it, so it cannot tell by itself. One fact of the run can: a weight added to a tensor
below the op (``Add``/``AddV2``/``BiasAdd``/``Sub``: their registered gradients pass the
incoming gradient through unchanged, summed over the broadcast axes) got an all-zero gradient
on the same run while its own path does not cross the op. Then the gradient flowing
into that sum, which is the one flowing on to the op, was zero there already: the loss itself
weighted the batch by zero (zero sample weights on padding, a task whose labels are all
missing). The op being inactive on that batch is then no evidence of a cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapemagic.graph import walks
from tapemagic.optypes import SUMS, VALUE_CHECKED, ZERO_GRADIENT

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import SourceAnalysis
    from tapemagic.trace import OpRecord


def clear(graph: ProvenanceGraph, results: list[SourceAnalysis], connected: set[int]) -> None:
    """Drop, in place, the zero-at-runtime causes at value-checked ops the loss gave nothing.

    ``tf.sign`` (zero whatever comes in) and a difference of equal terms keep theirs.
    """
    cleared: dict[int, bool] = {}
    for found in results:
        if found.verdict != "zero" or not found.causes:
            continue
        kept = []
        for cause in found.causes:
            op = graph.ops.get(cause.op_seq or -1)
            if (cause.cause == "zero-at-runtime" and op is not None
                    and op.op_type in VALUE_CHECKED and op.seq not in graph.trace.self_cancelling):
                if op.seq not in cleared:
                    cleared[op.seq] = zero_from_below(graph, results, connected, op)
                if cleared[op.seq]:
                    continue
            kept.append(cause)
        if len(kept) < len(found.causes):
            found.causes = kept
            found.path = found.path if kept else []


def zero_from_below(graph: ProvenanceGraph, sources: list[SourceAnalysis], connected: set[int],
                    op: OpRecord) -> bool:
    """Return True when the gradient reaching ``op`` from the loss was already all zero.

    Witnessed by a source whose gradient was all zero in the analysed run (the run whose
    values showed the op inactive) that a sum reads beside
    a tensor ``op``'s output reaches, and reaches the loss through that sum alone (its gradient
    is the sum's incoming gradient, reduced), and whose own paths cross neither ``op`` nor any
    other op that may zero a gradient (its zero is then the loss's own).
    """
    below = walks.forward(graph, set(op.outputs), connected, diff_only=True)
    for found in sources:
        node = found.node
        if node is None or found.result != "zero":
            continue
        values = set(graph.read_values(node, node in graph.reads))
        reach = walks.forward(graph, values, connected, diff_only=True)
        if reach & set(op.outputs) or _zeroing_on(graph, reach):
            continue  # its own path crosses the op, or another that zeroes: its zero is theirs
        consumers = _consumers(graph, connected, values)
        # one consumer: its gradient is that sum's incoming gradient alone (no other term
        # that could cancel it)
        if len(consumers) == 1 and consumers[0].op_type in SUMS and any(
                t in below for t in consumers[0].inputs if t not in values):
            return True
    return False


def _consumers(graph: ProvenanceGraph, connected: set[int], values: set[int]) -> list[OpRecord]:
    """Return the forward ops on the call's path that read one of ``values`` (a weight's reads)."""
    found: dict[int, OpRecord] = {}
    for value in values:
        for edge in graph.out_edges.get(value, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" and edge.differentiable else None
            if op is not None and not op.in_gradient and any(
                    out in connected for out in op.outputs):
                found[op.seq] = op
    return list(found.values())


def _zeroing_on(graph: ProvenanceGraph, reach: set[int]) -> bool:
    """Return True when an op that may zero a gradient lies on a path inside ``reach``.

    ``tf.sign``, a difference of equal terms, an op the values showed saturated, or one
    traced in a graph that no probe asked (it may be).
    """
    for tensor in reach:
        for edge in graph.out_edges.get(tensor, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" and edge.dst in reach else None
            if op is not None and (op.op_type in ZERO_GRADIENT or op.saturated
                                   or op.seq in graph.trace.self_cancelling
                                   or (op.graph and not op.probed
                                       and op.op_type in VALUE_CHECKED)):
                return True
    return False
