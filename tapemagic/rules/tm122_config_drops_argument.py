"""TM122 config-drops-argument: a custom layer's ``get_config`` leaves out what made a weight train.

Matcher: weights of a model whose Keras train step was traced while they were non-trainable
because ``load_model`` (or ``clone_model``) rebuilt their custom layer from a config without
the constructor argument that made them trainable (``tracing/config_drops.py``, via
``tracing/api_freezes.py``): the run built the same layer (class and name) before with the
weight trainable, the rebuilt layer is not frozen as a whole, the class's ``get_config`` is the
user's, and a constructor argument kept as an attribute differs between the two
(``learn_gain`` True in the original, False in the rebuilt layer). Reported when the step's
loss reads those weights, nothing in the run trains them and nothing writes them; a layer flag
the user's code reads or sets after the load keeps the freeze on purpose. Points at the
user's ``get_config``'s ``return`` (its definition when it has several). A warning: a save
and reload is meant to give the same layer back.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untracked import matches
from tapemagic.untracked_facts import DROPPED, Untracked


@register
class ConfigDropsArgument(RuleModule):
    code = "TM122"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        return matches(ctx, "api", _params, lambda ctx, fact: fact.attribute != DROPPED)


def _params(fact: Untracked) -> dict[str, str]:
    changed = ", ".join(f"`{name}` ({was} in the original, {now} in the rebuilt layer)"
                        for name, was, now in fact.changed)
    return {"layer_type": fact.holder_type, "arguments": changed, "api": fact.via,
            "layer": "`, `".join(fact.holder.split(", ")), "model": fact.model,
            "line": str(fact.step.line) if fact.step else "?"}
