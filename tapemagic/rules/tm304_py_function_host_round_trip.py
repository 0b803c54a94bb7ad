"""TM304 py-function-host-round-trip: a ``tf.py_function`` body leaves TensorFlow.

Matcher: a source whose gradient is None or zero along a differentiable path that crosses an
``EagerPyFunc`` op, when the body run for that op converted a tensor to a host value
(``.numpy()``, NumPy on a tensor): the tape TensorFlow runs inside the body for the gradient
sees a constant, so the gradient is zero (or the backward pass fails far from the line). Points
at the conversion inside the body.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class PyFunctionHostRoundTrip(RuleModule):
    code = "TM304"
    causes = frozenset({"host-round-trip"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("host-round-trip"):
            if hit.cause.op_seq is None or hit.cause.event is None:
                continue
            event = ctx.graph.events[hit.cause.event]
            function = event.loc.function if event.loc is not None else "?"
            yield Match((place(event.loc),), event.loc, hit.cause.primary,
                        {"api": event.api, "function": function}, hit, api=event.api,
                        op_type="EagerPyFunc")

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "py-host", params=lambda found: {
            "api": found.cut.api, "function": found.cut.detail})
