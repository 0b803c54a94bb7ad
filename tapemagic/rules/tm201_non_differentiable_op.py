"""TM201 non-differentiable-op: an op with no usable gradient on the path.

Matcher: a cut edge of cause ``non-differentiable-op``: the op's entry in TensorFlow's gradient
registry is None (``ops.NotDifferentiable``) or missing (``LookupError``), or its registered
gradient returns None (``tapemagic.optypes.RETURNS_NONE``). One finding per op and place.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import EdgeRule, register


@register
class NonDifferentiableOp(EdgeRule):
    code = "TM201"
    causes = frozenset({"non-differentiable-op"})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "non-differentiable")
