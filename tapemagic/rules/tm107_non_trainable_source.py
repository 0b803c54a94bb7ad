"""TM107 non-trainable-source: a variable with ``trainable=False`` passed as a gradient source.

Matcher: a variable source marked ``not-watched`` that is not trainable while the tape watched
accessed variables: the tape watches only trainable ones (``model.weights`` holds BatchNorm's
moving statistics, for one). Points at the gradient call, where the source list is passed;
for a plain ``tf.Variable`` the run made, at the line that made it (its ``trainable`` flag is
set there once and for all).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic import fixes
from tapemagic.fixes import calls
from tapemagic.lint import freezes
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place

# Two shapes, two wordings: a weight a model keeps out of training on purpose that the
# source list took in (the sources are wrong), and a variable the user made frozen and means
# to train (it was never watched)
_LISTED = (": it is one of the model's non-trainable weights (a moving statistic, a frozen "
           "layer's weight) that the source list took in; pass `trainable_variables`")
_MADE = (": it was made with `trainable=False`{where}; make it trainable, or "
         "`tape.watch` it inside the `with` block, if it should train")


@register
class NonTrainableSource(RuleModule):
    code = "TM107"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            source, tape = hit.source.source, hit.analysis.tape
            if source.handle is None or source.trainable:
                continue
            if source.on_read:
                continue  # TM121: non-trainable by its synchronization, not by a flag
            if tape is not None and not tape.watch_accessed_variables:
                continue  # TM101: the tape watches nothing on its own
            raw = hit.analysis.call.loc
            detail = _LISTED if source.kind == "keras-variable" else _MADE.format(where="")
            made = ctx.trace.handle_created.get(source.handle)
            if source.kind == "variable" and made is not None:
                # the user's own `tf.Variable(..., trainable=False)`: a tf.Variable's flag is
                # fixed when it is made, so that line is the one to change
                raw, detail = made, _MADE.format(where=" on this line")
            loc = ctx.index.location(tape.loc if tape is not None else raw)
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"tape_line": str(loc.line) if loc else "?", "detail": detail}, hit)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for _call, site, text in freezes.frozen_sources(ctx):
            yield LintMatch(self.code, site, {"api": text})

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # `model.variables` -> `model.trainable_variables` in the source list
        edit = fixes.rewrite(location, ctx.index, calls.trainable_sources)
        return (edit,) if edit else ()
