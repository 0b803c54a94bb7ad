"""TM506 bias-before-batchnorm: a bias that a batch normalization cancels (information).

Matcher: a source of rank 1 (a bias of ``C`` channels) whose gradient came back as exact zeros
or round-off (an L2 norm below ``RATIO`` times the largest of its gradient call), added to a
tensor ``t`` of rank 2 or more whose last dimension is ``C``, where ``t`` (or its float32
cast) feeds a ``Mean`` or ``Sum`` that reduces every axis but the channels (the bias maybe
reshaped to ``(1, ..., 1, C)`` and squeezed back first, as Keras 3's convolutions add it): the batch
statistics of a BatchNormalization in training mode (Keras' ``moments``, ``tf.nn.moments``).
Normalizing subtracts that per-channel mean, so any per-channel constant, the bias included,
cancels: its gradient is zero up to round-off, and the normalization's own offset (``beta``)
plays its part. Correct code in many models; information only, for the user who asks why the
bias gradient is zero. Points at the layer (or the add) that adds the bias; silent on a layer
that Keras itself built (an application model), where the user has no line to change.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import Cause, SourceAnalysis
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.trace import OpRecord

#: A gradient this many times smaller than its call's largest is round-off here (float32
#: rounding of a batch sum that is exactly zero in real arithmetic).
RATIO = 1e-4
_ADD_OPS = frozenset({"BiasAdd", "AddV2", "Add"})
_STATS_OPS = frozenset({"Mean", "Sum"})
_RESHAPES = frozenset({"Reshape", "ExpandDims", "Squeeze"})


@register
class BiasBeforeBatchNorm(RuleModule):
    code = "TM506"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            if any(s.verdict in ("severed", "unexplained") for s in analysis.sources):
                continue  # a call with a cut: its report holds the cuts, nothing else
            norms = [s.norm for s in analysis.sources if s.norm]
            largest = max(norms, default=0.0)
            for index, source in enumerate(analysis.sources):
                if not _cancelled_value(source, largest):
                    continue
                found = _bias_add(ctx, source)
                if found is None:
                    continue
                add, stats = found
                raw = add.layer_loc or add.loc
                if add.layer and add.layer_loc is None and add.loc is not None and (
                        add.api_module or "").startswith("keras"):
                    files = [add.loc.file, *ctx.index.cells]
                    raw = ctx.index.layer_definition(add.layer.rsplit("/", 1)[-1], files)
                    if raw is None:
                        # a layer Keras built (``keras.applications.ResNet50``'s convolutions):
                        # no line of the user's makes it, so there is nothing to change
                        continue
                norm = stats.layer.rsplit("/", 1)[-1] if stats.layer else ""
                where = ctx.index.location(stats.loc)
                named = f"the normalization `{norm}`" if norm else "a batch normalization"
                if where is not None and where.line and not norm:
                    named += f" (line {where.line})"
                # one finding can hold several biases (a helper that makes Dense + BN): the
                # wording holds for each, exact zeros and round-off alike
                how = "zero, or round-off next to the largest gradient of its call"
                hit = Hit(analysis, index, source, Cause("zero-at-runtime", True,
                                                         op_seq=add.seq))
                yield Match((place(raw), "bias"), raw, True,
                            {"norm": named, "how": how}, hit, chain=[],
                            op_type=add.op_type)


def _cancelled_value(source: SourceAnalysis, largest: float) -> bool:
    """Return True for a rank-1 source whose gradient was seen zero or round-off.

    A source another rule explains (a cause of the cut analysis) is not this one's.
    """
    record = source.source
    if record.shape is None or len(record.shape) != 1 or source.verdict not in (
            "zero", "connected") or source.node is None or source.causes:
        return False
    if source.result == "zero":
        return True
    return source.norm is not None and largest > 0 and source.norm < RATIO * largest


def _bias_add(ctx: RuleContext, source: SourceAnalysis) -> tuple[OpRecord, OpRecord] | None:
    """Return (the op adding the bias, the batch-statistics op after it), or None."""
    graph = ctx.graph
    channels = source.source.shape[-1] if source.source.shape else None
    if channels is None or source.node is None:
        return None
    values = _broadcast(ctx, graph.read_values(source.node, source.source.handle is not None),
                        channels)
    found: tuple[OpRecord, OpRecord] | None = None
    for value in values:
        for edge in graph.out_edges.get(value, ()):
            add = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if add is None or add.op_type not in _ADD_OPS or add.in_gradient:
                continue
            stats = _batch_statistics(ctx, add.outputs[0], channels) if add.outputs else None
            if stats is None:
                return None  # a bias used another way: not this shape
            found = found or (add, stats)
    return found


def _broadcast(ctx: RuleContext, values: list[int], channels: int) -> list[int]:
    """Return ``values`` and their reshapes to ``(1, ..., 1, C)`` or back to ``(C,)``.

    Keras 3's convolutions reshape the bias to ``(1, 1, 1, C)``, and its TensorFlow ``add``
    squeezes that back into a ``BiasAdd``: the same bias, still one value per channel.
    """
    graph, tensors = ctx.graph, ctx.trace.tensors
    out, queue = list(values), list(values)
    while queue and len(out) < 16:
        for edge in graph.out_edges.get(queue.pop(), ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if (op is None or op.op_type not in _RESHAPES or op.in_gradient or not op.outputs
                    or op.outputs[0] in out):
                continue
            record = tensors.get(op.outputs[0])
            shape = record.shape if record is not None else None
            if shape and shape[-1] == channels and all(d == 1 for d in shape[:-1]):
                out.append(op.outputs[0])
                queue.append(op.outputs[0])
    return out


def _batch_statistics(ctx: RuleContext, value: int, channels: int) -> OpRecord | None:
    """Return a Mean/Sum of ``value`` (or its cast) over every axis but the last, if any."""
    graph, tensors = ctx.graph, ctx.trace.tensors
    shape = tensors[value].shape if value in tensors else None
    if not shape or len(shape) < 2 or shape[-1] != channels:
        return None
    frontier = [value]
    for edge in graph.out_edges.get(value, ()):
        op = graph.ops.get(edge.ref) if edge.kind == "op" else None
        if op is not None and op.op_type in ("Cast", "Identity") and not op.in_gradient:
            frontier.extend(op.outputs)  # mixed precision: statistics in float32
    for node in frontier:
        for edge in graph.out_edges.get(node, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is None or op.op_type not in _STATS_OPS or op.in_gradient or not op.outputs:
                continue
            out = tensors.get(op.outputs[0])
            reduced = out.shape if out is not None else None
            # (C,) or (1, ..., 1, C): every axis but the channels reduced (a layer norm's
            # (N, 1) is not, even when N == C)
            if reduced and reduced[-1] == channels and len(reduced) in (1, len(shape)) and all(
                    d == 1 for d in reduced[:-1]):
                return op
    return None
