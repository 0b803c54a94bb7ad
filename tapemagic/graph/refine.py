"""Refinements of the cut analysis for code the user did not write or errors they caught.

TF-free. :func:`missing_gradient` finds the op a caught ``LookupError`` names when another path
connects the source; :func:`needed` drops the cuts a built-in Keras layer makes by design when
the user's own cuts alone explain the source.
"""

from __future__ import annotations

from collections.abc import Callable
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
        op = graph.ops.get(cause.edge.ref) if cause.edge and cause.edge.kind == "op" else None
        module = (op.api_module or "") if op is not None else ""
        if op is None or not op.layer or not module.startswith("keras.") or module.startswith(
                "keras.src.ops"):
            continue  # the user's own op (a keras.ops call in a loss runs in a Keras scope too)
        rest = [c for c in kept if c is not cause]
        if rest and reconnects(graph, node, anc, targets, {id(c.edge) for c in rest}):
            kept = rest
    return kept
