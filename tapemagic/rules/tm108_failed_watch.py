"""TM108 failed-watch: a ``tape.watch(...)`` raised, so the weight it meant is never watched.

Matcher: a variable source marked ``not-watched`` whose tape saw a ``tape.watch`` call raise
(Keras 3: ``tape.watch(keras_variable)`` raises ValueError, since a Keras ``Variable`` is not a
``tf.Variable``; the user's code often catches it). Points at that ``watch`` line. Fix: watch
the backing ``tf.Variable`` (``v.value``), or keep ``watch_accessed_variables`` at its default.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


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
            raw, error, what = tape.failed_watches[0]
            tape_loc = ctx.index.location(tape.loc)
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"error": error, "what": what,
                         "tape_line": str(tape_loc.line) if tape_loc else "?"}, hit)
