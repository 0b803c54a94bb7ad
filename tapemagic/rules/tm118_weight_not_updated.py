"""TM118 weight-not-updated: a weight got a gradient every step, yet never changed.

Matcher: ``GradientCallRecord.unmoved`` (``tracing/moved.py``): trainable weights a gradient
call took as sources that got a usable gradient (finite, not zero) in every checked step and
did not change between the call's runs while other sources of the same call did. The
invariant needs no cause: it catches an update that never happened, whatever stopped it.
Left alone: a weight whose verdict is not ``connected`` (another rule's finding explains it),
a weight another gradient call site of the run takes as a source (it trains there: a GAN's
other step, a later phase), and a call that raised. Points at the Keras optimizer call that
was given the call's other weights but never these (``apply_gradients`` on part of the list),
else at the gradient call (for ``fit``, the ``fit`` line). No quick fix: which list the
optimizer should get is the user's choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class WeightNotUpdated(RuleModule):
    code = "TM118"
    corroborates = True  # another finding naming the weights explains why; it gets a note

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            call = analysis.call
            if not call.unmoved or call.error_type:
                continue
            elsewhere = {s.handle for c in ctx.trace.gradient_calls if c.site != call.site
                         for s in c.sources if s.handle is not None}
            stuck = [(analysis.sources[i], steps) for i, steps in call.unmoved
                     if i < len(analysis.sources)]
            names = [s.source.name for s, _ in stuck if s.verdict == "connected"
                     and s.source.handle not in elsewhere]
            if not names:
                continue
            steps = min(n for s, n in stuck if s.source.name in names)
            # an optimizer call given the other weights but never these: the line to change
            where = call.unmoved_apply or call.loc
            yield Match((*place(where), call.id), where, True,
                        {"steps": str(steps), "line": str(call.loc.line) if call.loc else "?"},
                        variables=tuple(names))
