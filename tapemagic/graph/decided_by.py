"""The upstream op whose own argument gave a biting op's input the property that makes it bite.

TF-free. The op that zeroes a gradient (a softmax one-hot on every row, a clip every element
sits at, a ``top_k`` that keeps nothing) is where the zero shows, but often not what the user
must change: its input got the property from an op upstream, through that op's shape
argument, bounds or type, not through the values the run was given. Each property below is a
fact read from the trace (recorded shapes, the scalar constants a traced graph froze,
``Trace.scalar_constants``, an op type's range), and the walk back follows only the input that
carries it, through ops that keep it:

- an axis of one element: a softmax over an axis of size 1 is 1 whatever its input; the
  ``Reshape``, ``ExpandDims`` or slice whose output has a size-1 axis its input did not
  have made it;
- one element kept per row: a ``MatrixBandPart`` with both bounds 0 (the diagonal only) in
  the additive mask of a softmax's input leaves one key per row, so every row is one-hot;
- a range beyond a clip's bound: a ``Maximum`` with a positive constant bound over an input
  that can never exceed 0 (a ``log_softmax``'s log-probabilities) takes the bound everywhere,
  as does a ``Minimum`` with a negative bound over an input never below 0 (a ReLU's);
- a truncated count: an integer count (``top_k``'s ``k``) made by a ``Cast`` from a float,
  which truncates (a fraction of a small size becomes 0).

None when no such fact holds: the biting op's own line stays the finding's place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tapemagic.optypes import SUMS

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.trace import OpRecord

#: ops walked at most from the biting op's input back to the op that decided its property
DEPTH = 24

#: Ops whose output holds the elements of their first input, rearranged or relabelled: an
#: axis, a range or a count they pass on is their input's.
_KEEPING = frozenset({"Identity", "IdentityN", "Cast", "Reshape", "Transpose", "ExpandDims",
                      "Squeeze", "BroadcastTo", "Tile", "StridedSlice", "Slice", "GatherV2",
                      "StopGradient", "PreventGradient", "EnsureShape", "CheckNumerics"})
#: Ops that make a size-1 axis from their shape argument, or a slice's bounds (``x[:, None]``,
#: ``x[:, :1]``).
_RESHAPING = frozenset({"Reshape", "ExpandDims", "StridedSlice", "Slice"})
#: Ops whose output is never above 0 / never below 0, whatever their input (their definitions).
_NEVER_POSITIVE = frozenset({"LogSoftmax"})
_NEVER_NEGATIVE = frozenset({"Relu", "Relu6", "Softplus", "Exp", "Sigmoid", "Softmax", "Abs",
                             "Square", "Sqrt"})
#: Elementwise ops through which an additive mask reaches a softmax's input.
_MASK_ARITHMETIC = SUMS | frozenset({"Mul", "Neg", "Cast", "Identity", "Select", "SelectV2"})
_FLOAT = ("float", "bfloat", "half")


@dataclass(frozen=True, slots=True)
class Decided:
    """An upstream op that made a property, and which property.

    ``what``: ``one-element-axis``, ``diagonal-mask``, ``never-positive``,
    ``never-negative`` or ``truncated-count``.
    """

    op: OpRecord
    what: str


def decided_by(graph: ProvenanceGraph, op: OpRecord) -> Decided | None:
    """Return the upstream op whose argument made ``op`` zero every gradient, if one did."""
    if op.op_type == "Softmax":
        return _one_element_axis(graph, op) or _diagonal_mask(graph, op)
    if op.op_type in ("Maximum", "Minimum") and op.saturated:
        return _beyond_bound(graph, op)
    if op.op_type == "TopKV2" and op.saturated:
        return _truncated_count(graph, op.inputs[1] if len(op.inputs) > 1 else None)
    return None


def _ones(graph: ProvenanceGraph, serial: int) -> int | None:
    """Return how many axes of tensor ``serial`` have size 1, None when its shape is unknown."""
    record = graph.trace.tensors.get(serial)
    if record is None or record.shape is None:
        return None
    return sum(1 for size in record.shape if size == 1)


def _one_element_axis(graph: ProvenanceGraph, softmax: OpRecord) -> Decided | None:
    """Return the reshape that made a softmax's last axis one element long, if one did."""
    record = graph.trace.tensors.get(softmax.inputs[0]) if softmax.inputs else None
    if record is None or not record.shape or record.shape[-1] != 1:
        return None
    makers: dict[int, OpRecord] = {}
    stack, seen = [softmax.inputs[0]], set[int]()
    while stack and len(seen) < DEPTH * 4:
        tensor = stack.pop()
        if tensor in seen or not _ones(graph, tensor):
            continue  # the size-1 axis does not come through a tensor that has none
        seen.add(tensor)
        made = graph.trace.producer_of(tensor)
        if made is None:
            continue
        first = _ones(graph, made.inputs[0]) if made.inputs else None
        if made.op_type in _RESHAPING and first is not None and first < (_ones(graph, tensor) or 0):
            earlier = _restored(graph, made, tensor)
            if earlier is None:
                makers[made.seq] = made
            else:  # a layer's reshape back to its input's shape: the axis is older
                stack.append(earlier)
            continue
        stack.extend(made.inputs)
    places = {(m.layer_loc or m.loc) for m in makers.values()}
    if len(makers) < 1 or len(places) != 1 or None in places:
        return None  # none, or several lines each made one: no single line to change
    return Decided(min(makers.values(), key=lambda m: m.seq), "one-element-axis")


