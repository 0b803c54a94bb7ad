"""The path a finding shows, weight → … → ✂ → … → loss, as steps the user would name.

TF-free. One step per Keras layer (a cut inside a layer stands for the layer) or user line;
a host round-trip is followed by the NumPy calls made on its value.
"""

from __future__ import annotations

from tapemagic.graph.provenance import Edge
from tapemagic.graph.verdicts import SourceAnalysis
from tapemagic.graph.walks import shortest_path
from tapemagic.optypes import write_api
from tapemagic.report.model import ChainStep
from tapemagic.report.places import place
from tapemagic.rules.base import Match
from tapemagic.rules.context import RuleContext
from tapemagic.trace import HostEvent, RawLocation


def chain_for(ctx: RuleContext, match: Match) -> list[ChainStep]:
    """Return the steps weight → … → ✂ → … → loss of a match (through its own cut)."""
    if match.chain is not None:
        return match.chain
    hit = match.hit
    if hit is None:
        return []
    path: list[int] = []
    if match.edge is not None:
        path = _path_through(ctx, hit.source, match.edge, set(hit.analysis.call.targets))
    path = path or hit.source.path
    if not path:
        return []
    return _chain(ctx, hit.source, path, numpy_after_host=match.edge is not None
                       and match.edge.kind == "host")


def host_step(ctx: RuleContext, event: HostEvent, cut: bool) -> ChainStep:
    """Return the chain step of a host event."""
    loc = ctx.index.location(event.loc)
    if loc is None:
        return ChainStep(event.api, None, cut)
    return ChainStep(event.api, loc.line, cut, loc.execution_count, where=loc.where)


def link_steps(ctx: RuleContext, raw: RawLocation | None) -> list[ChainStep]:
    """Return the NumPy calls made on the value converted at ``raw``, as chain steps."""
    loc = ctx.index.location(raw)
    count = loc.execution_count if loc else None
    return [ChainStep(link.label, link.line, False, count,
                      where=place(link.line, count, None, loc.file if loc else None))
            for link in ctx.index.numpy_chain(raw)]


def _path_through(ctx: RuleContext, source: SourceAnalysis, edge: Edge,
                  targets: set[int]) -> list[int]:
    """Return a tensor path source → edge.src → edge.dst → target (empty if none)."""
    if source.node is None:
        return []
    everything = set(ctx.trace.tensors)
    head = shortest_path(ctx.graph, source.node, everything, {edge.src})
    tail = shortest_path(ctx.graph, edge.dst, everything, targets)
    return head + tail if head and tail else []


def _chain(ctx: RuleContext, source: SourceAnalysis, path: list[int],
           numpy_after_host: bool) -> list[ChainStep]:
    """Collapse a source→target path into steps: one per Keras layer or user line."""
    graph = ctx.graph
    steps: list[ChainStep] = [ChainStep(source.source.name)]
    previous_key: object = None
    layer = None  # the Keras layer the path is in: its ops are one step, a cut in it too
    tensors = ctx.trace.tensors
    for src, dst in zip(path, path[1:], strict=False):
        edge = next((e for e in graph.out_edges[src] if e.dst == dst), None)
        if edge is None:
            continue
        cut = not edge.differentiable and not (
            edge.cause == "integer-dtype" and not tensors[edge.src].trainable)
        if edge.kind == "host":
            label, raw = graph.events[edge.ref].api, graph.events[edge.ref].loc
        elif edge.kind == "state":
            op = graph.ops[edge.ref]
            label, raw = write_api(op, ctx.trace.api_labels), op.loc
        else:
            op = graph.ops[edge.ref]
            label, raw = op.layer or op.op_type, op.layer_loc or op.loc
            if cut:
                label = f"{ctx.op_api(op)} ({op.op_type})"
        loc = ctx.index.location(raw)
        in_layer = edge.kind == "op" and graph.ops[edge.ref].layer or None
        if not cut and in_layer is not None and in_layer == layer:
            continue  # more of the layer the path is in (or went on in after a cut)
        if cut and in_layer is not None and in_layer == layer and len(steps) > 1 \
                and steps[-1].label == layer:
            steps.pop()  # the layer's step before its own cut: the cut names the place
        step_key = (label, loc.line if loc else None)
        if step_key == previous_key and not cut:
            continue
        previous_key, layer = step_key, in_layer
        steps.append(ChainStep(label, cut=cut) if loc is None else ChainStep(
            label, loc.line, cut, loc.execution_count, where=loc.where))
        if edge.kind == "host" and numpy_after_host:
            steps += link_steps(ctx, graph.events[edge.ref].loc)
    steps.append(ChainStep("loss"))
    return steps
