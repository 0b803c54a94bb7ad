"""TM103 outside-tape: an op on the path ran while the tape was not recording.

Matcher: a source the cut analysis marks ``outside-tape`` (a differentiable path exists, but
its first op ran after the ``with`` block or inside ``stop_recording``). Points at that op.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class OutsideTape(RuleModule):
    code = "TM103"
    causes = frozenset({"outside-tape"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("outside-tape"):
            call = hit.analysis.call
            op = ctx.graph.ops.get(hit.cause.op_seq or -1)
            raw = op.loc if op is not None else call.loc
            api = ctx.op_api(op) if op is not None else call.target_label
            yield Match((place(raw),), raw, hit.cause.primary, {"api": api}, hit)
