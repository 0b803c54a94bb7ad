"""TM115 layer-inside-lambda: a Keras model called inside a layer that does not track it.

Matcher: trainable Keras weights read inside the call of an outer layer (a ``Lambda``, or a
layer class of the user's) that does not track them, while a layer around it is a model the
run trains (``tracing/tracking.py``: Keras' own ``weights`` along the nesting of the calls),
taken by no gradient call or optimizer and never written. Points at the user's line that
called the inner model there (the ``Lambda(lambda ...)`` line).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import holders
from tapemagic.lint import untracked as shapes
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untracked import matches
from tapemagic.trace import Untracked

#: a layer class of the user's that calls a layer it does not track: where Keras 3 looks
_NOT_TRACKED = ("that `{holder}` (a `{holder_type}`) calls but does not track (Keras 3 tracks a "
                "layer set as an attribute of a layer, or in a list, tuple or dict attribute, "
                "not one kept in a plain Python object or a global)")


@register
class LayerInsideLambda(RuleModule):
    code = "TM115"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        return matches(ctx, "layer", lambda fact: {"where": _where(fact)})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for layer, inner in shapes.lambda_models(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(layer), {"api": ctx.text(inner)})
        # a variable only a Lambda's function reads: the line that made it
        for variable, name in holders.lambda_variables(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(variable), {"api": name})


def _where(fact: Untracked) -> str:
    """Say what holds the inner layer: a ``Lambda`` around it, or a layer that calls it."""
    if fact.holder_type == "Lambda":
        return f"called inside `{fact.holder}` (a `Lambda`), which does not track it"
    return _NOT_TRACKED.format(holder=fact.holder, holder_type=fact.holder_type)
