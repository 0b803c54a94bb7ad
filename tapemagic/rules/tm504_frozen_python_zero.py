"""TM504 frozen-python-zero: a Python 0.0 frozen into a traced function zeroes some weights.

Matcher: a source of a gradient call traced in a ``tf.function`` that got an all-zero gradient,
every differentiable path of which crosses a ``Mul`` by a graph constant whose every element is
0. A Python number (``self.beta``, a loss weight ramped by the epoch loop) is read once, when
the function is traced, and becomes a constant of the graph: changing the attribute later does
not retrace, so the weights behind that term get exact zeros on every run. Points at the
multiply; the fix is a ``tf.Variable`` (assigned from the loop) or a tensor argument.

The same multiply when every weight still gets a gradient from the loss's other terms (a VAE's
KL term under a ``beta`` ramped by a callback during ``fit``: the reconstruction trains them
all): the term is silently dropped, and the finding names the weights the term reads
(``frozen_terms.dropped_terms``), only when the source shows the factor changed later.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import Cause
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.frozen_terms import dropped_terms

_ZEROED = "get exactly zero gradients"
#: the weights still train through the loss's other terms: only this term is lost
_DROPPED = "get nothing from the term it multiplies (their other terms still train them)"


@register
class FrozenPythonZero(RuleModule):
    code = "TM504"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        if not ctx.trace.zero_constants:
            return
        for analysis in ctx.analyses:
            zeroed: set[int] = set()
            for index, source in enumerate(analysis.sources):
                op = ctx.frozen_zero(analysis, index)
                if op is None or op.loc is None:
                    continue
                zeroed.add(op.seq)
                cause = source.causes[0] if source.causes else Cause("zero-at-runtime", True,
                                                                     op_seq=op.seq)
                api = ctx.index.snippet(op.loc) or ctx.op_api(op)
                yield Match((place(op.loc), op.seq), op.loc, True,
                            {"api": api, "effect": _ZEROED},
                            Hit(analysis, index, source, cause), op_type=op.op_type,
                            graph_edge=("op", op.seq, 0))
            for op, names in dropped_terms(ctx, analysis):
                if op.seq in zeroed or op.loc is None:
                    continue  # the finding above names its weights already
                api = ctx.index.snippet(op.loc) or ctx.op_api(op)
                yield Match((place(op.loc), op.seq), op.loc, True,
                            {"api": api, "effect": _DROPPED}, op_type=op.op_type,
                            graph_edge=("op", op.seq, 0), variables=tuple(names))

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        # a multiply, in a traced step, by a number the source sets to 0 first and changes
        # later (tapemagic.lint.effects): only the weights every path of which crosses it
        return matchers.cut_matches(ctx, self.code, "frozen-zero")
