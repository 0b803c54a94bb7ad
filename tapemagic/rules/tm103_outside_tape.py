"""TM103 outside-tape: an op on the path ran while the tape was not recording.

Matcher: a source the cut analysis marks ``outside-tape`` (a differentiable path exists, but
its first op ran after the ``with`` block or inside ``stop_recording``). Points at that op (at
the ``with tape.stop_recording():`` line when it ran inside that block, at the
``tape.reset()`` that discarded it when the tape recorded it and a reset forgot it), or,
when it ran inside a helper the user's code called after the block (``loss = loss_fn(pred)``),
at that call: the line to move into the ``with`` block.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import statements, watches
from tapemagic.graph.dropped_terms import dropped_terms
from tapemagic.graph.verdicts import Cause
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules import deferred
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.untrained import trained_instead
from tapemagic.trace import OpRecord, RawLocation, TapeRecord, Trace

_NOT_RECORDING = ("while the tape is not recording (after its `with` block, inside "
                  "`stop_recording`, or before a `tape.reset()`)")
_PAUSED = ("inside this `tape.stop_recording()` block, which keeps whatever it computes off "
           "the tape (leave the forward pass and the loss outside the block)")
#: tensorflow/python/eager/backprop.py GradientTape.reset: "Clears all information stored in
#: this tape", so a gradient asks only what ran after it
_RESET = ("before this `tape.reset()`, which discards everything the tape recorded (reset the "
          "tape before the forward pass, or not at all)")
#: tensorflow/python/distribute/mirrored_run.py runs the replica function on threads of its
#: own; the tape stack is per thread, so a tape of the calling thread records none of it
_REPLICA = ("in the replica function that `strategy.run` runs on the strategy's own threads, "
            "which this tape, opened in the cross-replica context around `strategy.run`, does "
            "not record (open the tape inside the replica function)")
#: a tape records only its own thread's ops (tensorflow/c/eager/tape.h, GetTapeSet is
#: thread-local); a thread the user's code started inside the block is not on it
_THREAD = ("on a thread the code started (a thread pool, a `threading.Thread`), and a tape "
           "records only the ops of the thread it was entered on (run it on the tape's "
           "thread, inside the `with` block)")
_LAZY = ("after the tape's `with` block, though it is built inside it: a generator "
         "expression, `map` or `filter` runs only when consumed (make it a list inside the "
         "block)")
#: tensorflow/python/eager/backprop.py: a GradientTape pushes its tape only in `__enter__`
#: (`_push_tape`); one never entered recorded nothing, and its `gradient` raises
_UNENTERED = ("while the `tf.GradientTape()` made here was never entered, and a tape records "
              "only inside its `with` block (open it with `with tf.GradientTape() as tape:` "
              "around the forward pass)")


@register
class OutsideTape(RuleModule):
    code = "TM103"
    causes = frozenset({"outside-tape"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        trace = ctx.graph.trace
        for hit in ctx.hits("outside-tape"):
            if trained_instead(ctx, hit):
                continue  # the sources are another model's (TM104): the pass stays outside
            call = hit.analysis.call
            tape = hit.analysis.tape
            op = ctx.graph.ops.get(hit.cause.op_seq or -1)
            raw = op.loc if op is not None else call.loc
            if op is not None and op.layer and raw is not None and raw.col is None:
                raw = ctx.index.line_call(raw) or raw  # traced: the layer call's columns
            api = ctx.op_api(op) if op is not None else call.target_label
            if op is not None and op.layer and raw is not None and raw != op.layer_loc:
                # what the user's line ran (`gen(z)`), not where the layer was made
                api = ctx.index.snippet(raw) or api
            if tape is not None and tape.loc is not None and _never_entered(tape):
                # the construction without a `with` is the line to change, not the forward pass
                yield Match((place(tape.loc), "unentered"), tape.loc, hit.cause.primary,
                            {"api": api, "when": _UNENTERED}, hit)
                continue
            if op is not None and trace.thread_at(op.seq) in trace.foreign_threads:
                # the user's line on that thread ran the op (the work it was handed)
                on = (raw.file, raw.line, "thread") if raw is not None else ("?", "thread")
                yield Match(on, raw, hit.cause.primary, {"api": api, "when": _THREAD}, hit)
                continue
            if (op is not None and tape is not None and tape.loc is not None
                    and trace.thread_at(op.seq) != tape.thread):
                # a tape opened around `strategy.run`: the replica function ran on the
                # strategy's own threads, which that tape does not record; the tape moves
                yield Match((place(tape.loc), "replica"), tape.loc, hit.cause.primary,
                            {"api": api, "when": _REPLICA}, hit)
                continue
            switched = _switched(trace, tape, op)
            if switched is not None and op is not None:
                # the op ran inside the user's `with tape.stop_recording():`, or the tape
                # recorded it and `tape.reset()` then discarded it: that block or that reset
                # is the line to change (not the op)
                where, key, when = switched
                what = ctx.index.snippet(raw) if raw is not None else None
                yield Match((place(where), key), where, hit.cause.primary,
                            {"api": what or api, "when": when}, hit)
                continue
            yield _at_user_line(ctx, hit, op, raw, api)
        # a term built from another gradient outside the tape and added in (a WGAN-GP penalty
        # computed before the critic's tape): every weight is connected, the term trains none
        for analysis in ctx.analyses:
            for op, indices in dropped_terms(ctx.graph, analysis):
                for index in indices:
                    hit = Hit(analysis, index, analysis.sources[index],
                              Cause("outside-tape", True, op_seq=op.seq))
                    yield _at_user_line(ctx, hit, op, op.loc, ctx.op_api(op))

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "outside")

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        if any(k in draft.key for k in ("replica", "paused", "reset", "unentered", "lazy",
                                           "thread")):
            return ()  # the tape goes into the replica function: no edit of this shape yet
        # the line that computes the loss (or forward pass) goes into the neighbouring block;
        # a target computed in the gradient call's own arguments is computed last in it
        # a value read by a function the tape runs (a loss closure) is computed in it
        # the block is that of the tape whose gradient call lost the weights (a GAN step has
        # two: the line before both belongs in the generator's, not the neighbouring one)
        tapes = {hit.analysis.tape.loc.line for hit in draft.hits
                 if hit.analysis.tape is not None and hit.analysis.tape.loc is not None
                 and hit.analysis.tape.loc.file == location.file}
        tape_line = tapes.pop() if len(tapes) == 1 else None
        return (statements.move_into_tape(ctx.index, location.file, location.line, tape_line)
                or statements.hoist_target(ctx.index, location.file, location.line)
                or watches.inline_into_function(ctx.index, location.file, location.line) or ())


def _at_user_line(ctx: RuleContext, hit: Hit, op: OpRecord | None, raw: RawLocation | None,
                  api: str) -> Match:
    """Return the match at the line to move into the tape: the op's, or the helper's call."""
    call = hit.analysis.call
    reads_weight = op is not None and hit.source.node in op.inputs
    lazy = deferred.lazy_place(ctx.index, hit.analysis.tape, op, raw, reads_weight)
    if lazy is not None:
        # a lazy value built in the block and consumed after it: the line to change is where
        # it was built, not the consumer the stack shows
        return Match((lazy.file, lazy.line, "lazy"), lazy, hit.cause.primary,
                     {"api": ctx.index.snippet(lazy) or api, "when": _LAZY}, hit)
    outer = op.outer_loc if op is not None else None
    if (outer is not None and raw is not None and call.loc is not None
            and _scope(raw) != _scope(call.loc) and _scope(outer) == _scope(call.loc)):
        # traced ops' places have no columns: the helper call on that line, underlined
        raw = outer if outer.col is not None else ctx.index.line_call(outer) or outer
        api = ctx.index.snippet(raw) or api
    # one line to move into the tape is one finding, whatever ops it runs
    key = (raw.file, raw.line) if raw is not None else ("?",)
    return Match(key, raw, hit.cause.primary, {"api": api, "when": _NOT_RECORDING}, hit)


def _never_entered(tape: TapeRecord) -> bool:
    """Return True when ``tape`` was made in the run and never entered (no recording span).

    A span opens at every ``__enter__`` (tapes.py), so a tape made in the run with none never
    pushed itself; its gradient call raised (backprop.py: ``self._tape is None``).
    """
    return not tape.spans and not tape.made_before


def _scope(raw: RawLocation) -> tuple[str, str]:
    return raw.file, raw.function


def _switched(trace: Trace, tape: TapeRecord | None,
              op: OpRecord | None) -> tuple[RawLocation, str, str] | None:
    """Return the recording switch that kept ``op`` off ``tape`` (its line, key, wording)."""
    if op is None or tape is None or op.graph != tape.graph:
        return None
    paused = trace.switches.paused_at(tape.id, op.seq)
    if paused is not None:
        return paused, "paused", _PAUSED
    reset = trace.switches.discarded_at(tape.id, op.seq)
    return (reset, "reset", _RESET) if reset is not None else None
