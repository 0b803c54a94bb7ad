"""TM118 weight-not-updated: a weight the loss reads did not change over the checked steps.

Matcher, two invariants read by ``tracing/moved.py`` that need no cause:

- ``GradientCallRecord.unmoved``: trainable weights a gradient call took as sources that got a
  usable gradient (finite, not zero) in every checked step and did not change between the
  call's runs while other sources of the same call did. It catches an update that never
  happened, whatever stopped it. Left alone: a weight whose verdict is not ``connected``
  (another rule's finding explains it). Points at the Keras optimizer call that was given the
  call's other weights but never these (``apply_gradients`` on part of the list), else at the
  gradient call.
- ``GradientCallRecord.zeroed``: trainable sources whose gradient was all zero in every one of
  at least two checked runs (a first step only, behind a zero-initialised ReZero scale, is not
  enough). Points at the gradient call (for ``fit``, the ``fit`` line); a finding of another
  rule naming the same weights (a dead ReLU, a ``tf.sign``, zero weights) keeps this one as a
  note, and a weight whose zeros come from a dead ReLU's output is that finding's. A weight
  whose paths to the loss meet again is left alone: its contributions may cancel exactly
  (a critic's last bias in ``critic(fake) - critic(real)``).

Both leave alone a weight another gradient call site of the run takes as a source (it trains
there: a GAN's other step, a later phase) and a call that raised. No quick fix: which list the
optimizer should get, or what zeroes the gradient, is the user's to decide.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph import zero_factors, zero_weights
from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.other_reads import monitored
from tapemagic.trace import GradientCallRecord, RawLocation

_UNMOVED = ("each got a usable gradient in every one of them while the other weights "
            "changed: no optimizer applied that gradient, or something put the weight back")
_ZEROED = ("their gradient was exactly zero in every one of them, so no update moves them "
           "and they do not train")


@register
class WeightNotUpdated(RuleModule):
    code = "TM118"
    corroborates = True  # another finding naming the weights explains why; it gets a note

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            call = analysis.call
            if call.error_type or not (call.unmoved or call.zeroed):
                continue
            elsewhere = {s.handle for c in ctx.trace.gradient_calls if c.site != call.site
                         for s in c.sources if s.handle is not None}
            stuck = _named(analysis, call.unmoved, elsewhere, connected=True)
            if stuck:
                # an optimizer call given the other weights but never these: the line to change
                where = call.unmoved_apply or call.loc
                yield _match(call, where, stuck, _UNMOVED, "")
            zeroed = _named(analysis, _zeroed(ctx, analysis), elsewhere, connected=False)
            zeroed = [(name, n) for name, n in zeroed if name not in dict(stuck)]
            if zeroed:
                # the call's zeros have a cause the cut analysis found (an op that passed
                # zeros): that cut is the one to fix first; these weights' count goes beside it
                caused = any(h.analysis is analysis and h.cause.cause == "zero-at-runtime"
                             and h.cause.primary for h in ctx.all_hits)
                yield _match(call, call.loc, zeroed, _ZEROED, "zeroed", primary=not caused)


def _zeroed(ctx: RuleContext, analysis: CallAnalysis) -> list[tuple[int, int]]:
    """Return the call's zeroed sources that no other finding explains and cannot cancel.

    Zeros a dead ReLU makes downstream are its finding's (no cut of their own); zero weights
    that keep each other zero are TM501's (kept: this finding becomes its note). Otherwise a
    weight whose paths meet again may get contributions that cancel by the maths.
    """
    call = analysis.call
    if not call.zeroed:
        return []
    explained, _, by_dead = zero_weights.kept_zero(ctx.graph, analysis)
    # a loss weight the program sets after these steps (a schedule): zero by its choice
    derived = {*by_dead, *zero_factors.scheduled(ctx.graph, analysis)}
    out = []
    for i, steps in call.zeroed:
        node = analysis.sources[i].node if i < len(analysis.sources) else None
        if node is None or i in derived or (i not in explained and zero_weights.may_cancel(
                ctx.graph, node, analysis.connected)) or monitored(ctx, analysis, i):
            continue
        out.append((i, steps))
    return out


def _named(analysis: CallAnalysis, found: list[tuple[int, int]], elsewhere: set[int],
           connected: bool) -> list[tuple[str, int]]:
    """Return (name, steps) of the sources at ``found``'s positions that no other site trains."""
    out = []
    for i, steps in found:
        if i >= len(analysis.sources):
            continue
        source = analysis.sources[i]
        if (connected and source.verdict != "connected") or source.source.handle in elsewhere:
            continue
        out.append((source.source.name, steps))
    return out


def _match(call: GradientCallRecord, where: RawLocation | None, named: list[tuple[str, int]],
           reason: str, kind: str, primary: bool = True) -> Match:
    loc = call.loc
    return Match((*place(where), call.id, kind), where, primary,
                 {"steps": str(min(n for _, n in named)),
                  "line": str(loc.line) if loc else "?", "reason": reason},
                 variables=tuple(name for name, _ in named))
