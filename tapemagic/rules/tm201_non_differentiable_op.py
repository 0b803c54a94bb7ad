"""TM201 non-differentiable-op: an op with no usable gradient on the path.

Matcher: a cut edge of cause ``non-differentiable-op``: the op's entry in TensorFlow's gradient
registry is None (``ops.NotDifferentiable``) or missing (``LookupError``), or its registered
gradient returns None (``tapemagic.optypes.RETURNS_NONE``), or returns None for the input on the
path only (``Trace.none_inputs``: asked of the registry while the check ran, tracing/witness.py;
the reason names those inputs) or zeros whatever the values (``Trace.zero_inputs``,
tracing/zero_witness.py), or whose registered gradient function raised in the call's
backward pass (``Trace.raising_gradients``; the reason quotes the error). One finding per op
and place.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic import fixes
from tapemagic.fixes import surrogates
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.members import SAMPLE
from tapemagic.lint.values import Site
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, EdgeRule, Match, register
from tapemagic.rules.context import RuleContext


@register
class NonDifferentiableOp(EdgeRule):
    code = "TM201"
    causes = frozenset({"non-differentiable-op"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for match in super().match(ctx):
            witnessed = ctx.trace.none_inputs.get(match.edge.ref) if match.edge else None
            zeroes = ctx.trace.zero_inputs.get(match.edge.ref) if match.edge else None
            raised = ctx.trace.raising_gradients.get(match.edge.ref) if match.edge else None
            if raised is not None and match.edge is not None and match.edge.kind == "op":
                # a registered gradient that raised (QR's NotImplementedError for a full Q)
                match.params["reason"] = f"its registered gradient raised {raised[1]}"
            elif zeroes and match.edge is not None and match.edge.kind == "op":
                # a gradient it fills with zeros for some inputs (a quantiser's range)
                names = [f"`{name}`" for _, name in sorted(zeroes.items())]
                plural = "s" if len(names) > 1 else ""
                match.params["reason"] = (f"its registered gradient gives its input{plural} "
                                          f"{', '.join(names)} exact zeros whatever the values")
            elif witnessed and match.edge is not None and match.edge.kind == "op":
                # differentiable in some inputs only (betainc's a and b): name the others
                names = [f"`{name}`" for _, name in sorted(witnessed.items())]
                plural = "s" if len(names) > 1 else ""
                match.params["reason"] = (f"its registered gradient returns None for its "
                                          f"input{plural} {', '.join(names)}")
            made_by, made_op = match.params.pop("made_by", None), match.params.pop("made_op", "")
            bites = match.params.pop("bites", None)
            if made_by is not None and bites is not None:
                # the cut op is a gradient of the user's op, made by the first gradient call
                match.params["reason"] += (f"; it is the gradient TensorFlow made for "
                                           f"`{made_by}` (op `{made_op}`) in {bites}, which "
                                           f"this gradient call differentiates again: an op "
                                           f"with a differentiable gradient there keeps the "
                                           f"path")
                match.api = match.params["api"] = made_by
            yield match

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        yield from matchers.cut_matches(ctx, self.code, "non-differentiable")
        # a loss that reads a sampled action and no log-probability of it: the score
        # function term (REINFORCE) goes where the loss is made
        for found in ctx.cuts("non-differentiable"):
            loss = ctx.target_statement(found.call) if found.cut.detail == SAMPLE else None
            if loss is not None and not found.call.target.live:
                yield LintMatch(self.code, Site.of(loss), {
                    "api": f"{found.cut.api} (a sample, read with no log-probability)"})

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # a one-hot of the maximum (one_hot(argmax(x)), cast(equal(x, max))): the softmax
        # replaces the whole expression, at either op's finding
        edit = (fixes.rewrite_outer(location, ctx.index, surrogates.relaxed_one_hot)
                or fixes.rewrite(location, ctx.index, surrogates.relaxed_one_hot))
        if edit is not None:
            return fixes.ChangesValues((edit,), surrogates.SOFT_ONE_HOT)
        why = fixes.index_only(location, ctx.index)
        if why is not None:  # a value used only as an index: no surrogate can be right
            return fixes.NoEdit(why)
        edit = fixes.rewrite(location, ctx.index, surrogates.surrogate)
        if edit is not None:  # a straight-through estimator: the same forward value
            return (edit,)
        edit = fixes.rewrite(location, ctx.index, surrogates.soft_argmax)
        if edit is None:
            return ()
        # a soft argmax is a float: an integer argmax it is combined with is cast to match
        return fixes.ChangesValues(
            (edit, *fixes.argmax_partners(ctx.index, location.file, location.line)),
            surrogates.SOFT_ARGMAX)
