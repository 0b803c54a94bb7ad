"""TM102 unwatched-tensor: a tensor passed as a gradient source that the tape never watched.

Matcher: a tensor (not variable) source marked ``not-watched``: ``tape.gradient(loss, t)``
with no ``tape.watch(t)`` while the tape recorded. Points at the tape's line, where the
``tape.watch`` call belongs.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class UnwatchedTensor(RuleModule):
    code = "TM102"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            if hit.source.source.handle is not None:
                continue
            tape = hit.analysis.tape
            raw = tape.loc if tape is not None else hit.analysis.call.loc
            yield Match((place(raw),), raw, hit.cause.primary, {}, hit)
