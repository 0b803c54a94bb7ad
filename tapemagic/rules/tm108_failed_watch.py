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

from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.trace import TapeRecord


@register
class FailedWatch(RuleModule):
    code = "TM108"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            source, tape = hit.source.source, hit.analysis.tape
            if source.handle is None or tape is None or not tape.failed_watches:
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


def _match(ctx: RuleContext, tape: TapeRecord, hit: Hit | None) -> Match:
    raw, error, what = tape.failed_watches[0]
    tape_loc = ctx.index.location(tape.loc)
    return Match((place(raw),), raw, True if hit is None else hit.cause.primary,
                 {"error": error, "what": what,
                  "tape_line": str(tape_loc.line) if tape_loc else "?"}, hit)
