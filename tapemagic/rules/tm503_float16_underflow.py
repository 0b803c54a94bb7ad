"""TM503 float16-underflow: float16 gradients underflow to exact zeros (mixed precision).

Matcher: a gradient call where every source whose differentiable path to the target crosses a
``float16`` tensor (a ``mixed_float16`` Keras policy casts each weight to float16 for the
layer's maths) got an all-zero gradient, with no op on the path seen zeroing it by value (a
dead ReLU found from the values is TM501's). float16 has no number below about 6e-8
(2**-24, the smallest subnormal): a smaller gradient rounds to 0, so every float16 weight of
the step gets exact zeros. Loss scaling exists for this (Keras ``LossScaleOptimizer``:
differentiate ``optimizer.scale_loss(loss)``; ``apply_gradients`` unscales). Points at the
gradient call, naming every zeroed weight: the target is what must be scaled; the
``set_global_policy("mixed_float16")`` line of the same file is named as the related place.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import TYPE_CHECKING

from tapemagic.graph.verdicts import Cause
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place

if TYPE_CHECKING:
    from tapemagic.trace import RawLocation


@register
class Float16Underflow(RuleModule):
    code = "TM503"
    causes = frozenset({"zero-at-runtime"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for analysis in ctx.analyses:
            call = analysis.call
            zeroed = ctx.float16_underflow(analysis)
            if not zeroed or call.loc is None:
                continue
            policy = _policy_line(ctx, call.loc)
            set_at = f": the `mixed_float16` policy set at line {policy}" if policy else ""
            for index in zeroed:
                source = analysis.sources[index]
                cause = source.causes[0] if source.causes else Cause("zero-at-runtime", True)
                yield Match((place(call.loc),), call.loc, True,
                            {"target": call.target_label, "policy": set_at},
                            Hit(analysis, index, source, cause), chain=[])


def _policy_line(ctx: RuleContext, loc: RawLocation) -> int | None:
    """Return the line of the ``set_global_policy("mixed_float16")`` call in ``loc``'s file.

    The related place: what made the layers compute in float16. The call's first argument
    must name a float16 policy (a later reset to ``"float32"`` is not it); None when the
    file (or cell) sets none, or several at different lines.
    """
    tree = ctx.index.tree(loc.file)
    if tree is None:
        return None
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        first = node.args[0]
        if (name == "set_global_policy" and isinstance(first, ast.Constant)
                and isinstance(first.value, str) and "float16" in first.value):
            found.add(node.lineno)
    return found.pop() if len(found) == 1 else None
