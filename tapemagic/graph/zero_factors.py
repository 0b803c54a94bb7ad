"""Zeros made through another input: an all-zero mask, an all-false condition, a zero divisor.

TF-free. A weight's gradient was zero in every checked step (``GradientCallRecord.zeroed``,
two steps at least: a zero the next update removes is not one) and no cut explains it. The
probe (``tracing/zero_factors.py``) saw, on the step's own values, ops whose registered
gradient to the input the weights reach them through was zero because another input they
read was all zero (``OpRecord.zero_factors``): the mask a product multiplies by, the
condition of a select, the divisor of ``divide_no_nan``. A weight every differentiable path
of which enters such an op through that input is explained by it, and the zero is walked back
through the ops that kept it zero (``OpRecord.zero_values``: a ``Cast``, a product with a zero
factor) to where it was made: a comparison (the mask's line), a variable that holds zeros (its
initialiser), a constant. That origin is the line the user must change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tapemagic.graph import walks, zero_weights
from tapemagic.optypes import (
    COMPARISON_OPS,
    GATING_INPUTS,
    MULTIPLYING,
    RANDOM_OPS,
    READ_OPS,
    ZERO_KEEPING,
)

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis
    from tapemagic.trace import OpRecord

#: ops that make a zero from data or code: where the walk back ends at the user's line
_MAKERS = COMPARISON_OPS | READ_OPS | {"Const", "Fill", "ZerosLike", "OneHot"}
#: ops whose every output element is an element of their first input (``mask[..., None]``)
_PICKING = frozenset({"StridedSlice", "Slice", "GatherV2"})
#: ``OneHot``'s on_value input (array_ops.one_hot: indices, depth, on_value, off_value)
_ON_VALUE = 2
#: ops walked back from a zero factor to its origin at most
DEPTH = 12
#: ops whose output is all zero exactly when their first input is (every element is kept)
_SAME_ZEROS = frozenset({"Cast", "Identity", "Reshape", "ExpandDims", "Squeeze", "Transpose",
                         "Neg", "BroadcastTo", "Tile"})
#: quotients: an all-zero output is an all-zero numerator (a finite divisor) the probe may not
#: read (fused into the division); not divide_no_nan, whose zero may be its divisor's
_DIVIDING = frozenset({"RealDiv", "Div"})
#: a Keras loss object's module: a zero constant it made is a setting it was made with
_LOSS_OBJECT = "keras.src.losses"


@dataclass
class Origin:
    """Where a zero factor was made, and what it zeroed in one gradient call."""

    op: OpRecord  # the op that made the zero (a read: the variable holds zeros)
    factor: OpRecord  # the first op it zeroed a gradient at (nearest the weights)
    sources: list[int] = field(default_factory=list)  # the call's sources it explains


def origins(graph: ProvenanceGraph, analysis: CallAnalysis) -> list[Origin]:
    """Return the origins of the zero factors that explain the call's zeroed sources."""
    sources = analysis.sources
    found: dict[int, Origin] = {}
    targets = set(analysis.call.targets)
    # zero weights that keep each other zero, a dead op's zeros: their own findings (TM501)
    explained, _, by_dead = zero_weights.kept_zero(graph, analysis)
    downstream: list[tuple[int, OpRecord]] = []
    for i, once in _zeroed(analysis):
        if i >= len(sources) or i in explained or i in by_dead:
            continue
        source = sources[i]
        if source.node is None or source.verdict != "zero" or source.causes:
            continue
        ops = _crossed(graph, source.node, analysis.connected, targets)
        if not ops:
            continue
        walked = [(op, *_walk(graph, op)) for op in sorted(ops, key=lambda o: o.seq)]
        first, made, tensor = walked[0]
        if _constant(graph, made, tensor) and not configured(graph, made):
            # `0.0 * kl`: the user's own number (TM504), unless a loss object's setting is too
            other = next((w for w in walked[1:] if configured(graph, w[1])), None)
            if other is None:
                continue
            first, made, tensor = other
        if _set_later(graph, analysis, made, first):
            continue  # a schedule the program sets after this step (an auxiliary loss weight)
        if once and not fixed_by_data(graph, first):
            continue  # one step only: a zero a weight upstream makes, the next update may move
        if not _maker(first, made):
            downstream.append((i, first))
            continue
        entry = found.setdefault(made.seq, Origin(made, first))
        if first.seq < entry.factor.seq:
            entry.factor = first
        entry.sources.append(i)
    for i, factor in downstream:
        # no origin of its own (a sum of another factor's zeros): the origin upstream of it
        above = _upstream(graph, factor, found.values())
        if above is not None:
            above.sources.append(i)
    return [found[seq] for seq in sorted(found)]


