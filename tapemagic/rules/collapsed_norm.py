"""A normalisation over axes of size 1: its centred value is zero whatever its input. TF-free.

A normalisation centres its input on its mean over some axes (``x - mean(x)``, or the
``SquaredDifference(x, mean(x))`` of its variance: Keras' BatchNormalization, LayerNormalization,
GroupNormalization all compute ``moments``). When every axis the mean reduces has size 1 (a
batch of one under BatchNormalization in training, a LayerNormalization over a last axis of
size 1, instance or group statistics of 1x1 maps), the mean is the input itself: the centred
value is exactly zero, the layer outputs its offset, and every zero gradient after it (the
weights before it, its scale, a ReLU after it that now sits at zero) has that one cause. The
facts read: the ``Mean`` op's recorded static shapes (its input has as many elements as its
output: nothing was averaged) and that the same tensor is both the centring op's input and
the mean's. The line that made the axis size 1 is the one to change: the batch axis comes
from ``fit``'s batch (its ``batch_size=`` argument, at the gradient call's line), any other
from the layer's own configuration (its line).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from math import prod

from tapemagic.graph.walks import forward
from tapemagic.rules.context import RuleContext
from tapemagic.trace import OpRecord, RawLocation

#: ops that centre their first input on their second
_CENTRING = frozenset({"Sub", "SquaredDifference"})
#: ops a mean may pass through on its way to the centring op (moments' stop_gradient)
_PASSING = frozenset({"StopGradient", "Identity"})


@dataclass(frozen=True)
class Collapse:
    """A centring op over axes of size 1, and whether the batch axis is one of them."""

    centring: OpRecord
    batch: bool
    #: the tensors computed from the centred value (the layer's output and all after it)
    reach: frozenset[int]


def collapses(ctx: RuleContext) -> list[Collapse]:
    """Return every centring op of the trace whose mean reduced only axes of size 1."""
    found = []
    for op in ctx.graph.ops.values():
        if op.op_type not in _CENTRING or len(op.inputs) != 2 or op.in_gradient:
            continue
        mean = _mean_of(ctx, op.inputs[1])
        if mean is not None and mean.inputs and mean.inputs[0] == op.inputs[0]:
            shape = ctx.trace.tensors[op.inputs[0]].shape
            out = ctx.trace.tensors[mean.outputs[0]].shape if mean.outputs else None
            if _all_ones_reduced(shape, out):
                assert shape is not None
                reach = forward(ctx.graph, set(op.outputs), set(ctx.trace.tensors), False)
                found.append(Collapse(op, shape[0] == 1, frozenset(reach)))
    return found


def _mean_of(ctx: RuleContext, tensor: int) -> OpRecord | None:
    """Return the ``Mean`` that made ``tensor`` (through a stop_gradient or an identity)."""
    for _ in range(4):
        maker = ctx.trace.producer_of(tensor)
        if maker is None:
            return None
        if maker.op_type == "Mean":
            return maker
        if maker.op_type not in _PASSING or not maker.inputs:
            return None
        tensor = maker.inputs[0]
    return None


def _all_ones_reduced(shape: tuple[int | None, ...] | None,
                      out: tuple[int | None, ...] | None) -> bool:
    """Return True when a mean from ``shape`` to ``out`` averaged one element each time."""
    if shape is None or out is None or not shape or any(d is None for d in (*shape, *out)):
        return False
    if 1 not in shape:
        return False
    return prod(d for d in shape if d is not None) == prod(d for d in out if d is not None)


def explaining(op: OpRecord, found: list[Collapse]) -> Collapse | None:
    """Return the collapse whose zero centred value reaches ``op`` (itself, or an op after it)."""
    for collapse in found:
        if collapse.centring.seq == op.seq or any(t in collapse.reach for t in op.inputs):
            return collapse
    return None


def place_of(ctx: RuleContext, collapse: Collapse, step: RawLocation | None,
             ) -> tuple[RawLocation | None, str]:
    """Return the line that made the axis size 1 and the reason to give there."""
    layer = collapse.centring.layer.rsplit("/", 1)[-1] or "the normalisation"
    if collapse.batch and step is not None:
        given = _batch_size_argument(ctx, step)
        return given or step, (
            f"`{layer}` normalises over a batch of one: the mean of one sample is the sample, "
            "so its centred value is exactly zero whatever the weights before it, the layer "
            "outputs its offset, and no gradient gets through (use batches of two or more, or "
            "a normalisation that does not average over the batch)")
    where = collapse.centring.layer_loc or collapse.centring.loc
    return where, (
        f"`{layer}` normalises over axes of size 1: the mean over them is the input itself, "
        "so its centred value is exactly zero whatever the weights before it and no gradient "
        "gets through (normalise over an axis with more than one element)")


def _batch_size_argument(ctx: RuleContext, step: RawLocation) -> RawLocation | None:
    """Return the ``batch_size=`` argument of the call at ``step`` (``fit``), if it has one."""
    call = ctx.index.call_at(step) or None
    if call is None:
        line = ctx.index.line_call(step)
        call = ctx.index.call_at(line) if line is not None else None
    for keyword in call.keywords if isinstance(call, ast.Call) else ():
        if keyword.arg == "batch_size":
            return RawLocation(step.file, keyword.lineno, keyword.end_lineno, keyword.col_offset,
                               keyword.end_col_offset, step.function)
    return None
