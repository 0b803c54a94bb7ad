"""TM202 integer-dtype: the path crosses an integer or boolean tensor.

Matcher: a cut edge of cause ``integer-dtype`` (``backprop_util.IsTrainable`` is False for the
edge's input or output dtype: an int cast, ``tf.argsort``'s TopKV2 indices, an int variable).
An integer variable passed as a source is reported at the gradient call, where the source list
is made (inside a ``tf.distribute`` strategy too).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import EdgeRule, Match, register
from tapemagic.rules.context import RuleContext, place


@register
class IntegerDtype(EdgeRule):
    code = "TM202"
    causes = frozenset({"integer-dtype"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        yield from super().match(ctx)
        for hit in ctx.hits("integer-dtype"):
            if hit.cause.edge is None:  # the source itself holds integers
                call, source = hit.analysis.call, hit.source.source
                yield Match((place(call.loc), "source"), call.loc, True,
                            {"api": f"tf.Variable(dtype={source.dtype})", "op": "ReadVariableOp",
                             "dtype": source.dtype}, hit, op_type="ReadVariableOp")
