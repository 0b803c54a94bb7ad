"""TM114 untracked-variable: a raw ``tf.Variable`` held by a Keras 3 layer, never trained.

Matcher: a trainable ``tf.Variable`` a user's Keras layer holds (an attribute, or in a list)
that is not in its ``weights`` (``tracing/tracking.py`` asks Keras), read on the loss path of
a model the run trains, taken by no gradient call or optimizer and never written. Points at
the ``tf.Variable(...)`` line (or, for a variable made before the check, the line that read
it). No quick fix: ``self.add_weight`` needs the shape and initialiser the user meant.
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


@register
class UntrackedVariable(RuleModule):
    code = "TM114"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        return matches(ctx, "variable", lambda fact: {"layer": fact.holder})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for call in shapes.raw_variables(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(call), {"api": f"{ctx.text(call.func)}(...)"})
        # a helper object or tf.Module holding the variable: the line that stored it
        for holder, _variable in holders.held_variables(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(holder), {"api": f"{ctx.text(holder.func)}(...)"})
