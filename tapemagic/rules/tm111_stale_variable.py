"""TM111 stale-variable: a variable source made again on every call or step.

Matcher, two shapes of one cause (a creation statement that runs again, making a new variable):

- a ``not-connected`` variable source that the tape never read, while a variable of the same
  name was created during the run and read on the loss path instead: ``self.w = tf.Variable(...)``
  inside ``__call__`` (or a step), while the source list keeps the first;
- a trainable variable source created during the run that the next run of the same gradient
  call replaced by a new variable of the same name (``GradientCallRecord.remade``):
  ``v = tf.Variable(...)`` inside the training loop. Each step differentiates its own new
  variable, so no update reaches the next step (and a Keras optimizer built with the first
  raises "Unknown variable" on the next).

Points at the creation line.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import blocks
from tapemagic.graph.verdicts import Cause
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place

_READ_INSTEAD = "call, and the loss reads that one, not the one in the sources"
_EVERY_STEP = ("run of the gradient call, so the update of one step never reaches the next: "
               "it never trains (an optimizer built with the first one does not know the next)")


@register
class StaleVariable(RuleModule):
    code = "TM111"
    causes = frozenset({"not-connected"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-connected"):
            handle = ctx.recreated(hit)
            if handle is None or hit.analysis.keras_zero_error:
                continue
            raw = ctx.trace.handle_created[handle]
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"name": ctx.handle_name(handle), "every": _READ_INSTEAD}, hit)
        for analysis in ctx.analyses:
            for _, index in analysis.call.remade:
                source = analysis.sources[index]
                handle = source.source.handle
                made = ctx.trace.handle_created.get(handle) if handle is not None else None
                if handle is None or made is None:
                    continue
                hit = Hit(analysis, index, source, Cause("not-connected", True))
                yield Match((place(made),), made, True,
                            {"name": ctx.handle_name(handle), "every": _EVERY_STEP}, hit)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # create the variable on the first call only, or once before the loop; later calls
        # and steps reuse it
        return (blocks.create_once(ctx.index, location.file, location.line)
                or blocks.create_before_loop(ctx.index, location.file, location.line) or ())
