"""Trainable weights on a loss path that nothing in the run trains (TM104, TM110, TM114-TM117).

TF-free helpers over a :class:`RuleContext`: which weights the tape watched and connected to
the target, that no gradient call of the run takes as sources and that the run never writes.
"""

from __future__ import annotations

from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.rules.base import Hit
from tapemagic.rules.context import RuleContext
from tapemagic.untracked_facts import STEP, Untracked


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
    kinds = {s.source.kind for s in analysis.sources if s.source.handle is not None}
    return sorted(h for h in (tape.watched_handles_at_exit & analysis.connected)
                  - _trained(ctx)
                  if ctx.trace.handle_trainable.get(h, True) and _kind(ctx, h) in kinds)


def never_trained(ctx: RuleContext, untracked: Untracked) -> list[int]:
    """Return the weights of an ``untracked`` fact that the run reads and never trains.

    Those a tape watched with a differentiable recorded path to some analysed call's target,
    that no gradient call of the run takes as a source and that are not written after their
    first read (an optimizer's update, a target network's copy, an EMA). A weight frozen on
    purpose is not watched (its ``tf.Variable`` is not trainable) or is no ``frozen`` fact;
    the Keras flag is asked only of the other kinds (``trainable=False`` on the layer). A
    variable ``fit``'s step read outside the model (``via`` STEP) counts on that step's path.
    """
    step = untracked.step if untracked.via == STEP else None
    api = untracked.how == "api"
    on_path: set[int] = set()
    for analysis in ctx.analyses:
        loc = analysis.call.loc
        if step is not None and (loc is None or (loc.file, loc.line) != (step.file, step.line)):
            continue
        if analysis.tape is not None and analysis.call.reached:
            on_path |= analysis.tape.watched_handles_at_exit & analysis.connected
            if api:  # an integer kernel no tape watches: the loss reads it all the same
                on_path |= {h for h in untracked.handles if analysis.ancestors.intersection(
                    ctx.graph.read_values(h, True))}
    # a write before an API fact's step was traced is the API's or a copy before training
    trained = _trained(ctx, untracked.since if api else 0)
    return [h for h in untracked.handles if h in on_path and h not in trained and (
        untracked.how in ("frozen", "api") or ctx.trace.handle_trainable.get(h, True))]


def claimed(ctx: RuleContext) -> set[int]:
    """Return the weights an untracked-weights rule (TM114 to TM117) reports."""
    return {h for fact in ctx.trace.untracked for h in never_trained(ctx, fact)}


def _trained(ctx: RuleContext, since: int = 0) -> set[int]:
    """Return the handles a gradient call takes as a source or the run writes after use.

    With ``since``, only writes after that event count.
    """
    sources = {s.handle for a in ctx.analyses for s in a.call.sources if s.handle is not None}
    first_read = {h: min(op.seq for op in reads) for h, reads in ctx.graph.reads.items()
                  if reads}
    # updated after use (an initial value assigned at creation is no update, nor is the one
    # a tf.function assigns after the trace that made the variable: its lifted initialiser)
    trace = ctx.trace
    lifted = {h: seq for seq, (h, _, _) in trace.state_writes.items() if _initialiser(ctx, seq)}
    writes = [*((h, seq) for seq, (h, _, _) in trace.state_writes.items() if h not in lifted
                or seq != lifted[h]),
              # an assign call's seq is taken before the op it runs (the last call, kept)
              *((h, seq) for h, seq in trace.variable_writes.items()
                if seq > lifted.get(h, 0))]
    # an increment (assign_add/assign_sub) computes the new value from the variable's own:
    # state the code keeps (a counter, a running sum), kept even when it comes before any read
    kept = {h for seq, (h, _, _) in trace.state_writes.items() if _increments(ctx, seq)}
    return sources | kept | {handle for handle, seq in writes
                             if seq > first_read.get(handle, seq) and seq > since}


#: the function TensorFlow traces to run the initial values of variables made while a
#: tf.function was first traced (polymorphic_function.py, _initialize_uninitialized_variables)
_INITIALISER = "initialize_variables"


#: writes whose new value is the variable's own plus or minus another (resource_variable_ops)
_INCREMENT_OPS = frozenset({"AssignAddVariableOp", "AssignSubVariableOp"})


def _increments(ctx: RuleContext, seq: int) -> bool:
    op = ctx.trace.op_at(seq)
    return op is not None and op.op_type in _INCREMENT_OPS


def _initialiser(ctx: RuleContext, seq: int) -> bool:
    op = ctx.trace.op_at(seq)
    return op is not None and op.graph > 0 and ctx.trace.graph_names.get(op.graph) == _INITIALISER


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
