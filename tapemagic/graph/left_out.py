"""A loss term computed from the weights and left out of the target. TF-free.

The shape of an actor-critic step that computes ``value_loss`` from the value head and then
sums only the policy and entropy terms: the head's one path to the target crosses the
``tf.stop_gradient`` the user wrote on purpose (the advantage), so the cut analysis finds a
stop-gradient cut; the cut the user must fix is that the term computed for the head never
reaches the target. The term is a float scalar computed in the tape from the source along
differentiable edges that the target does not depend on; the place is the op that built the
target (the total loss). Read by TM104 (which reports it) and TM401 (which then leaves the
deliberate ``stop_gradient`` alone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapemagic.trace import OpRecord

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis, SourceAnalysis

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def left_out_term(graph: ProvenanceGraph, analysis: CallAnalysis,
                  source: SourceAnalysis) -> tuple[OpRecord, OpRecord] | None:
    """Return (the op that computed the left-out term, the op that built the target), or None.

    Only for a source that got no gradient and whose every cause is a ``tf.stop_gradient``
    written in the user's code; the term is the last float scalar computed from the source
    in the tape along differentiable edges that is not among the target's ancestors.
    """
    node, trace = source.node, graph.trace
    if node is None or source.result != "none" or not source.causes:
        return None
    for cause in source.causes:
        op = graph.ops.get(cause.edge.ref) if cause.edge is not None else None
        if (cause.cause != "stop-gradient" or op is None or op.op_type != "StopGradient"
                or op.loc is None or op.in_gradient):
            return None
    targets = analysis.call.targets
    built = trace.tensors.get(targets[0]) if len(targets) == 1 else None
    target_op = graph.ops.get(built.producer[0]) if built and built.producer else None
    if target_op is None or target_op.loc is None:
        return None
    recorded, anc = trace.span_test(analysis.tape), analysis.ancestors
    seen, stack, term = {node}, [node], None
    while stack:
        for edge in graph.out_edges.get(stack.pop(), ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if (not edge.differentiable or op is None or op.in_gradient
                    or not recorded(op.seq) or edge.dst in seen):
                continue
            seen.add(edge.dst)
            stack.append(edge.dst)
            record = trace.tensors.get(edge.dst)
            if (edge.dst not in anc and record is not None and record.shape == ()
                    and record.dtype in _FLOATS and op.loc is not None
                    and (term is None or op.seq > term.seq)):
                term = op
    return (term, target_op) if term is not None else None
