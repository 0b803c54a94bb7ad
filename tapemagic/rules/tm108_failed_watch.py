"""TM108 failed-watch: a ``tape.watch(...)`` raised, so the weight it meant is never watched.

Matcher: a variable source marked ``not-watched`` whose tape saw a ``tape.watch`` call raise
(Keras 3: ``tape.watch(keras_variable)`` raises ValueError, since a Keras ``Variable`` is not a
``tf.Variable``; the user's code often catches it), or a watch that raised and ended the run
before any gradient call (``tape.watch(model.inputs)``: symbolic Keras tensors). Points at that
``watch`` line. Fix: watch
the backing ``tf.Variable`` (``v.value``), or keep ``watch_accessed_variables`` at its default.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import watches
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.trace import TapeRecord


@register
class FailedWatch(RuleModule):
    code = "TM108"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            source, tape = hit.source.source, hit.analysis.tape
            if tape is None or not tape.failed_watches:
                continue
            if source.handle is None:
                if claims_tensor(hit):
                    yield _match(ctx, tape, hit)
                continue
            if not source.trainable and tape.watch_accessed_variables:
                continue  # TM107
            yield _match(ctx, tape, hit)
        # a watch that raised and ended the run: no gradient call of its tape ever ran
        called = {a.call.tape for a in ctx.analyses}
        for tape in ctx.trace.tapes:
            if tape.failed_watches and tape.id not in called:
                yield _match(ctx, tape, None)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for cut in ctx.failed_watches:
            yield LintMatch(self.code, cut.site, {"api": cut.api})

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        what = draft.params.get("what", "")
        if what.startswith("Variable") or draft.hits and all(
                h.source.source.kind == "keras-variable" for h in draft.hits):
            # a Keras 3 variable: watch (and differentiate by) its backing tf.Variable
            return watches.watch_value(ctx.index, location.file, location.line) or ()
        # symbolic Keras inputs: watch the batch the block feeds to the model
        return watches.watch_model_input(ctx.index, location.file, location.line) or ()


def claims_tensor(hit: Hit) -> bool:
    """Return True when a tensor source's missing watch is the ``tape.watch`` that raised.

    The user meant to watch the input (``tape.watch(model.inputs)``: symbolic Keras tensors),
    the watch raised inside their ``try``, and the tensor they differentiate by was then never
    watched: one cause, the failed watch (TM102 stays silent for it). A failed watch of a Keras
    variable says nothing about a tensor, and a tensor watched anywhere is not this case.
    """
    tape = hit.analysis.tape
    if tape is None or hit.source.source.handle is not None:
        return False
    if hit.source.node is not None and hit.source.node in tape.watch_events:
        return False
    return any("Variable" not in what for _, _, what in tape.failed_watches)


def _match(ctx: RuleContext, tape: TapeRecord, hit: Hit | None) -> Match:
    raw, error, what = tape.failed_watches[0]
    tape_loc = ctx.index.location(tape.loc)
    return Match((place(raw),), raw, True if hit is None else hit.cause.primary,
                 {"error": error, "what": what,
                  "tape_line": str(tape_loc.line) if tape_loc else "?"}, hit)
