"""TM111 stale-variable: the sources hold a variable the step no longer reads (made again).

Matcher: a ``not-connected`` variable source that the tape never read, while a variable of the
same name was created during the run and read on the loss path instead: the shape of
``self.w = tf.Variable(...)`` inside ``__call__`` (or a step), which makes a new variable on
every call while the source list keeps the first. Points at the creation line.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import blocks
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class StaleVariable(RuleModule):
    code = "TM111"
    causes = frozenset({"not-connected"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-connected"):
            handle = ctx.recreated(hit)
            if handle is None or hit.analysis.keras_zero_error:
                continue
            raw = ctx.trace.handle_created[handle]
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"name": ctx.handle_name(handle)}, hit)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # create the variable on the first call only; later calls reuse it
        return blocks.create_once(ctx.index, location.file, location.line) or ()
