"""TM402 variable-assign: a value computed from the weights was written into a variable.

Matcher: a state edge of cause ``variable-assign``: an ``AssignVariableOp`` (or add/sub) made
while the tape recorded, whose variable is read later on the path; the tape carries no gradient
through an assignment. One finding per assignment line and written variable.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import blocks, functional
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, EdgeRule, register
from tapemagic.rules.context import RuleContext


@register
class VariableAssign(EdgeRule):
    code = "TM402"
    causes = frozenset({"variable-assign"})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "assign")

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # `v.assign(t)` then reads of `v` -> read `t` (the hypernetwork shape: see the docs)
        return (blocks.assign_to_use(ctx.index, location.file, location.line)
                or functional.functional_call(ctx.index, location.file, location.line) or ())
