"""TM203 custom-gradient-none: a ``tf.custom_gradient`` returns None for a weight it reads.

Matcher: a source with a differentiable, watched path whose gradient TensorFlow returned as
None, where the path crosses the op ``tf.custom_gradient`` records for the decorated function
(``Identity``/``IdentityN`` made in ``tensorflow/python/ops/custom_gradient.py``): its gradient
function returned None (or too few values) for that input or variable. Points at the call of
the decorated function.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class CustomGradientNone(RuleModule):
    code = "TM203"
    causes = frozenset({"custom-gradient"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("custom-gradient"):
            op = ctx.graph.ops.get(hit.cause.op_seq or -1)
            if op is None:
                continue
            api = ctx.index.snippet(op.loc) or op.op_type
            yield Match((place(op.loc),), op.loc, hit.cause.primary, {"api": api}, hit,
                        api=api, op_type=op.op_type)
