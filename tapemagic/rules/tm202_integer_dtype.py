"""TM202 integer-dtype: the path crosses an integer or boolean tensor.

Matcher: a cut edge of cause ``integer-dtype`` (``backprop_util.IsTrainable`` is False for the
edge's input or output dtype: an int cast, ``tf.argsort``'s TopKV2 indices, an int variable).
An integer variable passed as a source is reported where it was created (an integer initial
value: ``tf.Variable(2)``) when the run created it, else at the gradient call, where the source
list is passed (inside a ``tf.distribute`` strategy too).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
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
                # where it was made an integer (when the run made it), else the source list
                raw = ctx.trace.handle_created.get(source.handle or -1, call.loc)
                yield Match((place(raw), "source"), raw, True,
                            {"api": f"tf.Variable(dtype={source.dtype})", "op": "ReadVariableOp",
                             "dtype": source.dtype}, hit, op_type="ReadVariableOp")

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        yield from matchers.cut_matches(ctx, self.code, "integer")
        for site in ctx.integer_sources():  # an integer variable passed as a source
            yield LintMatch(self.code, site, {"api": ctx.segment(site)})
