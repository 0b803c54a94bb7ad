"""TM505 saturated-softmax: a softmax one-hot on every row passes no gradient back (information).

Matcher: a source whose gradient TensorFlow returned as all zeros, with a ``Softmax`` on its
path as the op that zeroes it: seen one-hot to float precision on every row of the batch
(eager; ``optypes.SATURATING_SOFTMAX``), or, in a traced graph whose gradient came back as
zeros, the only saturating op on the path. The softmax's gradient is
``p * (g - sum(g * p))`` (nn_grad.py ``_SoftmaxGrad``): zero wherever ``p`` is one-hot, and
a cross-entropy written on the probabilities (a ``log`` of a clipped or epsilon-shifted
softmax) cannot bring it back, where the fused ``softmax_cross_entropy_with_logits`` gradient,
``softmax(logits) - labels``, stays exact. Information only: a model that is rightly certain of
every example gets the same zeros, and a clipped cross-entropy is correct code every day.
Points at the softmax (for a Keras layer's activation, at the layer's definition) and names
the ``log`` the loss takes of its probabilities when there is one.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.walks import forward
from tapemagic.optypes import SATURATING_SOFTMAX
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.decided import layer_place, upstream
from tapemagic.trace import OpRecord

#: What the loss may take of the probabilities that makes it a cross-entropy on them.
_LOG_OPS = frozenset({"Log", "Xlogy", "Log1p"})


@register
class SaturatedSoftmax(RuleModule):
    code = "TM505"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("zero-at-runtime"):
            op = ctx.graph.ops.get(hit.cause.op_seq or -1)
            if op is None or op.op_type not in SATURATING_SOFTMAX:
                continue  # TM501 explains every other zeroing op
            api = op.layer or ctx.op_api(op)
            # a Keras layer's op: the line that made or applied it (its activation: the
            # layer's definition); an upstream op that made it one-hot: that op's line
            raw, why = upstream(ctx, op, layer_place(ctx, op))
            state = ("is one-hot on every row of this batch (its largest probability is "
                     "exactly 1.0)" if op.saturated else
                     "is probably saturated on this batch (graph mode: its values were not "
                     "checked, the zero gradient was)") + why
            yield Match((place(raw), op.op_type), raw, True,
                        {"api": api, "state": state, "log": _log_after(ctx, hit, op)},
                        hit, api=api, op_type=op.op_type, graph_edge=("op", op.seq, 0))


def _log_after(ctx: RuleContext, hit: Hit, softmax: OpRecord) -> str:
    """Return ``, and the loss takes `tf.math.log` of its probabilities (line N)``, or ``""``."""
    graph, within = ctx.graph, hit.analysis.connected
    reach = forward(graph, softmax.outputs, within, diff_only=True)
    logs = sorted({e.ref for n in reach for e in graph.out_edges.get(n, ())
                   if e.kind == "op" and graph.ops[e.ref].op_type in _LOG_OPS})
    if not logs:
        return ""
    log = graph.ops[logs[0]]
    where = ctx.index.location(log.loc)
    line = f" (line {where.line})" if where is not None and where.line else ""
    return f", and the loss takes `{ctx.op_api(log)}` of its probabilities{line}"
