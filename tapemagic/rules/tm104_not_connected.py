"""TM104 not-connected: the gradient target does not depend on a source at all.

Matcher: a source the cut analysis marks ``not-connected`` (no dataflow, real or virtual, from
it to the target), unless the call raised Keras 3's ``_type_enum`` error, which TM105 explains,
or the source is a stale copy of a variable made again (TM111). Points where the connection
ends: the last line computed from the weight inside the tape when the loss never used it (a
prediction left dangling, a second forward pass), else the line that created a weight the step
never read, else the gradient call.
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
            if hit.analysis.keras_zero_error or ctx.recreated(hit) is not None:
                continue  # TM105 / TM111 say it, and why
            call = hit.analysis.call
            raw = call.loc
            dangling = ctx.dangling(hit)
            if dangling is not None:
                raw = dangling.loc
            elif hit.source.source.handle is not None:
                raw = ctx.trace.handle_created.get(hit.source.source.handle, raw)
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"target": call.target_label}, hit)
