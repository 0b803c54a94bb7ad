"""TM104 not-connected: the gradient target does not depend on a source at all.

Matcher: a source the cut analysis marks ``not-connected`` (no dataflow, real or virtual, from
it to the target), unless the call raised Keras 3's ``_type_enum`` error, which TM105 explains.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class NotConnected(RuleModule):
    code = "TM104"
    causes = frozenset({"not-connected"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-connected"):
            if hit.analysis.keras_zero_error:
                continue  # TM105 says these are not connected, and why the call raised
            call = hit.analysis.call
            yield Match((place(call.loc),), call.loc, hit.cause.primary,
                        {"target": call.target_label}, hit)