def scheduled(graph: ProvenanceGraph, analysis: CallAnalysis) -> set[int]:
    """Return the zeroed sources whose zero factor is a variable the run assigns later.

    Their zero is the program's schedule (:func:`_set_later`): no finding of their own either
    (TM118 leaves them alone).
    """
    targets = set(analysis.call.targets)
    out = set()
    for i, _ in _zeroed(analysis):
        node = analysis.sources[i].node if i < len(analysis.sources) else None
        ops = _crossed(graph, node, analysis.connected, targets) if node is not None else []
        if ops:
            first = min(ops, key=lambda o: o.seq)
            if _set_later(graph, analysis, _walk(graph, first)[0], first):
                out.add(i)
    return out


def _zeroed(analysis: CallAnalysis) -> list[tuple[int, bool]]:
    """Return the sources to explain, each with True when only one checked step saw it zero.

    Zero in every checked step, two at least (``GradientCallRecord.zeroed``), or, for a call
    site that ran once, zero in that run: such a zero counts only when no update can move it
    (:func:`fixed_by_data`), a zero-initialised scale (ReZero) zeroes its branch on step one.
    """
    call = analysis.call
    if call.zeroed or call.checked_runs != 1:
        return [(i, False) for i, _ in call.zeroed]
    return [(i, True) for i, source in enumerate(analysis.sources)
            if source.result == "zero" and source.source.trainable]


def fixed_by_data(graph: ProvenanceGraph, factor: OpRecord) -> bool:
    """Return True when nothing an update or a later step changes made ``factor``'s zero input.

    Walked back over every recorded edge (``walks.backward``): no variable (a resource handle
    or its read: a trained weight, a step counter, a random generator's state) and no
    stateful random op is upstream, so the zero comes from the data and the code alone (an
    out-of-range ``one_hot`` index) and the next step's update cannot remove it.
    """
    tensors, trace = graph.trace.tensors, graph.trace
    above = _above(graph, factor)
    for tensor in above:
        record = tensors.get(tensor)
        if record is None or record.dtype == "resource" or record.leaf == "handle":
            return False
        op = trace.producer_of(tensor)
        if op is not None and (op.op_type in READ_OPS or op.op_type in RANDOM_OPS):
            return False
    return True


def _above(graph: ProvenanceGraph, factor: OpRecord) -> set[int]:
    """Return every tensor upstream of ``factor``'s (first) zero input, that input included."""
    return walks.backward(graph, {factor.inputs[factor.zero_factors[0][1]]}, lambda _: True)


def _upstream(graph: ProvenanceGraph, factor: OpRecord,
              found: Iterable[Origin]) -> Origin | None:
    """Return the found origin whose factor's output ``factor``'s zero input comes from."""
    above = _above(graph, factor)
    feeding = [entry for entry in found if any(out in above for out in entry.factor.outputs)]
    return max(feeding, key=lambda entry: entry.factor.seq, default=None)  # the nearest


def _crossed(graph: ProvenanceGraph, node: int, within: set[int], targets: set[int],
             zeros: set[int] | None = None) -> list[OpRecord]:
    """Return the zero-factor ops that stop every path from ``node`` (empty: one gets through).

    ``zeros``: instead of the probe's facts, the tensors known to be zero (a loop's state
    that never changes): a product beside one of them stops the path.
    """
    seen, stopped = {node}, {}
    queue = deque([node])
    while queue:
        current = queue.popleft()
        if current in targets:
            return []
        for edge in graph.out_edges.get(current, ()):
            if edge.dst in seen or edge.dst not in within or not edge.differentiable:
                continue
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is not None and not op.in_gradient and (any(
                    op.inputs[i] == current for i, _ in op.zero_factors) if zeros is None else (
                    op.op_type in MULTIPLYING and any(t in zeros and t != current
                                                      for t in op.inputs))):
                stopped[op.seq] = op
                continue
            seen.add(edge.dst)
            queue.append(edge.dst)
    return list(stopped.values())


def origin(graph: ProvenanceGraph, factor: OpRecord) -> OpRecord | None:
    """Return the op that made ``factor``'s zero input, walked back through kept zeros.

    None when the walk found no maker (:func:`_maker`) or the zero is a number the user wrote
    (:func:`_constant`): no line of its own to report.
    """
    made, tensor = _walk(graph, factor)
    return made if _maker(factor, made) and (
        configured(graph, made) or not _constant(graph, made, tensor)) else None


