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

import math
from collections import deque
from typing import TYPE_CHECKING

from tapemagic.graph import walks
from tapemagic.graph.first_step import crossed, zero_tensors
from tapemagic.optypes import MULTIPLYING, RANDOM_OPS

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis
    from tapemagic.trace import OpRecord


def kept_zero(graph: ProvenanceGraph, analysis: CallAnalysis,
              ) -> tuple[list[int], list[int], list[int]]:
    """Return the sources explained, the zero weights that explain them, and the others.

    All as source indices, among the sources of ``analysis`` whose gradient was zero in every
    checked run and for which the analysis found no cause. A source whose paths meet a zero
    made by a dead op (a ReLU with no active unit, a fake-quant clamping every element to a
    floor of 0: another rule's finding) goes to the third list: that finding explains it, as
    it explains the layer behind the op.
    """
    explained, used, by_dead = _zero_origins(graph, analysis)
    return explained, used, sorted(i for found in by_dead.values() for i in found)


def zeroed_by_dead(graph: ProvenanceGraph, analysis: CallAnalysis) -> dict[int, list[int]]:
    """Return, per dead op (its seq), the zeroed sources that read its all-zero output.

    ``head/kernel`` after a fake-quant whose every output is 0: its gradient is its input
    activations times the output's, and those activations are all zero. Only a source every
    path of which enters a product beside that op's zeros (``crossed``).
    """
    return _zero_origins(graph, analysis)[2]


def _dead_ops(graph: ProvenanceGraph) -> list[OpRecord]:
    """Return the forward ops whose gradient and output were all zero on the run's values."""
    return [op for op in graph.ops.values() if op.saturated and not op.in_gradient
            and (op.op_type == "Relu" or op.zero_output)]


def stuck_runs(analysis: CallAnalysis) -> tuple[dict[int, int], bool]:
    """Return {source index: checked runs} of the zeroed sources, and whether one run saw them.

    ``GradientCallRecord.zeroed`` (zero in every checked run, two at least), else, for a call
    site that ran once, its sources zero in that run (``True``): those count only where the
    zero holds itself in place (:func:`_held`).
    """
    call = analysis.call
    if call.zeroed or call.checked_runs != 1:
        return dict(call.zeroed), False
    return {i: 1 for i, s in enumerate(analysis.sources) if s.result == "zero"}, True


def _held(graph: ProvenanceGraph, op: OpRecord, zero: set[int]) -> bool:
    """Return True when a dead op reads nothing an update or the next batch can change.

    Walked back over the recorded ops from its inputs, to the variables' handles (not into
    what was assigned to them before): only variables whose own gradient is zero in this
    call (``zero``: their handles) and single numbers the code wrote. Its input is then the
    same on the next step, so it is dead again (``abs`` of a scale at 0: the scale's gradient
    is ``sign(0) = 0``); a ReLU dead on one batch of data is not.
    """
    tensors = graph.trace.tensors
    for tensor in walks.backward(graph, set(op.inputs), lambda edge: edge.kind == "op"):
        record = tensors.get(tensor)
        if record is None:
            return False
        producer = graph.trace.producer_of(tensor)
        if producer is not None:
            if producer.op_type in RANDOM_OPS:
                return False
            continue
        if record.dtype == "resource" or record.leaf == "handle":
            if tensor not in zero:
                return False
        elif record.shape is None or math.prod(d or 2 for d in record.shape) > 1:
            return False  # a batch of data, or values the code made that may differ
    return True


def _zero_origins(graph: ProvenanceGraph, analysis: CallAnalysis,
                  ) -> tuple[list[int], list[int], dict[int, list[int]]]:
    sources = analysis.sources
    runs, once = stuck_runs(analysis)
    stuck = sorted(i for i in runs if i < len(sources) and sources[i].node is not None)
    # one run: zero weights that keep each other zero are not told from a trained zero
    # scale (ReZero) yet; a dead op that holds itself dead is
    origins = [] if once else [i for i in stuck if sources[i].source.zero_value]
    dead_ops = _dead_ops(graph)
    if once:
        zero = {n for i in stuck if (n := sources[i].node) is not None}
        dead_ops = [op for op in dead_ops if _held(graph, op, zero)]
    dead = [(op, out) for op in dead_ops for out in op.outputs]
    if not stuck or not (origins or dead):
        return [], [], {}
    nodes = [n for i in origins if (n := sources[i].node) is not None]
    zeros = zero_tensors(graph, nodes + [out for _, out in dead], sums=True)
    targets = set(analysis.call.targets)
    explained: list[int] = []
    by_dead: dict[int, list[int]] = {}
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
            # the first dead op whose zeros it crosses (the one nearest the inputs)
            op = min((dead[k - len(origins)][0] for k in found if k >= len(origins)),
                     key=lambda o: o.seq)
            by_dead.setdefault(op.seq, []).append(i)
    return explained, sorted(used), by_dead


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
