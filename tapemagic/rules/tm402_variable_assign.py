"""TM402 variable-assign: a value computed from the weights was written into a variable.

Matcher: a state edge of cause ``variable-assign``: an ``AssignVariableOp`` (or add/sub) made
while the tape recorded, whose variable is read later on the path; the tape carries no gradient
through an assignment. One finding per assignment line and written variable.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import EdgeRule, register


@register
class VariableAssign(EdgeRule):
    code = "TM402"
    causes = frozenset({"variable-assign"})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "assign")