def _walk(graph: ProvenanceGraph, factor: OpRecord) -> tuple[OpRecord, int]:
    """Return the op that made ``factor``'s zero input and the last zero tensor walked."""
    tensor = factor.inputs[factor.zero_factors[0][1]]
    made = factor
    for _ in range(DEPTH):
        op = graph.trace.producer_of(tensor)
        if op is None:
            return made, tensor
        made = op
        gates = GATING_INPUTS.get(op.op_type, frozenset())
        kept = [k for k in op.zero_values or () if k not in gates]  # an axis 0 is no zero
        if not kept and op.op_type in _SAME_ZEROS | _PICKING | _DIVIDING:
            # its input left unread (fused): all zero out means all zero in, or (a slice, a
            # gather) the zeros it picked are elements its input's maker made
            kept = [0]
        if op.op_type in READ_OPS or op.op_type in COMPARISON_OPS or not kept:
            return op, tensor  # a variable's zeros, a comparison that is all false, a constant
        if op.op_type == "OneHot" and _ON_VALUE not in kept:
            return op, tensor  # a non-zero on_value: no index in range made the zero rows
        tensor = op.inputs[kept[0]]
    return made, tensor


def same_inputs(graph: ProvenanceGraph, made: OpRecord) -> bool:
    """Return True when ``made`` is a ``Sub`` whose terms the same ops made from equal data.

    A difference that is all zero while neither term is (the probe saw no zero input) is two
    equal values. Walked back in step, both terms are the same ops on the same tensors down
    to different inputs of the run that no op made (a model's two inputs fed one array: a
    siamese pair built from one input): the zero was made where those inputs were given.
    The same tensor on both sides is a structural cancellation (``tracing/cancel.py``).
    """
    if made.op_type != "Sub" or len(made.inputs) != 2 or made.zero_values:
        return False
    pairs, seen, leaves = [made.inputs], set(), 0
    while pairs:
        a, b = pairs.pop()
        if a == b or (a, b) in seen:
            continue
        seen.add((a, b))
        if len(seen) > 4 * DEPTH:
            return False
        left, right = graph.trace.producer_of(a), graph.trace.producer_of(b)
        if left is None and right is None:
            leaves += 1  # two inputs of the run: equal by the data given
            continue
        if (left is None or right is None or left.op_type != right.op_type
                or len(left.inputs) != len(right.inputs) or left.graph != right.graph):
            return False
        pairs.extend(zip(left.inputs, right.inputs, strict=True))
    return leaves > 0


def _maker(factor: OpRecord, made: OpRecord) -> bool:
    """Return True when the walk back from ``factor`` ended where its zero was made.

    A comparison (the mask's line), a variable's read (its initialiser), an op that makes
    zeros or one-hot rows, or a value no recorded op made (data): the user's line. A walk that
    stops at an op whose inputs the probe did not see as zero (a mean of a cut's zeros, a
    dropout of rate 1 upstream) found no origin: the cut before it is the finding.
    """
    return made is factor or made.op_type in _MAKERS or made.op_type == "Sub"


def _constant(graph: ProvenanceGraph, made: OpRecord, tensor: int) -> bool:
    """Return True when the zero the walk ended at is a number the user wrote, not a value.

    A literal ``0.0 * kl``, or a Python number a traced step froze into its graph (a scalar
    made by no op, or by a ``Const``): the user chose it (``ctx.frozen_zero`` / TM504 reports
    one the code sets again and again). A zero a comparison or a variable made, or a mask of
    many elements, is a value the data or training decides.
    """
    record = graph.trace.tensors.get(tensor)
    if record is None or record.shape is None or any(d != 1 for d in record.shape):
        return False  # a mask or a tensor of zeros: data or code decided each element
    return (tensor in graph.trace.zero_constants or made.op_type == "Const"
            or record.leaf == "constant")


def _set_later(graph: ProvenanceGraph, analysis: CallAnalysis, made: OpRecord,
               factor: OpRecord) -> bool:
    """Return True when ``made`` reads a variable no gradient trains that the run wrote later.

    A variable that is not one of the call's sources changes only when the program assigns
    it (``Trace.variable_writes``: the last ``assign*``, also after per-op recording stopped).
    Assigned after the zero factor ran (a loss weight a callback raises after the first epoch,
    a warmup gate), its zero in the checked steps is the program's schedule, which no fact of
    the run tells from a forgotten setting. A source's zero (its gradient zero too, so no
    update moves it: ``task_weights`` made with ``tf.zeros``) stays the finding.
    """
    if made.op_type not in READ_OPS or not made.inputs:
        return False
    if variable_source(analysis, graph, made) is not None:
        return False
    return graph.trace.variable_writes.get(made.inputs[0], -1) > factor.seq


