"""TM102 unwatched-tensor: a tensor passed as a gradient source that the tape never watched.

Matcher: a tensor (not variable) source marked ``not-watched``: ``tape.gradient(loss, t)``
with no ``tape.watch(t)`` while the tape recorded. Points at the tape's line, where the
``tape.watch`` call belongs; when the tensor was computed from a variable (``x = x + 1`` in a
loop replaced the ``tf.Variable`` by a tensor, so a later run gets None), at that line; when it
was watched only after its first use on the path, at that ``tape.watch``. A constant never
watched also gets a secondary finding where it was made (the assignment of the name passed):
it could be a ``tf.Variable``; a tensor computed from others cannot.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.fixes import statements
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.tm108_failed_watch import claims_tensor
from tapemagic.trace import RawLocation


@register
class UnwatchedTensor(RuleModule):
    code = "TM102"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            if hit.source.source.handle is not None or _replaced(ctx, hit):
                continue  # a variable source / TM112: a variable replaced by this tensor
            if claims_tensor(hit):
                continue  # TM108: the watch meant for it raised (and was caught)
            tape = hit.analysis.tape
            raw = tape.loc if tape is not None else hit.analysis.call.loc
            made = _made_from_variable(ctx, hit.source.node)
            late = tape.watch_events.get(hit.source.node or -1) if tape is not None else None
            if late is not None and late[1] is not None:
                raw = late[1]  # watched, but after the op that used it ran: move the watch up
            elif made is not None:
                raw = made
            else:
                # the watch goes at the tape; the line that made the tensor is the other end
                call = hit.analysis.call
                name = ctx.source_argument(call.loc, hit.index)
                origin = ctx.index.assignment(call.loc, name) if name and call.loc else None
                if (origin is not None and origin.line != (raw.line if raw else None)
                        and _leaf(ctx, hit.source.node)):
                    yield Match((place(origin),), origin, False, {}, hit)
            yield Match((place(raw),), raw, hit.cause.primary, {}, hit)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for _call, sites in ctx.unwatched_tensors():
            for site in sites:
                yield LintMatch(self.code, site)
        # values a Keras stateless_call runs the model with, never watched: at the tape
        yield from matchers.cut_matches(ctx, self.code, "unwatched-values",
                                        params=matchers.no_params)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # at the tape: watch the names passed as sources; at a late watch: move it up
        moved = statements.watch_earlier(ctx.index, location.file, location.line)
        if moved is not None:
            return moved
        names = [ctx.source_argument(h.analysis.call.loc, h.index) for h in draft.hits]
        if any(n is None for n in names):
            return ()
        unique = [n for n in dict.fromkeys(names) if n is not None]
        return statements.add_watch(ctx.index, location.file, location.line, unique) or ()


def _made_from_variable(ctx: RuleContext, node: int | None) -> RawLocation | None:
    """Return the line of the statement that made tensor ``node`` from a variable's value.

    Only the ops of that statement are walked (``x = x + 1.0`` read the variable ``x`` there):
    a tensor computed from a model's output (WGAN-GP's interpolates of generated images) is
    not a variable replaced by a tensor, and its watch goes at the tape.
    """
    record = ctx.trace.tensors.get(node) if node is not None else None
    if record is None or record.producer is None:
        return None
    op = ctx.graph.ops.get(record.producer[0])
    if op is None or op.in_gradient:
        return None
    stack, seen = list(op.inputs), set(op.inputs)
    while stack:
        tensor = ctx.trace.tensors.get(stack.pop())
        if tensor is None:
            continue
        if tensor.leaf == "handle":
            return op.loc
        producer = ctx.graph.ops.get(tensor.producer[0]) if tensor.producer else None
        if producer is not None and not _same_line(producer.loc, op.loc):
            continue
        for serial in producer.inputs if producer is not None else ():
            if serial not in seen:
                seen.add(serial)
                stack.append(serial)
    return None


def _leaf(ctx: RuleContext, node: int | None) -> bool:
    """Return True when tensor ``node`` was made from a value (a constant), not computed.

    Such a tensor could be made a ``tf.Variable`` where it is made: that line is the other end
    of the cut. A tensor computed from other tensors can only be watched (one cut, one place).
    """
    record = ctx.trace.tensors.get(node) if node is not None else None
    if record is None or record.producer is None:
        return True
    op = ctx.graph.ops.get(record.producer[0])
    return op is None or not op.inputs


def _same_line(a: RawLocation | None, b: RawLocation | None) -> bool:
    return a is None or b is None or (a.file, a.line) == (b.file, b.line)


def _replaced(ctx: RuleContext, hit: Hit) -> bool:
    """Return True when an earlier run of the same call had a variable for this source."""
    site = hit.analysis.call.site
    return any(a.call.site == site and any(i == hit.index for _, i in a.call.replaced)
               for a in ctx.analyses)
