"""TM401 stop-gradient: ``tf.stop_gradient`` on the only path to the weights.

Matcher: a cut edge of cause ``stop-gradient`` (op ``StopGradient``, registered
NotDifferentiable), unless the weights' loss term was left out of the target
(``graph/left_out.py``: TM104 says so, the ``stop_gradient`` is meant). Fix: unwrap the call
(unsafe: it changes what is trained).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tapemagic import fixes
from tapemagic.fixes import surrogates
from tapemagic.graph.left_out import left_out_term
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, EdgeRule, Match, register
from tapemagic.rules.context import RuleContext

if TYPE_CHECKING:  # annotations only: LibCST loads when a fix is computed
    import libcst as cst


@register
class StopGradient(EdgeRule):
    code = "TM401"
    causes = frozenset({"stop-gradient"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("stop-gradient"):
            if hit.cause.edge is None:
                continue
            if left_out_term(ctx.graph, hit.analysis, hit.source) is not None:
                continue  # a term left out of the loss (TM104): the stop_gradient is meant
            yield ctx.edge_match(hit)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # around a rounding op the user meant a straight-through estimator: write one
        edit = (fixes.rewrite(location, ctx.index, _straight_through_inside)
                or fixes.rewrite(location, ctx.index, fixes.unwrap))
        return (edit,) if edit else ()

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        # `tf.map_fn(..., back_prop=False)` traced: the loop's results are stop_gradient'ed;
        # the edit drops the flag
        return matchers.cut_matches(ctx, self.code, "stop-gradient",
                                    transform=fixes.drop_back_prop_flag_or_unwrap)

def _straight_through_inside(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.stop_gradient(tf.round(z))`` → ``z + tf.stop_gradient(tf.round(z) - z)``."""
    inner = fixes.unwrap(node)
    return surrogates.straight_through(inner) if inner is not None else None
