"""TM117 frozen-before-own-step: a model frozen before its own Keras train step was traced.

Matcher: a model whose own ``train_step`` (``fit``, ``train_on_batch``) ran while it had no
trainable weights, its weights frozen by ``trainable = False`` (``tracing/tracking.py``),
when those weights are read on another gradient call's loss path (the combined model of the
Keras 2 GAN recipe), taken by no gradient call or optimizer and never written. A backbone
frozen on purpose has no train step of its own: not matched. Points at the
``trainable = False`` line (the train call when the freeze ran before the check).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import freezes
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untracked import matches
from tapemagic.untracked_facts import Untracked


@register
class FrozenBeforeOwnStep(RuleModule):
    code = "TM117"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        return matches(ctx, "frozen", _params)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        # a step whose only sources are a frozen model's (empty) trainable list
        for site, layer in freezes.frozen_lists(ctx):
            yield LintMatch(self.code, site, {"layer": layer})


def _params(fact: Untracked) -> dict[str, str]:
    return {"layer": fact.holder, "model": fact.model,
            "line": str(fact.step.line) if fact.step else "?"}
