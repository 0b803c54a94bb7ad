"""TM110 weights-never-trained: trainable weights on the loss path that nothing ever trains.

Matcher, over the whole run: trainable variables the tape watched and that have a
differentiable path to a gradient call's target, but that are a source of no gradient call in
the run and are never written (an encoder left out of ``sources``). Not a finding: frozen layers
(``trainable=False``: the tape does not watch them), weights that another gradient call of the
run takes as sources (a GAN discriminator on the generator's loss path), and weights the run
writes (a target network updated by an EMA or a copy). A warning at the gradient call.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class WeightsNeverTrained(RuleModule):
    code = "TM110"
    causes = frozenset({"sources-mismatch"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        sources = {s.handle for a in ctx.analyses for s in a.call.sources if s.handle is not None}
        first_read = {h: min(op.seq for op in reads) for h, reads in ctx.graph.reads.items()
                      if reads}
        # updated after use (an initial value assigned at creation is no update)
        written = {handle for seq, (handle, _, _) in ctx.trace.state_writes.items()
                   if seq > first_read.get(handle, seq)}
        reported: set[int] = set()
        for analysis in ctx.analyses:
            tape, call = analysis.tape, analysis.call
            if tape is None or call.error_type or not any(
                    s.verdict == "connected" for s in analysis.sources):
                continue
            left = sorted(h for h in (tape.watched_handles_at_exit & analysis.connected)
                          - sources - written - reported
                          if ctx.trace.handle_trainable.get(h, True))
            if not left:
                continue
            reported.update(left)
            yield Match((place(call.loc),), call.loc, False, {},
                        variables=tuple(ctx.handle_name(h) for h in left))
