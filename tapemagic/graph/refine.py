"""Refinements of the cut analysis for code the user did not write or errors they caught.

TF-free. :func:`missing_gradient` finds the op a caught ``LookupError`` names when another path
connects the source; :func:`needed` drops the cuts a built-in Keras layer makes by design when
the user's own cuts alone explain the source; :func:`behind` drops the cuts behind the first
ones that are not the user's to fix, and orders what is left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from tapemagic.graph.provenance import Edge, ProvenanceGraph
from tapemagic.graph.walks import forward, reconnects
from tapemagic.trace import GradientCallRecord, OpRecord

if TYPE_CHECKING:
    from tapemagic.graph.verdicts import Cause

_NO_GRADIENT = "gradient registry has no entry for: "


def missing_gradient(graph: ProvenanceGraph, call: GradientCallRecord, node: int,
                     anc: set[int]) -> list[Edge]:
    """Return the edges into the op whose gradient made the call raise.

    ``tape.gradient`` raises ``LookupError: gradient registry has no entry for: <type>`` when
    its backward pass meets an op whose type has no gradient (``ops.get_gradient_function``),
    and whatever a registered gradient function raises (``Trace.raising_gradients``: QR's
    ``NotImplementedError``), even when the source also reaches the target by a
    differentiable path; the user's code may catch it. The cut is each such op the source's
    gradient would flow into, else, for a source with a recorded path that does not pass it,
    each such op on the target's path: the call raised, so it gave that source nothing either.
    """
    raised = {seq for seq, (call_id, _) in graph.trace.raising_gradients.items()
              if call_id == call.id}
    message = call.error_message or ""
    if not raised and (call.error_type != "LookupError" or _NO_GRADIENT not in message):
        return []
    named = message.split(_NO_GRADIENT, 1)[1].split() if _NO_GRADIENT in message else []
    op_type = named[0] if named else ""

    def chosen(op: OpRecord) -> bool:
        return op.seq in raised if raised else op.op_type == op_type

    reach = forward(graph, node, anc, diff_only=True)
    return _into(graph, chosen, reach, anc) or _into(graph, chosen, anc, anc)


def _into(graph: ProvenanceGraph, chosen: Callable[[OpRecord], bool], reach: set[int],
          anc: set[int]) -> list[Edge]:
    """Return one cut edge into each chosen op that a tensor of ``reach`` enters."""
    edges: dict[int, Edge] = {}
    for src in reach:
        for edge in graph.out_edges.get(src, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if (op is not None and chosen(op) and edge.dst in anc
                    and edge.cause == "non-differentiable-op" and op.seq not in edges):
                edges[op.seq] = edge
    return [edges[seq] for seq in sorted(edges)]


def needed(graph: ProvenanceGraph, node: int, anc: set[int], targets: set[int],
           primary: list[Cause]) -> list[Cause]:
    """Drop the cuts a Keras layer made for the user when the others alone reconnect the source.

    A built-in layer cuts side paths by design (BatchNormalization's moments stop the gradient
    through the mean it subtracts; the input still reaches the output differentiably): behind
    the user's own cut (a ``tf.round`` after the layer) such a cut is on the path but is not
    one the user must fix. It stays when the user's cuts alone would not let the gradient
    through.
    """
    kept = list(primary)
    for cause in primary:
        if not _keras_own(graph, cause.edge):
            continue
        rest = [c for c in kept if c is not cause]
        if rest and reconnects(graph, node, anc, targets, {id(c.edge) for c in rest}):
            kept = rest
    return kept


def _keras_own(graph: ProvenanceGraph, edge: Edge | None) -> bool:
    """Return True for an op Keras' own code ran for a built-in layer, loss or metric.

    A ``keras.ops`` call in the user's loss runs in a Keras scope too: that one is the user's.
    """
    op = graph.ops.get(edge.ref) if edge is not None and edge.kind == "op" else None
    module = (op.api_module or "") if op is not None else ""
    return (op is not None and bool(op.layer) and module.startswith("keras.")
            and not module.startswith("keras.src.ops"))


def behind(graph: ProvenanceGraph, node: int, anc: set[int], targets: set[int],
           causes: list[Cause]) -> list[Cause]:
    """Keep the secondary cuts the user must fix too; mark the first cuts kept primary.

    A cut behind the first one (``Cause.primary`` False: no differentiable path from the
    source reaches its input) is kept when, once the cuts before it are fixed, it would still
    stop the gradient: a ``tf.sets`` op on the indices of a ``tf.argsort`` the user wrote must
    be replaced too. It is dropped when that is not so, or not the user's to change:

    - its input reaches the target differentiably by other edges (the comparison in a Keras
      loss's clip): fixed before, the gradient goes around it;
    - Keras' own code ran it on an integer input (the bounds check of an ``Embedding`` fed
      the user's ``tf.cast``): the layer takes indices by design, and the user's cut before it
      is the one to change. A built-in layer on a float input (a ``Discretization`` after the
      user's ``tf.round``) stays: the user must remove that layer too.

    When no cut left is primary (the first one was gated: the bucketing of a Keras metric's
    scores that only indexes its counts), each cut kept that no other kept cut precedes on the
    path is the first one the user meets and becomes primary.
    """
    tensors = graph.trace.tensors
    kept = [c for c in causes if c.primary or c.edge is None or not (
        targets & forward(graph, c.edge.src, anc, diff_only=True)
        or (_keras_own(graph, c.edge) and c.edge.src in tensors
            and not tensors[c.edge.src].trainable))]
    if not kept or any(c.primary for c in kept):
        return kept
    cut = {id(c.edge) for c in kept}
    first = _reach_around(graph, node, anc, cut)
    return [replace(c, primary=True) if c.edge is not None and c.edge.src in first else c
            for c in kept]


def _reach_around(graph: ProvenanceGraph, node: int, anc: set[int], cut: set[int]) -> set[int]:
    """Return the tensors ``node`` reaches by any edge but those in ``cut`` (ids)."""
    seen = {node}
    stack = [node]
    while stack:
        for edge in graph.out_edges.get(stack.pop(), ()):
            if edge.dst in anc and edge.dst not in seen and id(edge) not in cut:
                seen.add(edge.dst)
                stack.append(edge.dst)
    return seen
