"""TM502 vanishing-gradient: a weight's gradient is vanishingly small next to the others'.

Matcher: among the sources of one gradient call that got a non-zero gradient, one whose L2 norm
is below ``RATIO`` (1e-6) times the largest norm of the call. Only weights of rank 2 or more
that the forward pass does not only add (kernels, embeddings): an offset's gradient is often
zero up to round-off by construction, whatever its rank. A bias before a normalisation cancels,
and the key bias of attention (Keras' ``MultiHeadAttention``, an ``EinsumDense`` bias of shape
``(heads, key_dim)``) adds the same score to every key of a query, which the softmax ignores.
A weight that reaches the loss only through a softmax, its value repeated along a non-batch
axis on the way (attention scores), is left out too: a softmax ignores what adds the same score
to every entry of a row, so a weight that does so nearly (Bahdanau attention's query projection,
broadcast over the keys before a ``tanh`` of small activations) gets a gradient of second order
by construction, not one that vanishes on the way.
Information, not a cut: the path is connected, but the weight will barely train (saturated
activations, a deep stack without normalisation).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from tapemagic.graph.verdicts import CallAnalysis, Cause, SourceAnalysis
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place

#: Ops that add a weight's value as an offset; a read reaches them through a cast (mixed
#: precision) or an identity.
_ADD_OPS = frozenset({"BiasAdd", "AddV2", "Add", "Sub"})
_PASS_OPS = frozenset({"Cast", "Identity"})
_SOFTMAX_OPS = frozenset({"Softmax", "LogSoftmax"})
_BROADCAST_OPS = frozenset({"AddV2", "Add", "Sub", "Mul", "BiasAdd", "RealDiv"})

#: A gradient this many times smaller than the call's largest counts as vanishing.
RATIO = 1e-6


@register
class VanishingGradient(RuleModule):
    code = "TM502"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            norms = [(i, s.norm) for i, s in enumerate(analysis.sources)
                     if s.verdict == "connected" and s.norm]
            if len(norms) < 2:
                continue
            largest = max(n for _, n in norms if n is not None)
            call = analysis.call
            for i, norm in norms:
                shape = analysis.sources[i].source.shape
                if norm is not None and norm < RATIO * largest and shape and len(
                        shape) >= 2 and not _offset(ctx, analysis, analysis.sources[i]) and not (
                        _broadcast_into_softmax(ctx, analysis, analysis.sources[i])):
                    hit = Hit(analysis, i, analysis.sources[i], Cause("zero-at-runtime", False))
                    yield Match((place(call.loc),), call.loc, False,
                                {"largest": f"{largest:.3g}"}, hit, chain=[])


def _offset(ctx: RuleContext, analysis: CallAnalysis, source: SourceAnalysis) -> bool:
    """Return True when every forward use of ``source`` adds it as an offset (a bias).

    Only uses on a path to the loss count: a traced ``fit`` step also holds the optimizer's
    update, whose reads of the weight (AdamW's decoupled weight decay, ``w * decay``) never
    reach the loss.
    """
    graph, anc = ctx.graph, analysis.ancestors
    if source.node is None:
        return False
    frontier = graph.read_values(source.node, source.source.handle is not None)
    uses = 0
    seen: set[int] = set()
    while frontier:
        value = frontier.pop()
        if value in seen:
            continue
        seen.add(value)
        for edge in graph.out_edges.get(value, ()):
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is None or op.in_gradient or edge.dst not in anc:
                continue
            if op.op_type in _PASS_OPS:
                frontier.extend(op.outputs)
            elif op.op_type in _ADD_OPS:
                uses += 1
            else:
                return False
    return uses > 0


def _broadcast_into_softmax(ctx: RuleContext, analysis: CallAnalysis,
                            source: SourceAnalysis) -> bool:
    """Return True when every path of ``source`` to the target passes a softmax, broadcast.

    Broadcast: on the way, an elementwise op repeats a value computed from the source along an
    axis other than the batch's (an input of size 1 where the output has more), so the softmax
    sees nearly the same score added to several entries of a row.
    """
    graph, anc, targets = ctx.graph, analysis.ancestors, set(analysis.call.targets)
    tensors = ctx.trace.tensors
    softmax = broadcast = False
    if source.node is None:
        return False
    seen = set(graph.read_values(source.node, source.source.handle is not None))
    queue = deque(seen)
    while queue:
        node = queue.popleft()
        if node in targets:
            return False  # a path that passes no softmax
        for edge in graph.out_edges.get(node, ()):
            if edge.dst in seen or edge.dst not in anc or not edge.differentiable:
                continue
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            if op is not None and not op.in_gradient and op.op_type in _SOFTMAX_OPS:
                softmax = True
                continue
            if op is not None and op.op_type in _BROADCAST_OPS and node in tensors and (
                    edge.dst in tensors):
                broadcast = broadcast or _repeats(tensors[node].shape, tensors[edge.dst].shape)
            seen.add(edge.dst)
            queue.append(edge.dst)
    return softmax and broadcast


def _repeats(made: tuple[int | None, ...] | None, out: tuple[int | None, ...] | None) -> bool:
    """Return True when ``made`` is repeated along a non-batch axis of ``out``."""
    if not made or not out or len(made) != len(out):
        return False
    return any(a == 1 and b is not None and b > 1 for a, b in zip(made[1:], out[1:], strict=True))