def configured(graph: ProvenanceGraph, made: OpRecord) -> bool:
    """Return True when ``made`` made a zero from a Keras loss object's settings.

    ``Huber(delta=0.0)`` multiplies by ``delta`` in its ``__call__`` (``OpRecord.api_module``):
    a ``Const`` in a trace, eagerly a one-element constant no op made that ``made`` reads.
    A zero the user's own expression wrote (``0.0 * kl``) is theirs (:func:`_constant`).
    """
    if not (made.api_module or "").startswith(_LOSS_OBJECT):
        return False
    if made.op_type == "Const":
        return True
    tensor = made.inputs[made.zero_factors[0][1]] if made.zero_factors else None
    return tensor is not None and graph.trace.producer_of(tensor) is None and _constant(
        graph, made, tensor)


def variable_source(analysis: CallAnalysis, graph: ProvenanceGraph,
                    read: OpRecord) -> int | None:
    """Return the index of the call's source whose value ``read`` read (None: no source)."""
    for i, source in enumerate(analysis.sources):
        node = source.node
        if node is not None and node in graph.reads and any(
                out in read.outputs for out in graph.read_values(node, True)):
            return i
    return None


def loop_zeros(graph: ProvenanceGraph, analysis: CallAnalysis,
               ) -> list[tuple[OpRecord, list[int]]]:
    """Return the products a loop's never-updated zero state zeroes, and the sources stopped.

    A ``While`` body that returns a loop variable as it got it (``Trace.loop_unchanged``: a
    recurrent cell returning its incoming state) sees the loop's initial value there in every
    iteration; when that value is zero (Keras' zero initial state), a product in the body
    beside it passes zeros to its other factor (the recurrent kernel) in every iteration and
    every step. Read from the graph's structure, for the sources zero in every checked step
    that nothing else explains.
    """
    unchanged = graph.trace.loop_unchanged
    if not unchanged or not analysis.call.zeroed:
        return []
    starts = [u for u in unchanged if any(_static_zero(graph, e.src, 0)
                                          for e in graph.in_edges.get(u, ()))]
    zeros = _kept_zero(graph, starts)
    if not zeros:
        return []
    targets = set(analysis.call.targets)
    found: dict[int, tuple[OpRecord, list[int]]] = {}
    explained, _, by_dead = zero_weights.kept_zero(graph, analysis)
    for i, _ in analysis.call.zeroed:
        if i in explained or i in by_dead:
            continue
        source = analysis.sources[i] if i < len(analysis.sources) else None
        if source is None or source.node is None or source.verdict != "zero" or source.causes:
            continue
        ops = _crossed(graph, source.node, analysis.connected, targets, zeros)
        if ops:
            first = min(ops, key=lambda o: o.seq)
            found.setdefault(first.seq, (first, []))[1].append(i)
    return [found[seq] for seq in sorted(found)]


def _static_zero(graph: ProvenanceGraph, tensor: int, depth: int) -> bool:
    """Return True when ``tensor`` is zero by construction (a zero constant, a fill of one)."""
    if tensor in graph.trace.zero_constants:
        return True
    op = graph.trace.producer_of(tensor)
    if op is None or depth > DEPTH:
        return False
    if op.op_type == "Fill" and len(op.inputs) == 2:
        return _static_zero(graph, op.inputs[1], depth + 1)
    if op.op_type in ZERO_KEEPING and op.inputs:
        return _static_zero(graph, op.inputs[0], depth + 1)
    return op.op_type in MULTIPLYING and any(_static_zero(graph, t, depth + 1)
                                             for t in op.inputs)


def _kept_zero(graph: ProvenanceGraph, starts: list[int]) -> set[int]:
    """Return the tensors zero because ``starts`` are: through products and zero-keeping ops."""
    zeros: set[int] = set()
    queue = deque(starts)
    while queue:
        tensor = queue.popleft()
        if tensor in zeros:
            continue
        zeros.add(tensor)
        for edge in graph.out_edges.get(tensor, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is not None and not op.in_gradient and (op.op_type in MULTIPLYING or (
                    op.op_type in ZERO_KEEPING and op.inputs[:1] == (tensor,))):
                queue.append(edge.dst)
    return zeros
