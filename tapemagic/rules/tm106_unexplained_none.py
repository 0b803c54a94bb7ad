"""TM106 unexplained-none: TensorFlow returned None where the trace shows a watched path.

Matcher: a source whose verdict is ``unexplained``. tapemagic says so honestly instead of
guessing; the finding is a warning at the gradient call. Not for a tape made before the run
(its forward pass is not in the trace: the report's note says so, and no finding guesses).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import Cause
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class UnexplainedNone(RuleModule):
    code = "TM106"
    causes = frozenset({"unexplained"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            call = analysis.call
            for i, source in enumerate(analysis.sources):
                if source.verdict == "unexplained" and not (
                        analysis.tape is not None and analysis.tape.made_before):
                    hit = Hit(analysis, i, source, Cause("unexplained", True))
                    yield Match((place(call.loc),), call.loc, True, {}, hit)
