"""TM110 weights-never-trained: trainable weights on the loss path that nothing ever trains.

Matcher, over the whole run: trainable variables the tape watched and that have a
differentiable path to a gradient call's target, but that are a source of no gradient call in
the run and are never written (an encoder left out of ``sources``). Not a finding: frozen layers
(``trainable=False``: the tape does not watch them), weights that another gradient call of the
run takes as sources (a GAN discriminator on the generator's loss path), and weights the run
writes (a target network updated by an EMA or a copy), and calls whose sources are inputs, not
weights of the same kind (a saliency map or an adversarial example takes the gradient with
respect to the image: a tensor, or a plain ``tf.Variable`` next to Keras weights). Information
at the gradient call: a notebook cell may train one part on purpose (a generator step whose
discriminator trains in another cell).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.untrained import untrained_on_path


@register
class WeightsNeverTrained(RuleModule):
    code = "TM110"
    causes = frozenset({"sources-mismatch"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        reported: set[int] = set()
        for analysis in ctx.analyses:
            call = analysis.call
            if analysis.tape is None or call.error_type or not any(
                    s.verdict == "connected" for s in analysis.sources):
                continue
            left = [h for h in untrained_on_path(ctx, analysis) if h not in reported]
            if not left:
                continue
            reported.update(left)
            yield Match((place(call.loc),), call.loc, True, {},
                        variables=tuple(ctx.handle_name(h) for h in left))
