"""Zeros no update removes: weights that start at zero and keep each other's gradients zero.

TF-free. The counterpart of ``first_step.py``. A product whose other factor is exactly zero
passes a zero gradient (``d(a*b)/da = b``). When that zero factor comes from weights that
start at zero (a ``kernel_initializer="zeros"`` everywhere) and whose own gradient is zero in
every checked step too (``GradientCallRecord.zeroed``: they never move), no update ever
removes it: each zero weight zeroes the others' gradients, step after step, and the network
never leaves its starting point. Read from the analysed run's graph: the zeroed sources that
hold an all-zero value are the origins; the tensors made from them by products, ops that are
zero at zero and sums of zeros are zero; a zeroed source whose every differentiable path to
the target enters a product beside such a zero is explained by them. A zero-initialised
scale that moves (ReZero, Fixup) is no origin: it is not in ``zeroed``.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from tapemagic.graph.first_step import crossed, zero_tensors
from tapemagic.optypes import MULTIPLYING

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis
    from tapemagic.trace import OpRecord


def kept_zero(graph: ProvenanceGraph, analysis: CallAnalysis,
              ) -> tuple[list[int], list[int], list[int]]:
    """Return the sources explained, the zero weights that explain them, and the others.

    All as source indices, among the sources of ``analysis`` whose gradient was zero in every
    checked run and for which the analysis found no cause. A source whose paths meet a zero
    made by a dead ReLU (an op whose output is all zero, another rule's finding) goes to the
    third list: that finding explains it, as it explains the layer behind the ReLU.
    """
    sources = analysis.sources
    stuck = sorted(i for i, _ in analysis.call.zeroed
                   if i < len(sources) and sources[i].node is not None)
    origins = [i for i in stuck if sources[i].source.zero_value]
    dead = [out for op in graph.ops.values() if op.op_type == "Relu" and op.saturated
            and not op.in_gradient for out in op.outputs]
    if not stuck or not (origins or dead):
        return [], [], []
    nodes = [n for i in origins if (n := sources[i].node) is not None]
    zeros = zero_tensors(graph, nodes + dead, sums=True)
    targets = set(analysis.call.targets)
    explained: list[int] = []
    derived: list[int] = []
    used: set[int] = set()
    for i in stuck:
        source = sources[i]
        if source.verdict != "zero" or source.causes or source.node is None:
            continue
        found = crossed(graph, source.node, analysis.connected, targets, zeros)
        if found and all(k < len(origins) for k in found):
            explained.append(i)
            used.update(origins[k] for k in found)
        elif found:
            derived.append(i)
    return explained, sorted(used), derived


def first_product(graph: ProvenanceGraph, node: int) -> OpRecord | None:
    """Return the first forward product that reads weight ``node``'s value (its layer's op)."""
    found = []
    for value in graph.read_values(node, node in graph.reads):
        for edge in graph.out_edges.get(value, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is not None and op.op_type in MULTIPLYING and not op.in_gradient:
                found.append(op)
    return min(found, key=lambda op: op.seq) if found else None


def may_cancel(graph: ProvenanceGraph, node: int, within: set[int]) -> bool:
    """Return True when weight ``node``'s paths to the target meet again at some op.

    Its gradient is then a sum of contributions, which may cancel exactly by the maths (a
    critic's last bias in ``critic(fake) - critic(real)``): a zero there is no evidence that
    nothing flows. A weight with one path and a zero gradient got nothing through it.
    """
    reached = set(graph.read_values(node, node in graph.reads))
    queue = deque(reached)
    while queue:
        tensor = queue.popleft()
        for edge in graph.out_edges.get(tensor, ()):
            if edge.dst in reached or edge.dst not in within or not edge.differentiable:
                continue
            reached.add(edge.dst)
            queue.append(edge.dst)
    for tensor in reached:
        for edge in graph.out_edges.get(tensor, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is not None and sum(i in reached for i in op.inputs) >= 2:
                return True
    return False
