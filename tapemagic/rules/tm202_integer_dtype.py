"""TM202 integer-dtype: the path crosses an integer or boolean tensor.

Matcher: a cut edge of cause ``integer-dtype`` (``backprop_util.IsTrainable`` is False for the
edge's input or output dtype: an int cast, ``tf.argsort``'s TopKV2 indices, an int variable).
An integer tensor passed to ``tape.watch`` and used as indices (token ids for a saliency
map) is reported at that watch. An integer variable passed as a source is reported where it
was created (an integer initial value: ``tf.Variable(2)``) when the run created it, else at
the gradient call, where the source list is passed (inside a ``tf.distribute`` strategy too).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic import fixes
from tapemagic.fixes import calls, surrogates
from tapemagic.graph.walks import forward
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, EdgeRule, Match, register
from tapemagic.rules.context import RuleContext, place


@register
class IntegerDtype(EdgeRule):
    code = "TM202"
    causes = frozenset({"integer-dtype"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        yield from super().match(ctx)
        for hit in ctx.hits("integer-dtype"):
            if hit.cause.edge is None:  # the source itself holds integers
                call, source = hit.analysis.call, hit.source.source
                tape = hit.analysis.tape
                watch = tape.watch_events.get(source.tensor or -1) if tape is not None else None
                if (source.handle is None and watch is not None and watch[1] is not None
                        and _used_as_indices(ctx, source.tensor)):
                    # watching integer ids (a saliency map over token ids) is the mistake:
                    # the line to change is the watch (watch the float embeddings instead);
                    # integers used as values are made float where they are made
                    at = watch[1]
                    record = ctx.trace.tensors.get(source.tensor or -1)
                    made = ctx.graph.ops.get(record.producer[0]) if (
                        record is not None and record.producer) else None
                    op_type = made.op_type if made is not None else "Const"
                    yield Match((place(at), "source"), at, True,
                                {"api": ctx.index.snippet(at) or "tape.watch", "op": op_type,
                                 "dtype": source.dtype}, hit, op_type=op_type)
                    continue
                if source.handle is None:  # an integer tensor, watched: where it was made
                    record = ctx.trace.tensors.get(source.tensor or -1)
                    op = ctx.graph.ops.get(record.producer[0]) if (
                        record is not None and record.producer) else None
                    raw = op.loc if op is not None else None
                    if raw is None:  # a constant (no op ran): the assignment of its name
                        name = ctx.source_argument(call.loc, hit.index) if call.loc else None
                        raw = (ctx.index.assignment(call.loc, name) if name and call.loc
                               else None) or call.loc
                    api = ctx.op_api(op) if op is not None else (
                        ctx.index.snippet(raw) or source.name) if raw is not None else source.name
                    op_type = op.op_type if op is not None else "Const"
                    yield Match((place(raw), "source"), raw, True,
                                {"api": api, "op": op_type, "dtype": source.dtype}, hit,
                                op_type=op_type)
                    continue
                # where it was made an integer (when the run made it), else the source list
                raw = ctx.trace.handle_created.get(source.handle, call.loc)
                yield Match((place(raw), "source"), raw, True,
                            {"api": f"tf.Variable(dtype={source.dtype})", "op": "ReadVariableOp",
                             "dtype": source.dtype}, hit, op_type="ReadVariableOp")

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for found in ctx.cuts("integer"):
            # token ids watched for a saliency map and looked up by an Embedding: the watch
            # is the line to change (watch the embeddings instead)
            watched = ctx.watch_site(found)
            if watched is not None:
                yield LintMatch(self.code, watched, {"api": ctx.segment(watched)})
        yield from matchers.cut_matches(
            ctx, self.code, "integer",
            select=lambda found: ctx.watch_site(found) is None)
        for site in ctx.integer_sources():  # an integer variable passed as a source
            yield LintMatch(self.code, site, {"api": ctx.segment(site)})
        for site in ctx.integer_watches():  # tape.watch(ids) of integer token ids
            yield LintMatch(self.code, site, {"api": ctx.segment(site)})

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # an integer variable made float, else an integer cast made a straight-through one
        edit = (fixes.rewrite(location, ctx.index, calls.float_variable)
                or fixes.rewrite(location, ctx.index, surrogates.surrogate))
        return (edit,) if edit else ()


def _used_as_indices(ctx: RuleContext, tensor: int | None) -> bool:
    """Return True when an integer tensor reaches an index input (an embedding lookup's ids)."""
    if tensor is None:
        return False
    graph = ctx.graph
    reach = forward(graph, tensor, set(ctx.trace.tensors), diff_only=False)
    return any(edge.gating for node in reach for edge in graph.out_edges.get(node, ()))
