"""TM303 python-control-flow: a Python ``if`` on a tensor value chose the loss.

Matcher: a ``bool`` host event (``Tensor.__bool__``) inside the tape span on a tensor that
depends on the source, when the values the branch picks do not. Points at the branch.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class PythonControlFlow(RuleModule):
    code = "TM303"
    causes = frozenset({"python-control-flow"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("python-control-flow"):
            if hit.cause.event is None:
                continue
            event = ctx.graph.events[hit.cause.event]
            yield Match((place(event.loc),), event.loc, hit.cause.primary,
                        {"api": ctx.index.snippet(event.loc) or "if"}, hit)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "control")
