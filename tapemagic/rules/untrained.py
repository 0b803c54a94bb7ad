"""Trainable weights on a call's loss path that nothing in the run trains (TM110, TM104).

TF-free helpers over a :class:`RuleContext`: which weights the tape watched and connected to
the target, that no gradient call of the run takes as sources and that the run never writes.
"""

from __future__ import annotations

from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.rules.base import Hit
from tapemagic.rules.context import RuleContext


def untrained_on_path(ctx: RuleContext, analysis: CallAnalysis) -> list[int]:
    """Return the handles on ``analysis``'s recorded loss path that the run never trains.

    Trainable variables the tape watched, with a differentiable recorded path to the target,
    of the same kind as the call's variable sources (Keras or plain ``tf.Variable``), that are a
    source of no gradient call and are not written after their first read (a target network
    updated by a moving average is written).
    """
    tape = analysis.tape
    if tape is None:
        return []
    sources = {s.handle for a in ctx.analyses for s in a.call.sources if s.handle is not None}
    first_read = {h: min(op.seq for op in reads) for h, reads in ctx.graph.reads.items()
                  if reads}
    # updated after use (an initial value assigned at creation is no update)
    writes = [*((h, seq) for seq, (h, _, _) in ctx.trace.state_writes.items()),
              *ctx.trace.variable_writes.items()]
    written = {handle for handle, seq in writes if seq > first_read.get(handle, seq)}
    kinds = {s.source.kind for s in analysis.sources if s.source.handle is not None}
    return sorted(h for h in (tape.watched_handles_at_exit & analysis.connected)
                  - sources - written
                  if ctx.trace.handle_trainable.get(h, True) and _kind(ctx, h) in kinds)


def trained_instead(ctx: RuleContext, hit: Hit) -> list[int]:
    """Return the weights the sources of an outside-tape ``hit`` should have been, or [].

    The shape of a distillation step differentiating by the *teacher's* weights: every source
    of the call is a variable whose every path to the loss ran outside the tape (the teacher's
    forward pass, outside on purpose), while other trainable weights (the student's) are on
    the loss path inside the tape and no gradient call trains them. The source list is wrong;
    moving the outside pass into the tape would train the wrong model.
    """
    analysis = hit.analysis
    if hit.cause.cause != "outside-tape" or not analysis.sources or any(
            s.source.handle is None or s.verdict == "connected"
            or not any(c.cause == "outside-tape" for c in s.causes)
            for s in analysis.sources):
        return []
    return untrained_on_path(ctx, analysis)


def _kind(ctx: RuleContext, handle: int) -> str:
    """Return the source kind a variable would have (the trace has a Keras flag for Keras's)."""
    return "keras-variable" if handle in ctx.trace.handle_trainable else "variable"
