"""The report's loss→weights picture: the analysed paths, collapsed by Keras layer and line.

TF-free. Only tensors on some path from a source to its target are kept; ops are merged into
one node per Keras layer (``sequential/dense``) or, outside layers, per user line; each host
round-trip is one node. Node ids are derived from names and lines, never from ``id()``, so the
same cell gives the same ids on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.graph.walks import backward, shortest_path
from tapemagic.locations import CellMap
from tapemagic.report.graphmodel import Graph, GraphEdge, GraphNode, NodeKind
from tapemagic.report.model import Location

_MAX_NODES = 120


def collapse(graph: ProvenanceGraph, analyses: Sequence[CallAnalysis], cells: CellMap,
             edge_findings: dict[tuple[str, int, int], str]) -> Graph:
    """Build the collapsed graph of every analysed call; ``edge_findings`` names the cut edges."""
    nodes: dict[str, GraphNode] = {}
    edges: dict[tuple[str, str], GraphEdge] = {}
    memo: dict[int, str | None] = {}  # tensor serial -> its node id (a pure function of it)

    def node_of(serial: int) -> str | None:
        if serial not in memo:
            memo[serial] = _node_of(graph, cells, serial, nodes)
        return memo[serial]

    for analysis in analyses:
        call = analysis.call
        loss_id = f"loss:{call.target_label}@{_line(cells, call.loc)}"
        nodes.setdefault(loss_id, _placed(loss_id, "loss", call.target_label,
                                          cells.location(call.loc)))
        targets = set(call.targets)
        anc = backward(graph, targets, lambda e: True)
        # Tensors whose outgoing edges were drawn already (from an earlier source's walk):
        # everything downstream of them was drawn too, so each edge is looked at once per
        # call instead of once per source (linear in the ops, not in ops × sources).
        drawn: set[int] = set()
        inside: list[tuple[str, int, str]] = []  # a cut between two ops of one node
        var_ids = {s.node: f"var:{s.source.name}" for s in analysis.sources if s.node is not None}
        for source in analysis.sources:
            if source.node is None:
                continue
            var_id = f"var:{source.source.name}"
            nodes.setdefault(var_id, GraphNode(var_id, "variable", source.source.name))
            _draw_out(graph, cells, source.node, var_id, anc, targets, loss_id, edges,
                      edge_findings, node_of, inside)
            queue = [dst for dst in _children(graph, source.node, anc) if dst not in drawn]
            drawn.update(queue)
            while queue and len(nodes) <= _MAX_NODES:  # a picture, not the whole trace
                src = queue.pop()
                _draw_out(graph, cells, src, node_of(src), anc, targets, loss_id, edges,
                          edge_findings, node_of, inside)
                for dst in _children(graph, src, anc):
                    if dst not in drawn:
                        drawn.add(dst)
                        queue.append(dst)
            for cause in source.causes:
                if cause.cause == "zero-at-runtime" and cause.op_seq in graph.ops:
                    _mark_zero(edges, node_of(graph.ops[cause.op_seq].outputs[0]),
                               edge_findings.get(("op", cause.op_seq, 0)))
                if cause.cause == "host-round-trip" and cause.edge is None and cause.event:
                    _probable_host(graph, cells, source.node, var_id, cause.event, loss_id,
                                   nodes, edges, edge_findings.get(("event", cause.event, 0)))
            for node, serial, finding in inside:
                feeders = _feeders(graph, serial, node, node_of, var_ids)
                _mark_entry(edges, node, "severed", finding, feeders)
            if len(nodes) > _MAX_NODES:
                break
    used = {e.source for e in edges.values()} | {e.target for e in edges.values()}
    kept_nodes = [n for n in nodes.values() if n.id in used or n.kind in ("variable", "loss")]
    return Graph(tuple(sorted(kept_nodes, key=lambda n: (_kind_rank(n.kind), n.line or 0, n.id))),
                 tuple(sorted(edges.values(), key=lambda e: (e.source, e.target))))


def _children(graph: ProvenanceGraph, src: int, anc: set[int]) -> list[int]:
    return [edge.dst for edge in graph.out_edges.get(src, ()) if edge.dst in anc]


def _draw_out(graph: ProvenanceGraph, cells: CellMap, src: int, a: str | None, anc: set[int],
              targets: set[int], loss_id: str, edges: dict[tuple[str, str], GraphEdge],
              edge_findings: dict[tuple[str, int, int], str],
              node_of: Callable[[int], str | None], inside: list[tuple[str, int, str]]) -> None:
    """Draw the edges out of tensor ``src`` (drawn as node ``a``) that stay on a path.

    A cut a finding names between two ops of one node (``tf.cast(a > b, ...)`` on one line)
    has no edge of its own: it goes to ``inside``, drawn on the edges entering that node
    that lead to it (``_feeders``).
    """
    for edge in graph.out_edges.get(src, ()):
        if edge.dst not in anc:
            continue
        b = node_of(edge.dst)
        if edge.dst in targets and b is not None:
            _connect(edges, b, loss_id, None, "connected")
        finding = edge_findings.get((edge.kind, edge.ref, edge.last_event))
        if a is not None and a == b and finding is not None and not edge.differentiable:
            inside.append((a, src, finding))
        if a is None or b is None or a == b:
            continue
        # a finding on a differentiable edge names the op that zeroed the gradient (TM501)
        state = ("severed" if not edge.differentiable else "zero" if finding else "connected")
        if edge.kind == "host":
            event = graph.events[edge.ref]
            host = f"host:{_line(cells, event.loc)}:{event.api}"
            _connect(edges, a, host, finding, state)
            if host != b:
                _connect(edges, host, b, None, "connected")
            continue
        _connect(edges, a, b, finding, state)


def _probable_host(graph: ProvenanceGraph, cells: CellMap, node: int, var_id: str, event_id: int,
                   loss_id: str, nodes: dict[str, GraphNode],
                   edges: dict[tuple[str, str], GraphEdge], finding: str | None) -> None:
    """Draw weight → … → host round-trip ✂ loss when no value linked the host result back."""
    event = graph.events[event_id]
    path = shortest_path(graph, node, set(graph.trace.tensors), set(event.sources))
    line = _line(cells, event.loc)
    host = f"host:{line}:{event.api}"
    nodes.setdefault(host, _placed(host, "host", event.api, cells.location(event.loc)))
    previous = var_id
    for serial in path[1:]:
        current = _node_of(graph, cells, serial, nodes)
        if current is not None and current != previous:
            _connect(edges, previous, current, None, "connected")
            previous = current
    _connect(edges, previous, host, None, "connected")
    _connect(edges, host, loss_id, finding, "severed")


def _mark_zero(edges: dict[tuple[str, str], GraphEdge], node: str | None,
               finding: str | None) -> None:
    """Draw the edges into the node holding the op that zeroed a gradient as ``zero``.

    The op itself is usually folded into its line's (or layer's) node with its inputs, so the
    edges that enter that node carry the style and the finding.
    """
    _mark_entry(edges, node, "zero", finding)


def _mark_entry(edges: dict[tuple[str, str], GraphEdge], node: str | None, state: str,
                finding: str | None, only: set[str] | None = None) -> None:
    """Draw the gradient-flow edges entering ``node`` (from ``only``) as ``state``."""
    for key, edge in list(edges.items()):
        if edge.target == node and edge.state == "connected" and (
                only is None or edge.source in only):
            edges[key] = GraphEdge(edge.source, edge.target, state, finding)  # type: ignore[arg-type]


def _feeders(graph: ProvenanceGraph, serial: int, node: str,
             node_of: Callable[[int], str | None], var_ids: dict[int, str]) -> set[str]:
    """Return the nodes whose edges into ``node`` carry tensor ``serial``'s inputs.

    Walked back inside ``node`` from the cut op's input: a Keras layer that rounds its kernel
    cuts the kernel's edge into it, not the edge of the layer before it (its input still gets
    a gradient through the layer's matmul).
    """
    found: set[str] = set()
    seen, todo = {serial}, [serial]
    while todo:
        tensor = todo.pop()
        if tensor in var_ids:
            found.add(var_ids[tensor])
            continue
        for edge in graph.in_edges.get(tensor, ()):
            other = node_of(edge.src)
            if other is not None and other != node:
                found.add(other)
            elif edge.src not in seen:
                seen.add(edge.src)
                todo.append(edge.src)
    return found


def _rank(edge_state: str, finding: str | None) -> tuple[int, int]:
    """Order the states of the tensor edges one drawn edge stands for: the highest is drawn.

    A cut a finding names always shows (severed above zero). Without a finding, a gradient
    that flows between the two nodes outranks an edge that carries none by design (a shape,
    a mask): a Dense layer whose output also feeds a comparison in the loss still passes its
    gradient to the loss, and must not be drawn as "no gradient by design".
    """
    if finding is not None:
        return (1, 1 if edge_state == "severed" else 0)
    return (0, {"severed": 0, "connected": 1, "zero": 2}[edge_state])


def _connect(edges: dict[tuple[str, str], GraphEdge], a: str, b: str, finding: str | None,
             state: str) -> None:
    current = edges.get((a, b))
    if current is not None and _rank(current.state, current.finding) >= _rank(state, finding):
        return
    edges[(a, b)] = GraphEdge(a, b, state, finding)  # type: ignore[arg-type]


def _node_of(graph: ProvenanceGraph, cells: CellMap, serial: int,
             nodes: dict[str, GraphNode]) -> str | None:
    record = graph.trace.tensors.get(serial)
    if record is None:
        return None
    if record.producer is None:
        link = graph.trace.host_links.get(serial)
        if link is None:
            return None
        event = graph.events[link.event]
        node_id = f"host:{_line(cells, event.loc)}:{event.api}"
        nodes.setdefault(node_id, _placed(node_id, "host", event.api, cells.location(event.loc)))
        return node_id
    op = graph.ops.get(record.producer[0])
    if op is None:
        return None
    loc = cells.location(op.layer_loc or op.loc)
    line = loc.line if loc else 0
    if op.layer and (op.api_module or "").startswith("keras."):
        # ops a Keras layer ran for the user: one node per layer. Ops the user's own code ran
        # inside a Keras scope (a custom loss under compile_loss) stay one node per line.
        node_id = f"layer:{op.layer}"
        nodes.setdefault(node_id, _placed(node_id, "group", op.layer, loc, op.layer))
        return node_id
    where = f"In[{loc.execution_count}]" if loc and loc.execution_count else (
        loc.file.rsplit("/", 1)[-1] if loc else "?")
    # the place (cell and line) is the node's own fields, which every renderer names one
    # way; the label is what is there
    label = _clipped(loc.source_line.strip() if loc else "") or op.op_type
    if op.layer:
        # the user's own code inside a Keras layer (a custom layer's call, a custom loss under
        # compile_loss): one node per layer instance and line, so two layers that share one
        # `call` stay two chains instead of merging into shared line nodes that look like a
        # cycle
        node_id = f"line:{op.layer}:{where}:{line}"
        label = f"{op.layer.rsplit('/', 1)[-1]} · {label}"
    else:
        node_id = f"line:{where}:{line}"
    nodes.setdefault(node_id, _placed(node_id, "op", label, loc, op.layer or None))
    return node_id


def _clipped(text: str, limit: int = 48) -> str:
    """Return ``text`` cut to ``limit`` characters, an ellipsis saying it was cut."""
    # a line cut mid-word with no mark reads as the whole line (and as a syntax error)
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _placed(node_id: str, kind: NodeKind, label: str, loc: Location | None,
            group: str | None = None) -> GraphNode:
    """Return a node at ``loc``'s place (file, cell and line: a finding's place identity)."""
    if loc is None or not loc.line:
        return GraphNode(node_id, kind, label, None, group)
    return GraphNode(node_id, kind, label, loc.line, group, loc.file, loc.execution_count,
                     loc.cell, loc.where)


def _line(cells: CellMap, raw: object) -> int:
    """Return the 1-based line of ``raw`` in its cell, or 0 when unknown (None in the report)."""
    loc = cells.location(raw)  # type: ignore[arg-type]
    return loc.line if loc else 0


def _kind_rank(kind: str) -> int:
    return {"variable": 0, "group": 1, "op": 1, "host": 1, "loss": 2}.get(kind, 1)
