"""Zeros the next update removes: a gradient zeroed by a zero weight that is itself trained.

TF-free. A residual branch whose output is scaled by a weight that starts at zero (ReZero's
``alpha = 0``, Fixup's zero-initialised last layer or last batch-normalisation scale, a
zero-initialised final ``Dense``) gives every weight inside the branch an exactly zero
gradient on the first step: the branch's output is multiplied by zero. The zero weight gets a
gradient of its own, so the optimizer moves it at once, and from the second step on the
branch trains. That is by design, not a cut.

A zero gradient counts when, with the call's recorded facts: a source of the same call holds
an all-zero value (``SourceRecord.zero_value``) and got a non-zero gradient; the tensors made
from it by multiplication and zero-keeping ops (``optypes.MULTIPLYING``, ``ZERO_KEEPING``) are
zero; and every differentiable path from the zeroed source to the target enters a
multiplication beside such a zero factor. Its ``zero-at-runtime`` causes are dropped (verdict
``zero``, no finding) unless the tracer saw the op saturate on this batch's values (a ReLU
dead for any weight, such as a bias-free layer with a zero kernel: its zero weight gets a zero
gradient itself, so it is no trained factor and stays dead).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from tapemagic.optypes import MULTIPLYING, SUMS, ZERO_AT_ZERO, ZERO_GRADIENT, ZERO_KEEPING

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis, SourceAnalysis


def forgive(graph: ProvenanceGraph, analyses: list[CallAnalysis],
            ) -> list[tuple[CallAnalysis, list[str], list[str]]]:
    """Clear the causes of the zeros a trained zero weight makes on this step only.

    Returns (call, the zeroed sources' names, the zero weights' names) per call changed, for
    a note.
    """
    changed = []
    for analysis in analyses:
        zeroed = [s for s in analysis.sources if s.result == "zero"
                  and s.verdict == "zero" and s.node is not None and _forgivable(graph, s)]
        scales = [s for s in analysis.sources if s.source.zero_value and s.node is not None
                  and s.result == "ok" and s.norm != 0.0]
        if not zeroed or not scales:
            continue
        zeros = zero_tensors(graph, [s.node for s in scales if s.node is not None])
        targets = set(analysis.call.targets)
        names, used = [], set()
        for source in zeroed:
            assert source.node is not None
            stopped = crossed(graph, source.node, analysis.connected, targets, zeros)
            if stopped is not None:
                source.causes, source.path = [], []
                names.append(source.source.name)
                used |= stopped
        if names:
            changed.append((analysis, names, [scales[i].source.name for i in sorted(used)]))
    return changed


def _forgivable(graph: ProvenanceGraph, source: SourceAnalysis) -> bool:
    """Return True unless a cause was seen on the values (a dead ReLU, a ``tf.sign``)."""
    for cause in source.causes:
        op = graph.ops.get(cause.op_seq or -1)
        if cause.cause != "zero-at-runtime" or op is None or op.saturated or (
                op.op_type in ZERO_GRADIENT):
            return False
    return True


def zero_tensors(graph: ProvenanceGraph, nodes: list[int], sums: bool = False,
                 ) -> dict[int, int]:
    """Return each tensor that is zero because a zero weight is: tensor -> that weight's index.

    ``sums``: also through ops that are zero at zero (``optypes.ZERO_AT_ZERO``: a tanh) and
    sums of zeros only (a bias added to a zero product when the bias is zero too).
    """
    zeros: dict[int, int] = {}
    queue = deque((out, i) for i, node in enumerate(nodes)
                  for out in graph.read_values(node, node in graph.reads))
    while queue:
        tensor, origin = queue.popleft()
        if tensor in zeros:
            continue
        zeros[tensor] = origin
        for edge in graph.out_edges.get(tensor, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is not None and (op.op_type in MULTIPLYING or (
                    op.op_type in ZERO_KEEPING and op.inputs[:1] == (tensor,)) or (sums and (
                    (op.op_type in ZERO_AT_ZERO and op.inputs[:1] == (tensor,))
                    or (op.op_type in SUMS and all(i in zeros or i == tensor
                                                   for i in op.inputs))))):
                queue.append((edge.dst, origin))
    return zeros


def crossed(graph: ProvenanceGraph, node: int, within: set[int], targets: set[int],
             zeros: dict[int, int]) -> set[int] | None:
    """Return the zero weights whose products stop every path from ``node`` to a target.

    None when ``node`` reaches a target without entering a product beside a zero.
    """
    seen, crossed = {node}, set()
    queue = deque([node])
    while queue:
        current = queue.popleft()
        if current in targets:
            return None
        for edge in graph.out_edges.get(current, ()):
            if edge.dst in seen or edge.dst not in within or not edge.differentiable:
                continue
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            factors = [zeros[other] for other in op.inputs if other != current
                       and other in zeros] if op is not None and op.op_type in MULTIPLYING else []
            if factors:
                crossed.update(factors)  # this input's gradient is the output's times a zero
                continue
            seen.add(edge.dst)
            queue.append(edge.dst)
    return crossed
