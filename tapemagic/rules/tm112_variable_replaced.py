"""TM112 variable-replaced: a later run passed a tensor where the analysed run had a variable.

Matcher: a variable source of a gradient call that a later run of the same call passed as a
plain tensor, and got no gradient for (the tracer checks later runs' results and source kinds,
cheaply): the shape of ``x = x - lr * g`` in a training loop, which rebinds the name to a
tensor that no tape watches. Points at that assignment (the first one after the gradient call
in its scope, else the last one before it), else at the call.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import blocks, calls
from tapemagic.graph.verdicts import Cause
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class VariableReplaced(RuleModule):
    code = "TM112"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        found: dict[tuple[object, int], Match] = {}  # (call site, source index) -> match
        for match in self._replaced(ctx):
            assert match.hit is not None
            found[(match.hit.analysis.call.site, match.hit.index)] = match
            yield match
        # the later run analysed once more sees an unwatched tensor: the same cut, same place
        for hit in ctx.hits("not-watched"):
            first = found.get((hit.analysis.call.site, hit.index))
            if first is not None and hit.source.source.handle is None:
                yield Match(first.key, first.raw, True, dict(first.params), hit)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # `x = x - lr * g` -> `x.assign_sub(lr * g)`: the name stays the variable
        return blocks.rewrite_statement(ctx.index, location.file, location.line,
                                        calls.rebind_to_assign) or ()

    def _replaced(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            call = analysis.call
            lost = {i for _, results in call.regressions
                    for i, r in enumerate(results) if r != "ok"}
            for run, index in call.replaced:
                if index not in lost or index >= len(analysis.sources):
                    continue
                name = ctx.source_argument(call.loc, index)
                raw = call.loc
                if name is not None and call.loc is not None:
                    raw = (ctx.index.assignment(call.loc, name, after=True)
                           or ctx.index.assignment(call.loc, name) or raw)
                hit = Hit(analysis, index, analysis.sources[index], Cause("not-watched", True))
                yield Match((place(raw),), raw, True,
                            {"name": name or analysis.sources[index].source.name,
                             "run": str(run)}, hit)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for name, stmt in ctx.replaced_variables():
            yield LintMatch(self.code, Site.of(stmt), {"name": name})
