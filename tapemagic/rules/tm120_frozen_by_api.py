"""TM120 frozen-by-api: weights a Keras API froze as a side effect, then left out of training.

Matcher: weights of a model whose Keras train step (``fit``, ``train_on_batch``) was traced
while they were non-trainable because of an API the user's code called, not a flag it set
(``tracing/api_freezes.py``): a layer's saved ``trainable=False`` that ``load_model`` restored
(the user's code never read or set that flag since: ``assert not layer.trainable`` keeps it
on purpose), or an integer kernel ``quantize("int8")`` put in a layer with no LoRA. Reported
when the step's loss reads them, no gradient call or optimizer of the run takes them and
nothing writes them; a model quantized for inference only, a backbone frozen by the user's
own line, and a QLoRA layer are no facts. Points at the user's line that called the API.
A note (info), never a warning: no fact of the run tells a freeze the user forgot from one they
meant (a base frozen, saved, reloaded and its head trained on purpose is the same code).
Lint: ``X.quantize("int8")`` followed by ``X.fit`` in the same block (``lint/quantized.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.quantized import quantized_then_trained
from tapemagic.lint.values import Site
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untracked import matches
from tapemagic.untracked_facts import DROPPED, Untracked

#: what each reason says the API did (``Untracked.attribute``, tracing/api_freezes.py)
_EFFECTS = {
    "restored": "restored the saved `trainable=False` of `{layer}`, whose weights came back "
                "frozen",
    "quantized": "replaced the kernels of `{layer}` by non-trainable integer variables",
}


@register
class FrozenByApi(RuleModule):
    code = "TM120"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        # a weight frozen by a config that left an argument out: TM122, at that get_config
        return matches(ctx, "api", _params, lambda ctx, fact: fact.attribute == DROPPED)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        # a model quantized to integers, then trained under the same name (no LoRA between)
        for call, name in quantized_then_trained(ctx.tree):
            yield LintMatch(self.code, Site.of(call), {"model": name})


def _params(fact: Untracked) -> dict[str, str]:
    layers = "`, `".join(fact.holder.split(", "))
    effect = _EFFECTS.get(fact.attribute, "froze `{layer}`").format(layer=layers)
    return {"api": fact.via, "effect": effect, "model": fact.model,
            "line": str(fact.step.line) if fact.step else "?"}
