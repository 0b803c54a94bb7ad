"""TM502 vanishing-gradient: a weight's gradient is vanishingly small next to the others'.

Matcher: among the sources of one gradient call that got a non-zero gradient, one whose L2 norm
is below ``RATIO`` (1e-6) times the largest norm of the call. Only weights of rank 2 or more
(kernels, embeddings): a bias gradient is often tiny for a benign reason (centred data, a
normalisation after it). Information, not a cut: the path is connected, but the weight will
barely train (saturated activations, a deep stack without normalisation).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.analysis import Cause
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place

#: A gradient this many times smaller than the call's largest counts as vanishing.
RATIO = 1e-6


@register
class VanishingGradient(RuleModule):
    code = "TM502"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            norms = [(i, s.source.norm) for i, s in enumerate(analysis.sources)
                     if s.verdict == "connected" and s.source.norm]
            if len(norms) < 2:
                continue
            largest = max(n for _, n in norms if n is not None)
            call = analysis.call
            for i, norm in norms:
                shape = analysis.sources[i].source.shape
                if norm is not None and norm < RATIO * largest and shape and len(shape) >= 2:
                    hit = Hit(analysis, i, analysis.sources[i], Cause("zero-at-runtime", False))
                    yield Match((place(call.loc),), call.loc, False,
                                {"largest": f"{largest:.3g}"}, hit, chain=[])
