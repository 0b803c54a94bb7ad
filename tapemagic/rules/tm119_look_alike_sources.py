"""TM119 look-alike-sources: the sources are another model object's copies of the loss's weights.

Matcher (``rules/look_alikes.py``): a gradient call none of whose variable sources the loss
reads while the tape recorded, each with a look-alike on the recorded loss path (same layer
and variable path, under any model scope, same shape and dtype, trained by no gradient call
and written by nothing): ``params = model.trainable_variables`` kept from before
``model = keras.models.load_model(path)``. Every gradient is None. Points at the gradient
call, whose source list is the one to change; the message names the line that took the list
when it is a name. A variable made again under the very same name is TM111's.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.graph.verdicts import CallAnalysis, Cause
from tapemagic.rules.base import Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.look_alikes import look_alikes


@register
class LookAlikeSources(RuleModule):
    code = "TM119"
    causes = frozenset({"not-connected"})  # the analysis' cause it explains (TM104 leaves it)

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        found: dict[str, tuple[dict[int, int], dict[str, str]] | None] = {}
        for hit in ctx.hits("not-connected"):
            call = hit.analysis.call
            if call.id not in found:
                found[call.id] = _stale(ctx, hit.analysis)
            stale = found[call.id]
            if stale is not None and hit.index in stale[0]:
                yield Match((place(call.loc),), call.loc, True, dict(stale[1]), hit)


def _stale(ctx: RuleContext, analysis: CallAnalysis) -> tuple[dict[int, int],
                                                             dict[str, str]] | None:
    """Return the call's look-alikes and the message's params, or None (see the module)."""
    call = analysis.call
    alike = look_alikes(ctx, analysis) if call.loc is not None else {}
    if not alike or any(ctx.recreated(Hit(analysis, i, s, Cause("not-connected", True)))
                        is not None for i, s in enumerate(analysis.sources)):
        return None  # TM111: the same name made again
    name = ctx.source_argument(call.loc, 0) if len(analysis.sources) > 1 else None
    taken = ctx.index.assignment(call.loc, name) if name and call.loc else None
    listed = (f"`{name}`, the list taken at line {taken.line}" if taken is not None
              else "the sources")
    read = ", ".join(f"`{ctx.handle_name(h)}`" for h in list(alike.values())[:3])
    more = f" and {len(alike) - 3} more" if len(alike) > 3 else ""
    return alike, {"target": call.target_label, "listed": listed, "read": read + more}
