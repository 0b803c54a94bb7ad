"""Updates that are zero although the gradient is not: the value an optimizer was given.

Read from ``GradientCallRecord.emptied`` (``tracing/moved.py``): in every checked step
(two at least) each watched weight's gradient was usable, yet everything a Keras optimizer
was given for the call's weights was all zero and none of them moved. The gradient is not
what is wrong; the line that made the value the optimizer got from it is (``clip_by_global_norm``
with a norm of 0, a scale of 0.0). Left alone: a step in which some weight was given a usable
gradient (a layer frozen by masking its gradients, a ``tf.where`` guard zeroing a bad step
only), a learning rate of zero (a warmup's first step: not what the optimizer was given),
steps in which nothing was applied (gradient accumulation), and weights another gradient
call of the run trains. For TM501 (zero-at-runtime), at the op that made the given value.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import Cause
from tapemagic.rules.base import Hit, Match
from tapemagic.rules.context import RuleContext, place

_REASON = ("the gradient the call at line {line} returned was not zero, but what this line "
           "made of it and the optimizer applied was all zero in each of {steps} checked "
           "steps, so no update moves them")

#: the value was made in an eager loop while nothing was recorded: the call it reached
_GIVEN = ("the gradient the call at line {line} returned was not zero, but what this optimizer "
          "call was given for them (made from it between the two lines) was all zero in each "
          "of {steps} checked steps, so no update moves them")


def emptied_updates(ctx: RuleContext) -> Iterable[Match]:
    """Yield, at the op that made each all-zero value an optimizer applied, its weights."""
    for analysis in ctx.analyses:
        call = analysis.call
        if call.error_type or not call.emptied:
            continue
        elsewhere = {s.handle for c in ctx.trace.gradient_calls if c.site != call.site
                     for s in c.sources if s.handle is not None}
        for index, steps, serial in call.emptied:
            if index >= len(analysis.sources):
                continue
            source = analysis.sources[index]
            op = ctx.trace.producer_of(serial) if serial is not None else None
            if source.verdict != "connected" or source.source.handle in elsewhere:
                continue
            line = str(call.loc.line) if call.loc is not None else "?"
            reason = _REASON.format(line=line, steps=steps)
            if op is not None and op.loc is not None:
                api = ctx.index.snippet(op.loc) or ctx.op_api(op)
                hit = Hit(analysis, index, source, Cause("zero-at-runtime", True,
                                                         op_seq=op.seq))
                yield Match((place(op.loc), op.op_type, "emptied"), op.loc, True,
                            {"api": api, "op": op.op_type, "reason": reason},
                            hit, api=api, op_type=op.op_type)
            elif call.emptied_apply is not None:
                # made eagerly after the recorded run: the optimizer call it reached
                where = call.emptied_apply
                api = ctx.index.snippet(where) or "apply_gradients"
                hit = Hit(analysis, index, source, Cause("zero-at-runtime", True))
                yield Match((place(where), "emptied"), where, True,
                            {"api": api, "op": "apply_gradients", "reason": _GIVEN.format(
                                line=line, steps=steps)}, hit, api=api)
