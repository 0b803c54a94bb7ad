"""TM105 keras-zero-mode-error: Keras 3 variables + ``UnconnectedGradients.ZERO`` raise.

Matcher: a gradient call that raised ``AttributeError: 'str' object has no attribute
'_type_enum'`` (Keras 3 variables with an unconnected source in ZERO mode). Names the
unconnected sources (all sources when none is known to be unconnected), at the call.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import Cause
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class KerasZeroModeError(RuleModule):
    code = "TM105"
    causes = frozenset({"not-connected"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            if not analysis.keras_zero_error:
                continue
            call = analysis.call
            hits = [h for h in ctx.hits("not-connected") if h.analysis is analysis]
            if not hits:
                hits = [Hit(analysis, i, s, Cause("not-connected", True))
                        for i, s in enumerate(analysis.sources)]
            for hit in hits:
                yield Match((place(call.loc),), call.loc, True, {}, hit, chain=[])

