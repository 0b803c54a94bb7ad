"""A straight-through estimator written with its terms swapped: the stop_gradient is the cut.

TF-free. ``q + tf.stop_gradient(z - q)`` with ``q = tf.round(z)`` cuts twice: the rounding
(its registered gradient is None) and the ``stop_gradient`` (around the one differentiable
term). Both are first cuts, but the rounding's result also enters the ``stop_gradient``: the
user wrote an estimator around that op, and the line to change is the estimator (swap the
terms: ``z + tf.stop_gradient(q - z)``), once the ``stop_gradient`` alone passes the gradient.
"""

from __future__ import annotations

from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import Cause
from tapemagic.graph.walks import forward, reconnects


def swapped(graph: ProvenanceGraph, node: int, anc: set[int], targets: set[int],
            causes: list[Cause]) -> list[Cause]:
    """Drop a first non-differentiable cut whose result feeds a first stop_gradient cut."""
    stops = [c for c in causes if c.primary and c.cause == "stop-gradient" and c.edge]
    if not stops or not reconnects(graph, node, anc, targets, {id(c.edge) for c in stops}):
        return causes
    inputs = {c.edge.src for c in stops if c.edge is not None}
    dropped: set[int] = set()
    for cause in causes:
        edge = cause.edge
        op = graph.ops.get(edge.ref) if edge is not None and edge.kind == "op" else None
        if not cause.primary or cause.cause != "non-differentiable-op" or op is None:
            continue
        if inputs & forward(graph, set(op.outputs), anc, diff_only=True):
            dropped.add(id(cause))
    return [c for c in causes if id(c) not in dropped]
