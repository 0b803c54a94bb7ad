"""TM503 float16-underflow: float16 gradients underflow to exact zeros (mixed precision).

Matcher: a gradient call where every source whose differentiable path to the target crosses a
``float16`` tensor (a ``mixed_float16`` Keras policy casts each weight to float16 for the
layer's maths) got an all-zero gradient, with no op on the path seen zeroing it by value (a
dead ReLU found from the values is TM501's). float16 has no number below about 6e-8
(2**-24, the smallest subnormal): a smaller gradient rounds to 0, so every float16 weight of
the step gets exact zeros. Loss scaling exists for this (Keras ``LossScaleOptimizer``:
differentiate ``optimizer.scale_loss(loss)``; ``apply_gradients`` unscales). Points at the
gradient call, naming every zeroed weight: the target is what must be scaled.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import Cause
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class Float16Underflow(RuleModule):
    code = "TM503"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            call = analysis.call
            zeroed = ctx.float16_underflow(analysis)
            if not zeroed or call.loc is None:
                continue
            for index in zeroed:
                source = analysis.sources[index]
                cause = source.causes[0] if source.causes else Cause("zero-at-runtime", True)
                yield Match((place(call.loc),), call.loc, True,
                            {"target": call.target_label},
                            Hit(analysis, index, source, cause), chain=[])
