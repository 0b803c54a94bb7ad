"""TM301 host-round-trip: a tensor became a host value (NumPy, a Python number) on the path.

Matcher: a host edge of cause ``host-round-trip`` (a converted value that re-entered TensorFlow,
linked by value), or, when nothing linked back, the first conversion inside the tape span of a
tensor that depends on the source (``Cause.event``). Fix: drop ``.numpy()`` / unwrap Keras
``eval`` and rewrite the NumPy calls made on the converted value to their ``tf.*`` twins
(unsafe: the dtype or broadcasting of the NumPy twin may differ).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from tapemagic import fixes
from tapemagic.fixes import calls, functional, host_value
from tapemagic.graph.verdicts import Cause
from tapemagic.graph.walks import forward
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import ChainStep, Edit, Location
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.chains import host_step, link_steps
from tapemagic.rules.context import RuleContext, place


@register
class HostRoundTrip(RuleModule):
    code = "TM301"
    causes = frozenset({"host-round-trip"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("host-round-trip"):
            if hit.cause.edge is not None:
                yield ctx.edge_match(hit)
                yield from (ctx.edge_match(also) for also in _also_behind(ctx, hit))
                continue
            if hit.cause.event is None or hit.cause.op_seq is not None:
                continue  # TM304: a conversion inside a tf.py_function body
            event = ctx.graph.events[hit.cause.event]
            chain = [ChainStep(hit.source.source.name), host_step(ctx, event, True),
                     *link_steps(ctx, event.loc), ChainStep("loss")]
            # one conversion at one place is one finding, however many times a loop ran it
            yield Match((place(event.loc), "event"), event.loc,
                        hit.cause.primary, {"api": event.api}, hit, api=event.api,
                        chain=chain, links=ctx.index.numpy_chain(event.loc),
                        graph_edge=("event", hit.cause.event, 0))

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        # `float(t.numpy())`: dropping `.numpy()` alone leaves `float(t)`, a host value still
        outer = fixes.rewrite_outer(location, ctx.index, host_value.unwrap_float)
        if outer is not None:
            location = dataclasses.replace(location, col=outer.col, end_col=outer.end_col)
        edit = (outer or fixes.rewrite(location, ctx.index, fixes.drop_numpy)
                or fixes.rewrite(location, ctx.index, calls.predict_to_call))
        if edit is None:  # `m.set_weights(n.get_weights())` then `m(x)`: a functional call
            return functional.functional_call(ctx.index, location.file, location.line) or ()
        links = fixes.numpy_link_edits(draft.links, ctx.index, location.file, edit)
        seen = {(e.line, e.col) for e in links}
        more = [e for e in fixes.appended_links(ctx.index, location.file, location.line)
                if (e.line, e.col) not in seen]
        # code after the block that read the host value keeps it (`round(mse, 5)`)
        kept = host_value.keep_host_value(ctx.index, location, edit)
        return (edit, *links, *more, *((kept,) if kept is not None else ()))

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "host", transform=fixes.drop_numpy)


def _also_behind(ctx: RuleContext, hit: Hit) -> Iterator[Hit]:
    """Yield the sources that still get a gradient but whose path to the loss this cut cuts too.

    ``loss = float(data_term) + l2(kernel)``: the cut left the biases no gradient, and the
    kernels only the regulariser's; they lose the data term all the same. A source with no
    differentiable path to the conversion (a weight only the regulariser reads, by design)
    is not named, nor is any when the cut severs no source (a value detached on purpose).
    """
    edge = hit.cause.edge
    assert edge is not None
    analysis, graph = hit.analysis, ctx.graph
    for index, source in enumerate(analysis.sources):
        if source.result != "ok" or source.causes or source.source.handle is None:
            continue
        start = graph.read_values(source.source.handle, True)
        if edge.src in forward(graph, start, analysis.ancestors, True):
            yield Hit(analysis, index, source, Cause("host-round-trip", False, edge=edge))
