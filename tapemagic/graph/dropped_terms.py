"""Loss terms built from another gradient outside the tape, added in: they train nothing.

TF-free. The shape of a WGAN-GP whose gradient penalty is computed before the critic's tape
opens (``gp = gradient_penalty(real, fake)`` above ``with tf.GradientTape() as tape:``): the
penalty is a function of the critic's weights through an inner ``tape.gradient``, but the
critic's tape recorded none of it, so ``d_loss = ... + 10.0 * gp`` adds a constant and the
penalty trains nothing. Every weight still gets a gradient from the other terms, so no source
is severed; the cut is one term's.

Only a term built from the *results of another gradient call* counts (a penalty on gradients
is never meant as a constant), and only when it joins the target affinely (added, subtracted,
scaled by a tensor that does not depend on the weights, reduced): then it provably contributes
nothing to any weight's gradient. A value that multiplies a term that does depend on the
weights (an adaptive loss weight computed from gradient norms, on purpose outside the tape)
changes the gradient and is left alone, as is anything not derived from a gradient (a target
network's value, an old policy's log-probability: constants by design).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from tapemagic.graph.walks import backward, forward

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis
    from tapemagic.trace import OpRecord

#: Ops that pass each input through affinely (sums, reductions, reshapes, casts).
_AFFINE = frozenset({"AddV2", "Add", "AddN", "Sub", "Neg", "Mean", "Sum", "Identity", "Cast",
                     "Reshape", "ExpandDims", "Squeeze", "BroadcastTo"})
#: Ops affine in one input when every other input is a constant of the weights.
_SCALING = frozenset({"Mul", "RealDiv"})


def dropped_terms(graph: ProvenanceGraph, analysis: CallAnalysis) -> list[tuple[OpRecord,
                                                                                  list[int]]]:
    """Return (the op that made a dropped term, indices of the sources it should train).

    A dropped term: a tensor on the target's recorded path whose own op ran while the tape did
    not record, computed from another gradient call's results, that reaches the target only
    through affine ops. Its sources: the call's connected sources the term depends on (the
    weights the penalty was meant to train).
    """
    tape, targets = analysis.tape, set(analysis.call.targets)
    anc = analysis.ancestors
    if tape is None or not targets or not any(
            op.in_gradient and any(o in anc for o in op.outputs) for op in graph.ops.values()):
        return []  # the target reads no backward pass (every plain training step): done
    recorded = analysis.connected
    unrecorded = backward(graph, targets, lambda e: e.differentiable) - recorded
    derived = _gradient_derived(graph, unrecorded)
    candidates: list[tuple[int, OpRecord]] = []
    for node in recorded:
        record = graph.trace.tensors.get(node)
        made = graph.ops.get(record.producer[0]) if record is not None and record.producer else None
        if made is not None and not graph.trace.recorded_by(tape, made.seq) and (
                made.in_gradient or any(i in derived for i in made.inputs)):
            candidates.append((node, made))
    if not candidates:
        return []
    weighted = forward(graph, {s.node for s in analysis.sources if s.node is not None},
                       recorded, True)
    found = [made for node, made in candidates
             if _affine_to(graph, node, targets, recorded, weighted)]
    if not found:
        return []
    depends = backward(graph, {o for op in found for o in op.outputs},
                       lambda e: e.differentiable)
    indices = [i for i, s in enumerate(analysis.sources)
               if s.verdict == "connected" and s.node is not None and s.node in depends]
    # one term may pass several such tensors into the sum: the last made is the term
    return [(max(found, key=lambda op: op.seq), indices)] if indices else []


def _gradient_derived(graph: ProvenanceGraph, unrecorded: set[int]) -> set[int]:
    """Return the unrecorded tensors made by, or computed from, a backward pass's ops."""
    start = {n for n in unrecorded if n in graph.trace.tensors
             and (p := graph.trace.tensors[n].producer) is not None
             and (op := graph.ops.get(p[0])) is not None and op.in_gradient}
    return forward(graph, start, unrecorded, True)


def _affine(op: OpRecord, node: int, weighted: set[int]) -> bool:
    """Tell whether ``op`` is affine in its input ``node`` (its other inputs weight-free)."""
    if op.op_type in _AFFINE:
        return True
    if op.op_type not in _SCALING:
        return False
    if op.op_type == "RealDiv" and op.inputs and op.inputs[0] != node:
        return False  # a divisor: not affine
    return all(i not in weighted for i in op.inputs if i != node)


def _affine_to(graph: ProvenanceGraph, start: int, targets: set[int], recorded: set[int],
               weighted: set[int]) -> bool:
    """Tell whether every recorded path from ``start`` to a target passes only affine ops."""
    seen, queue = {start}, deque([start])
    while queue:
        node = queue.popleft()
        if node in targets:
            continue
        for edge in graph.out_edges.get(node, ()):
            if edge.dst not in recorded or edge.dst in seen or not edge.differentiable:
                continue
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is None or not _affine(op, node, weighted):
                return False
            seen.add(edge.dst)
            queue.append(edge.dst)
    return True