def _restored(graph: ProvenanceGraph, reshape: OpRecord, tensor: int) -> int | None:
    """Return an earlier tensor of ``tensor``'s shape that ``reshape``'s input came from.

    A Keras ``Dense`` on a rank-3 input flattens it to rank 2, multiplies, and reshapes the
    product back: that reshape restores the size-1 axis its input had, it did not make it.
    """
    tensors = graph.trace.tensors
    shape = tensors[tensor].shape if tensor in tensors else None
    stack, seen = list(reshape.inputs[:1]), set[int]()
    while stack and len(seen) < DEPTH:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        record = tensors.get(current)
        if record is not None and record.shape == shape and current != tensor:
            return current
        made = graph.trace.producer_of(current)
        if made is not None:
            stack.extend(made.inputs)
    return None


def _diagonal_mask(graph: ProvenanceGraph, softmax: OpRecord) -> Decided | None:
    """Return a diagonal-only band (``band_part(x, 0, 0)``) added to a softmax's input."""
    if not softmax.saturated or not softmax.inputs:
        return None
    constants = graph.trace.scalar_constants
    stack, seen = [softmax.inputs[0]], set[int]()
    while stack and len(seen) < DEPTH:
        tensor = stack.pop()
        if tensor in seen:
            continue
        seen.add(tensor)
        made = graph.trace.producer_of(tensor)
        if made is None:
            continue
        if made.op_type == "MatrixBandPart" and len(made.inputs) == 3:
            bounds = [constants.get(made.inputs[i]) for i in (1, 2)]
            if bounds == [0.0, 0.0]:
                return Decided(made, "diagonal-mask")
            continue
        if made.op_type in _MASK_ARITHMETIC:
            stack.extend(made.inputs)
    return None


def _beyond_bound(graph: ProvenanceGraph, clamp: OpRecord) -> Decided | None:
    """Return the op whose range puts every element of a clamp's input past its bound."""
    data = clamp.data_input if clamp.data_input < len(clamp.inputs) else 0
    if len(clamp.inputs) != 2:
        return None
    bound = graph.trace.scalar_constants.get(clamp.inputs[1 - data])
    if bound is None:
        return None
    lower = clamp.op_type == "Maximum"  # max(x, b): a floor; min(x, b): a ceiling
    if (lower and bound <= 0.0) or (not lower and bound >= 0.0):
        return None
    ranged = _NEVER_POSITIVE if lower else _NEVER_NEGATIVE
    # the other clamp of a clip on the way keeps the side: min(x, c) <= x, max(x, c) >= x
    passing = _KEEPING | {"Minimum" if lower else "Maximum"}
    tensor = clamp.inputs[data]
    for _ in range(DEPTH):
        made = graph.trace.producer_of(tensor)
        if made is None or not made.inputs:
            return None
        if made.op_type in ranged:
            return Decided(made, "never-positive" if lower else "never-negative")
        if made.op_type not in passing:
            return None
        tensor = _carried(graph, made)
    return None


def _carried(graph: ProvenanceGraph, op: OpRecord) -> int:
    """Return the input of ``op`` that carries its data: not a recorded constant operand."""
    constants = graph.trace.scalar_constants
    kept = [t for t in op.inputs if t not in constants]
    return kept[0] if kept else op.inputs[0]


def _truncated_count(graph: ProvenanceGraph, tensor: int | None) -> Decided | None:
    """Return the float-to-integer ``Cast`` that made integer count ``tensor``, if one did."""
    for _ in range(DEPTH):
        made = graph.trace.producer_of(tensor) if tensor is not None else None
        if made is None or not made.inputs or made.op_type not in _KEEPING:
            return None
        source = graph.trace.tensors.get(made.inputs[0])
        if made.op_type == "Cast" and source is not None and source.dtype.startswith(_FLOAT):
            return Decided(made, "truncated-count")
        tensor = made.inputs[0]
    return None
