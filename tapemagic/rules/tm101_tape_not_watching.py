"""TM101 tape-not-watching: a tape made with ``watch_accessed_variables=False`` skips a weight.

Matcher: a trainable variable source the cut analysis marks ``not-watched`` (the tape did not
record its reads: ``watch_accessed_variables=False`` and no ``tape.watch`` of it). Points at the
tape's line, where the flag is. Fix: drop the keyword (unsafe: the tape then records every
trainable variable it sees read).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic import fixes
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class TapeNotWatching(RuleModule):
    code = "TM101"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            source, tape = hit.source.source, hit.analysis.tape
            if source.handle is None:
                continue  # TM102: a tensor source
            if not source.trainable and (tape is None or tape.watch_accessed_variables):
                continue  # TM107: a non-trainable variable
            if tape is not None and tape.failed_watches:
                continue  # TM108: the watch meant for it raised
            raw = tape.loc if tape is not None else hit.analysis.call.loc
            loc = ctx.index.location(raw)
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"tape_line": str(loc.line) if loc else "?"}, hit)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        edit = fixes.rewrite(location, ctx.index, fixes.drop_watch_flag)
        return (edit,) if edit else ()

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "not-watched", params=matchers.no_params,
                                    transform=fixes.drop_watch_flag)
