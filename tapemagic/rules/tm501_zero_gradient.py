"""TM501 zero-gradient: a connected path whose gradient is exactly zero at run time.

Matcher: a source whose gradient TensorFlow returned as all zeros, with the op on its path that
zeroes it: ``Sign`` (its registered gradient is zeros, math_grad.py ``_SignGrad``), or an op the
tracer saw saturated on this batch (``optypes.SATURATING``: a ReLU with no active unit, a
``clip_by_value`` or ``maximum``/``minimum`` whose every element sat at the bound). A warning at
that op (for an op of a Keras layer, at the layer's definition when the source names it): the
code is connected, the values are what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tapemagic import fixes
from tapemagic.fixes import blocks, surrogates
from tapemagic.graph import zero_below, zero_factors, zero_weights
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.locations import enclosing_function
from tapemagic.optypes import COMPARISON_OPS, MULTIPLYING, SATURATING_SOFTMAX, ZERO_GRADIENT
from tapemagic.report.model import Edit, Location
from tapemagic.rules import collapsed_norm, initial_values
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.decided import layer_place as _layer_place
from tapemagic.rules.decided import upstream
from tapemagic.rules.emptied_updates import emptied_updates
from tapemagic.trace import RawLocation

if TYPE_CHECKING:
    import libcst as cst

    from tapemagic.graph.verdicts import CallAnalysis
    from tapemagic.trace import OpRecord

_REASONS = {
    "Sign": "the gradient of `tf.sign` is zero everywhere",
    "Relu": "no ReLU unit is active on this batch (a dead ReLU)",
    "Relu6": "every ReLU6 unit is at 0 or 6 on this batch",
    "ClipByValue": "every element is outside the clip range, where the gradient is zero",
    "Maximum": "every element takes the other operand, so no gradient reaches this one",
    "Minimum": "every element takes the other operand, so no gradient reaches this one",
}
#: A difference of two equal terms (tracing/cancel.py).
_CANCELS = ("its two terms are the same value (the same tensor, or the same ops on the same "
            "inputs), so the difference is zero whatever the weights and so is its gradient")
#: For an op traced in a graph (no values to check): the probable reason.
_PROBABLE = "probably saturated on this batch (graph mode: the values were not checked)"


@register
class ZeroGradient(RuleModule):
    code = "TM501"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        underflows = {(id(a), i) for a in ctx.analyses for i in ctx.float16_underflow(a)}
        behind = _behind_dead(ctx)
        extra: dict[tuple[object, ...], tuple[RawLocation | None, tuple[str, ...]]] = {}
        hit_ops: set[tuple[int, int]] = set()
        collapses: list[collapsed_norm.Collapse] | None = None
        for hit in ctx.hits("zero-at-runtime"):
            if (id(hit.analysis), hit.index) in underflows or (
                    ctx.frozen_zero(hit.analysis, hit.index) is not None):
                continue  # float16 underflow (TM503), a frozen 0.0 (TM504): not a saturation
            op = ctx.graph.ops.get(hit.cause.op_seq or -1)
            cancels = op is not None and op.seq in ctx.trace.self_cancelling
            if op is None or not (op.op_type in ZERO_GRADIENT or op.saturated or op.graph
                                  or cancels):
                continue
            if op.op_type in SATURATING_SOFTMAX:
                continue  # a saturated softmax: TM505 (information)
            if op.zero_factors and hit.index in dict(hit.analysis.call.zeroed):
                # a mask, a condition or a divisor that was all zero: where it was made; a
                # constant zero is the user's own number
                made = zero_factors.origin(ctx.graph, op)
                if made is not None:
                    yield _factor_match(ctx, hit.analysis, op, made, [hit.index], hit)
                continue
            api = ctx.op_api(op) if not op.layer else op.layer
            compiled = _compiled_place(ctx, op)
            raw = compiled or _layer_place(ctx, op)
            if cancels:
                reason = _CANCELS
            elif op.op_type in ZERO_GRADIENT or op.saturated:
                reason = _REASONS.get(op.op_type, "its gradient is zero here")
            else:
                reason = _PROBABLE
            if compiled is not None and op.loc is not None:  # where it bites: fit's line
                reason += (f" (in the loss this `compile` chose, as `fit` runs it at line "
                           f"{op.loc.line})")
            raw, reason = _initial_place(ctx, op, raw, reason)
            raw, why = upstream(ctx, op, raw)
            reason += why
            if collapses is None:
                collapses = collapsed_norm.collapses(ctx)
            collapse = collapsed_norm.explaining(op, collapses)
            reads, steps = behind.get((id(hit.analysis), op.seq), ((), 0))
            if collapse is not None:  # a normalisation over axes of size 1 zeroes it all
                raw, reason = collapsed_norm.place_of(ctx, collapse, hit.analysis.call.loc)
                api = collapse.centring.layer or api
            shown = collapse.centring if collapse is not None else op
            if reads and collapse is None:  # the weights that multiply its zeros are its too
                reason += "; " + _zero_output(reads, steps, " as well")
            key = (place(raw), shown.op_type)
            yield Match(key, raw, True, {"api": api, "op": shown.op_type, "reason": reason},
                        hit, api=api, op_type=shown.op_type, graph_edge=("op", shown.seq, 0))
            if reads:  # named after the weights behind the op (once all its hits are in)
                named = extra.get(key, (raw, ()))[1]
                extra[key] = (raw, tuple(dict.fromkeys((*named, *reads))))
            hit_ops.add((id(hit.analysis), op.seq))
        for merged, (where, names) in extra.items():
            yield Match(merged, where, True, variables=names)
        yield from _dead_alone(ctx, behind, hit_ops)

        yield from _zero_weights(ctx)
        yield from _zero_factors(ctx)
        yield from emptied_updates(ctx)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        # an op whose registered gradient is zeros (tf.sign) on every path to the loss: the
        # saturations are values, which only the run sees
        return matchers.cut_matches(ctx, self.code, "zero", transform=_straight_through)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # Sign: a straight-through estimator; a clip stuck at its bounds: the same through the
        # clip; a dead ReLU layer with an all-zero kernel: Keras' default initialiser. Other
        # saturations depend on the values (the learning rate, the data): no edit.
        if draft.op_type == "Sign":
            edit = fixes.rewrite(location, ctx.index, surrogates.straight_through)
        elif draft.op_type in ("ClipByValue", "Maximum", "Minimum"):  # clip_by_value's ops
            edit = fixes.rewrite(location, ctx.index, surrogates.straight_through_clip)
        elif draft.op_type in ("Relu", "Relu6"):
            made = blocks.zero_initializer(ctx.index, location.file, location.line)
            return fixes.ChangesValues(made, blocks.NEW_INITIAL_WEIGHTS) if made else ()
        else:
            edit = None
        return (edit,) if edit else ()


#: Keras 3's name scope of the loss ``compile`` set (``CompileLoss``), run inside ``fit``
_COMPILED_LOSS = "compile_loss/"


def _compiled_place(ctx: RuleContext, op: OpRecord) -> RawLocation | None:
    """Return the ``compile`` call that chose the built-in loss ``op`` saturated in, if one.

    A Keras loss given to ``compile`` by name or object runs in Keras' code inside ``fit``:
    the ``fit`` line is only where it bites; the loss chosen (``from_logits``, the loss
    itself) is the line to change. A loss function the user wrote keeps its own lines; with
    several ``compile`` calls before the op (two models), which one chose it is not known.
    """
    if not op.layer.startswith(_COMPILED_LOSS) or not (op.api_module or "").startswith("keras"):
        return None
    places = {place(loc): loc for seq, loc in ctx.trace.compiles if seq < op.seq and loc}
    return next(iter(places.values())) if len(places) == 1 else None


def _initial_place(ctx: RuleContext, op: OpRecord, raw: RawLocation | None,
                   reason: str) -> tuple[RawLocation | None, str]:
    """Return the place and reason of a dead ReLU the user's initial weights made dead.

    The layer's call sets a one-value kernel or a negative constant bias
    (``initial_values.user_initializer``): that argument is the line to change; the layer's
    line is named in the reason and stays in the finding's path.
    """
    if raw is None or op.op_type not in ("Relu", "Relu6") or not op.saturated:
        return raw, reason
    given = initial_values.user_initializer(ctx.index, raw)
    if given is None:
        return raw, reason
    text = ctx.index.snippet(given) or "its initialiser"
    return given, (f"{reason}; its units start that way: `{text}`, given to the layer at "
                   f"line {raw.line}, sets every initial value alike")


def _behind_dead(ctx: RuleContext) -> dict[tuple[int, int], tuple[list[str], int]]:
    """Return, per (analysis, dead op), the weights reading its all-zero output, and steps.

    ``steps``: the fewest checked steps in which one of them was zero.

    Their gradient is their input activations times the output's gradient, and those
    activations are the dead op's zeros (``zero_weights.zeroed_by_dead``): the op is the cut
    to fix, and they are named in its finding rather than in one of their own (TM118).
    """
    out: dict[tuple[int, int], tuple[list[str], int]] = {}
    for analysis in ctx.analyses:
        steps, _ = zero_weights.stuck_runs(analysis)
        if not steps or analysis.call.error_type:
            continue
        for seq, found in zero_weights.zeroed_by_dead(ctx.graph, analysis).items():
            out[(id(analysis), seq)] = ([analysis.sources[i].source.name for i in found],
                                        min(steps[i] for i in found))
    return out


def _zero_output(reads: list[str], steps: int, also: str) -> str:
    one = len(reads) == 1
    when = (f"in each of {steps} checked steps" if steps > 1 else
            "in the one checked step, and in every later one: what it reads gets zero "
            "gradients too, so it stays as it is")
    return (f"its output is all zero, so {_listed(reads)}, which "
            f"{'multiplies' if one else 'multiply'} it, {'gets' if one else 'get'} exactly "
            f"zero gradients{also} ({when})")


def _dead_alone(ctx: RuleContext, behind: dict[tuple[int, int], tuple[list[str], int]],
                hit_ops: set[tuple[int, int]]) -> Iterable[Match]:
    """Match a dead op that zeroes only the weights reading its output (nothing before it).

    A fake-quant on the data itself that clamps every element to 0: no weight's path goes
    through its gradient, but the next layer's kernel multiplies its zeros.
    """
    for analysis in ctx.analyses:
        for (owner, seq), (reads, steps) in behind.items():
            if owner != id(analysis) or (owner, seq) in hit_ops:
                continue
            op = ctx.graph.ops[seq]
            if zero_below.zero_from_below(ctx.graph, analysis.sources, analysis.connected, op):
                continue  # the loss gave it no gradient to pass on: it cut nothing
            api = ctx.op_api(op) if not op.layer else op.layer
            raw = _layer_place(ctx, op)
            yield Match((place(raw), op.op_type), raw, True,
                        {"api": api, "op": op.op_type,
                         "reason": _zero_output(reads, steps, "")},
                        api=api, op_type=op.op_type, graph_edge=("op", op.seq, 0),
                        variables=tuple(reads))


def _listed(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _zero_weights(ctx: RuleContext) -> Iterable[Match]:
    """Match weights that start at zero and keep each other's gradients zero on every step.

    ``graph/zero_weights.py`` finds them for the zeros ``tracing/moved.py`` saw in every
    checked step. One finding per call, at the layer of the zero weight read first in the
    forward pass (the first to fix: with it non-zero the next layers get gradients again).
    """
    for analysis in ctx.analyses:
        if analysis.call.error_type:
            continue
        explained, origins, _ = zero_weights.kept_zero(ctx.graph, analysis)
        ops = [(op, i) for i in origins
               if (op := zero_weights.first_product(ctx.graph, analysis.sources[i].node or -1))]
        if not explained or not ops:
            continue
        op, _ = min(ops, key=lambda item: item[0].seq)
        raw = _layer_place(ctx, op)
        api = op.layer or ctx.op_api(op)
        zero = ", ".join(f"`{analysis.sources[i].source.name}`" for i in origins)
        yield Match((place(raw), "zero-weights", analysis.call.id), raw, True,
                    {"api": api, "op": op.op_type,
                     "reason": f"{zero} start at exactly zero and get zero gradients "
                               "themselves, so every step multiplies these paths by zero "
                               "again (a zero initialiser: nothing breaks the symmetry)"},
                    api=api, op_type=op.op_type,
                    variables=tuple(analysis.sources[i].source.name for i in explained))


def _zero_factors(ctx: RuleContext) -> Iterable[Match]:
    """Match an all-zero mask, condition or divisor that zeroes weights in every checked step.

    ``graph/zero_factors.py`` walks the zero back to where it was made: a comparison (at its
    line, or the Keras layer's that ran it), a variable holding zeros (where it was made), a
    constant. One finding per origin, naming every weight it zeroes.
    """
    for analysis in ctx.analyses:
        if analysis.call.error_type or not (analysis.call.zeroed
                                             or analysis.call.checked_runs == 1):
            continue
        for found in zero_factors.origins(ctx.graph, analysis):
            yield _factor_match(ctx, analysis, found.factor, found.op, found.sources)
        for op, stopped in zero_factors.loop_zeros(ctx.graph, analysis):
            yield _loop_match(ctx, analysis, op, stopped)


def _loop_match(ctx: RuleContext, analysis: CallAnalysis, op: OpRecord,
                found: list[int]) -> Match:
    """Return the match of a loop body's product beside a state the body never updates.

    At the ``return`` of the function that ran the product (a recurrent cell's ``call``):
    the state it returns is the one it got, so the loop's zero initial state stays.
    """
    raw = _layer_place(ctx, op) if op.loc is None else op.loc
    tree = ctx.index.tree(raw.file) if raw is not None else None
    if raw is not None and tree is not None:
        function = enclosing_function(tree, raw.line)
        line = getattr(function, "lineno", None)
        if line is not None:
            decorated = min([line, *(d.lineno for d in getattr(function, "decorator_list", ()))])
            start = RawLocation(raw.file, decorated, None, None, None, "")
            raw = ctx.index.returns_of(start) or raw
    names = [analysis.sources[i].source.name for i in found]
    steps = dict(analysis.call.zeroed)
    api = op.layer or ctx.op_api(op)
    reason = ("the loop state it multiplies is returned unchanged by the loop body, so it "
              "keeps its zero initial value in every iteration: return the updated state; "
              f"their gradient is exactly zero in each of {min(steps[i] for i in found)} "
              "checked steps")
    return Match((place(raw), "loop-zero", analysis.call.id, op.seq), raw, True,
                 {"api": api, "op": op.op_type, "reason": reason},
                 api=api, op_type=op.op_type, graph_edge=("op", op.seq, 0),
                 variables=tuple(names))


def _factor_match(ctx: RuleContext, analysis: CallAnalysis, factor: OpRecord, made: OpRecord,
                  found: list[int], hit: Hit | None = None) -> Match:
    """Return the match of zeroed sources ``found`` at ``made``, which made ``factor``'s zero."""
    steps = dict(analysis.call.zeroed)
    names = [analysis.sources[i].source.name for i in found]
    held = zero_factors.variable_source(analysis, ctx.graph, made)
    if held is not None:
        variable = analysis.sources[held].source
        handle = variable.handle
        raw = (ctx.trace.handle_created.get(handle) if handle is not None else None) or (
            _layer_place(ctx, factor))
        what = f"`{variable.name}` holds only zeros (it starts at zero" + (
            ", and its own gradient is zero too, so no update moves it)" if held in steps
            else ")")
    else:
        # a keras.ops call in the user's own layer code is the user's line (graph/refine.py)
        own = (made.api_module or "").startswith("keras.src.ops") and made.loc is not None
        raw = made.loc if own else _layer_place(ctx, made)
        what = (f"the `{made.op_type}` here gives only "
                f"{'False' if made.op_type in COMPARISON_OPS else 'zeros'}")
        if zero_factors.configured(ctx.graph, made):  # a loss object's setting: where made
            called = f" (called at line {made.loc.line})" if made.loc else ""
            raw = (ctx.index.callee_made(made.loc) if made.loc else None) or raw
            what = (f"the loss object{called} multiplies by a number it was made with, and "
                    f"that number is 0: `{ctx.index.snippet(raw) or 'its setting'}`")
        elif made is factor:  # no recorded op made the zero: the data the run was given
            what = "the value it reads there is all zero as the run was given it (data)"
        elif _centres_on_itself(ctx, made):
            what = (f"the `{made.op_type}` here gives only zeros: it takes a mean over axes "
                    "of one element from the value itself (the mean of one number is that "
                    "number)")
        elif zero_factors.same_inputs(ctx.graph, made):
            # a pair built from one input: where the run was given it (fit's data)
            line = f" at line {made.loc.line}" if made.loc else ""
            raw = analysis.call.loc or raw
            what = (f"the difference `{ctx.op_api(made)}`{line} is all zero: its two terms are "
                    f"the same ops on two inputs this call was given equal values (one "
                    f"input fed twice)")
    api = factor.layer or ctx.op_api(factor)
    runs = min(steps.get(i, 0) for i in found)
    reason = (f"{what}, and `{ctx.op_api(factor)}` (op `{factor.op_type}`) "
              f"{'multiplies' if factor.op_type in MULTIPLYING else 'gates'} the path by it, "
              "so their gradient is exactly zero " + (
                  f"in each of {runs} checked steps" if runs else
                  "in the checked step, and no update can change that: no variable is "
                  "upstream of it (it comes from the data and the code alone)"))
    return Match((place(raw), "zero-factor", analysis.call.id, made.seq), raw, True,
                 {"api": api, "op": factor.op_type, "reason": reason}, hit,
                 api=api, op_type=factor.op_type, graph_edge=("op", factor.seq, 0),
                 variables=tuple(names))


def _centres_on_itself(ctx: RuleContext, made: OpRecord) -> bool:
    """Return True when ``made`` is ``x - mean(x)`` with the mean over axes of size 1."""
    return made.op_type == "Sub" and any(
        found.centring.seq == made.seq for found in collapsed_norm.collapses(ctx))


def _straight_through(node: cst.BaseExpression) -> cst.BaseExpression | None:
    # read the transform only when an edit is computed: surrogates loads LibCST
    return surrogates.straight_through(node)
