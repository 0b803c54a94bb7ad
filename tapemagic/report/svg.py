"""Draw a report's loss→weights graph as SVG, in pure Python (no Graphviz, no JavaScript).

TF-free. This module's single job is :func:`graph_svg`, used by the HTML report
(:mod:`tapemagic.report.html`), which must read offline in any browser and in every notebook
front end, on a machine without Graphviz. The layout is a small layered one, top to bottom as
the extension's side panel: a node's row counts back from the loss (its longest distance to a
node with no outgoing edge), so the loss is always the last row and each weight sits just above
the layer that reads it. The drawing is as wide as its widest row, so every cut and the
weights it cuts are in the page's width and the page scrolls down, as a notebook does (a
drawing too wide to shrink says so, with the arrow the way to scroll). The order within a row
follows the mean position of its predecessors (two
sweeps), and each edge is a cubic curve. Styles are the extension's
(``labextension/src/model/graph.ts``): a cut that a finding names is red, dashed, labelled
``✂ CODE``; an edge severed by design (no finding names it) grey dashed; a zero gradient
amber dotted. The colours are presentation attributes (what a host that drops style sheets
shows) and classes that the report's style sheet (:mod:`tapemagic.report.theme`) recolours
for the host's theme. The SVG is built with :mod:`xml.etree.ElementTree`, so every string
from the report is escaped as text or attribute value and nothing in it can become markup.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from typing import TYPE_CHECKING

from tapemagic.report.text import SCISSORS

if TYPE_CHECKING:
    from tapemagic.report.graphmodel import GraphEdge, GraphNode
    from tapemagic.report.model import Report

__all__ = ["EDGE_STYLE", "NODE_FILL", "edge_look", "graph_svg"]

#: Edge looks, as the extension draws them: (colour, dash pattern, width).
EDGE_STYLE = {
    "connected": ("#4b5563", "", 1.2),
    "severed": ("#b91c1c", "6 3", 2.2),
    "zero": ("#92400e", "1.5 2.5", 2.2),
    "design": ("#6b7280", "4 3", 1.2),
}
#: Node fills by kind, as the extension draws them.
NODE_FILL = {"loss": "#fde68a", "variable": "#dbeafe", "op": "#f3f4f6", "host": "#fce7f3",
             "group": "#e0e7ff"}
_MAX_LABEL = 48
_CHAR, _LINE, _PAD = 6.6, 14.0, 8.0  # px per character and per text line; box padding
_RANK_GAP, _ROW_GAP, _MARGIN = 34.0, 18.0, 12.0  # between rows, between boxes in a row
_SVG = "http://www.w3.org/2000/svg"
_MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace"
_FIT_WIDTH = 1800.0


def edge_look(edge: GraphEdge, finding_ids: set[str]) -> str:
    """Return how to draw ``edge``: connected, severed (a finding names it), zero or design."""
    if edge.state == "severed":
        return "severed" if edge.finding and edge.finding in finding_ids else "design"
    return "zero" if edge.state == "zero" else "connected"


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _MAX_LABEL else text[:_MAX_LABEL - 1] + "…"


def _columns(ids: list[str], edges: list[tuple[str, str]]) -> dict[str, int]:
    """Return each node's column: its longest distance from a root (back edges ignored)."""
    outgoing: dict[str, list[str]] = defaultdict(list)
    indegree = {i: 0 for i in ids}
    for a, b in edges:
        outgoing[a].append(b)
        indegree[b] += 1
    column = {i: 0 for i in ids}
    ready = [i for i in ids if indegree[i] == 0]
    seen: set[str] = set()
    while True:
        while ready:
            node = ready.pop(0)
            seen.add(node)
            for nxt in outgoing[node]:
                column[nxt] = max(column[nxt], column[node] + 1)
                indegree[nxt] -= 1
                if indegree[nxt] == 0:
                    ready.append(nxt)
        rest = [i for i in ids if i not in seen]
        if not rest:
            return column
        indegree[rest[0]] = 0  # a cycle: break it at the first node left, in report order
        ready.append(rest[0])


def _columns_to_sink(ids: list[str], edges: list[tuple[str, str]]) -> dict[str, int]:
    """Return each node's column counted back from the sinks: the loss ends every row."""
    depth = _columns(ids, [(b, a) for a, b in edges])
    last = max(depth.values(), default=0)
    return {i: last - d for i, d in depth.items()}


def graph_svg(report: Report) -> ET.Element | None:
    """Return the report's graph as an ``<svg>`` element, or None when it has no node.

    Each node is a ``<g class="tm-node tm-KIND">``, each edge a ``<g class="tm-edge tm-LOOK">``
    (``LOOK`` as :func:`edge_look`), the edge of a cut carrying ``data-rule`` with the rule code.

    Raises
    ------
    AttributeError
        If ``report`` is not a :class:`~tapemagic.report.model.Report`.
    """
    nodes = list(report.graph.nodes)
    if not nodes:
        return None
    index = {n.id: n for n in nodes}
    ids = list(index)
    edges = [e for e in report.graph.edges if e.source in index and e.target in index]
    column = _columns_to_sink(ids, [(e.source, e.target) for e in edges])
    labels = {n.id: [_short(n.label)] + ([n.where] if n.where else []) for n in nodes}
    size = {i: (max(len(t) for t in labels[i]) * _CHAR + 2 * _PAD,
                len(labels[i]) * _LINE + _PAD) for i in ids}
    cols: dict[int, list[str]] = defaultdict(list)
    for i in ids:
        cols[column[i]].append(i)
    preds: dict[str, list[str]] = defaultdict(list)
    for e in edges:
        preds[e.target].append(e.source)
    rank = {i: float(k) for members in cols.values() for k, i in enumerate(members)}
    for _ in range(2):  # order each row by its predecessors' mean position
        for c in sorted(cols):
            cols[c].sort(key=lambda i: (sum(rank[p] for p in preds[i]) / len(preds[i])
                                        if preds[i] else rank[i]))
            for k, i in enumerate(cols[c]):
                rank[i] = float(k)
    rules = {f.id: f.rule for f in report.findings}
    looks = [edge_look(e, set(rules)) for e in edges]
    texts = [_short(_edge_text(e, look, rules)) for e, look in zip(edges, looks, strict=True)]
    # top to bottom, one row per column: the page scrolls down, as a notebook does, so every
    # cut and its weights are in the drawing's width; a row with a cut's "✂ CODE label"
    # leaves room for it above the next row
    gaps: dict[int, float] = defaultdict(lambda: _RANK_GAP)
    for e, text in zip(edges, texts, strict=True):
        if text:
            gaps[column[e.source]] = _RANK_GAP + _LINE
    widths = {c: sum(size[i][0] for i in m) + _ROW_GAP * (len(m) - 1) for c, m in cols.items()}
    heights = {c: max(size[i][1] for i in members) for c, members in cols.items()}
    total_w = max(widths.values())
    pos: dict[str, tuple[float, float]] = {}
    y = _MARGIN
    for c in sorted(cols):
        x = _MARGIN + (total_w - widths[c]) / 2
        for i in cols[c]:
            pos[i] = (x, y + (heights[c] - size[i][1]) / 2)
            x += size[i][0] + _ROW_GAP
        y += heights[c] + gaps[c]
    width, height = total_w + 2 * _MARGIN, y - gaps[max(cols)] + _MARGIN
    # a drawing up to about 1.5x the page's width shrinks to fit; a wider one scrolls, so
    # that its 11 px labels stay readable
    fit = " tm-fit" if width <= _FIT_WIDTH else ""
    svg = ET.Element("svg", {"xmlns": _SVG, "class": f"tm-graph-svg{fit}", "role": "img",
                             "width": f"{width:.0f}", "height": f"{height:.0f}",
                             "viewBox": f"0 0 {width:.0f} {height:.0f}"})
    ET.SubElement(svg, "title").text = "loss to weights graph"
    defs = ET.SubElement(svg, "defs")
    for look, (color, _dash, _w) in EDGE_STYLE.items():
        marker = ET.SubElement(defs, "marker", {
            "id": f"tm-arrow-{look}", "class": f"tm-{look}", "viewBox": "0 0 10 10",
            "refX": "10", "refY": "5",
            "markerWidth": "7", "markerHeight": "7", "orient": "auto-start-reverse"})
        ET.SubElement(marker, "path", {"d": "M 0 0 L 10 5 L 0 10 z", "fill": color})
    # the plain edges (connected, no label) share one group and its drawing attributes: in
    # a ResNet50's picture they are almost all of its edges, and each is then one short path
    plain = _edge_group(svg, "connected", {})
    for e, look, text in zip(edges, looks, texts, strict=True):
        if look == "connected" and not text:
            ET.SubElement(plain, "path", {"d": _curve(e, pos, size)})
        else:
            _edge(svg, e, look, text, rules, pos, size)
    for n in nodes:
        _node(svg, n, labels[n.id], pos[n.id], size[n.id])
    return svg


def _edge_text(e: GraphEdge, look: str, rules: dict[str, str]) -> str:
    """Return an edge's label: ``✂ CODE label`` on a cut a finding names, ``0`` if zero."""
    if look == "severed":
        code = rules.get(e.finding or "", "")
        return f"{SCISSORS} {code}".strip() + (f" {e.label}" if e.label else "")
    if look == "zero":
        return e.label or "0"
    return e.label or ""


Box = dict[str, tuple[float, float]]


def _ends(e: GraphEdge, pos: Box, size: Box) -> tuple[float, float, float, float]:
    (ax, ay), (bx, by) = pos[e.source], pos[e.target]
    return ax + size[e.source][0] / 2, ay + size[e.source][1], bx + size[e.target][0] / 2, by


def _curve(e: GraphEdge, pos: Box, size: Box) -> str:
    x1, y1, x2, y2 = _ends(e, pos, size)
    bend = max(abs(y2 - y1) / 2, 20.0)
    return (f"M {x1:.0f} {y1:.0f} C {x1:.0f} {y1 + bend:.0f} {x2:.0f} {y2 - bend:.0f} "
            f"{x2:.0f} {y2:.0f}")


def _edge_group(svg: ET.Element, look: str, attrs: dict[str, str]) -> ET.Element:
    """Return a ``<g class="tm-edge tm-LOOK">`` whose paths inherit the look's stroke."""
    color, dash, width = EDGE_STYLE[look]
    attrs = {"class": f"tm-edge tm-{look}", **attrs, "fill": "none", "stroke": color,
             "stroke-width": str(width), "marker-end": f"url(#tm-arrow-{look})"}
    if dash:
        attrs["stroke-dasharray"] = dash
    return ET.SubElement(svg, "g", attrs)


def _edge(svg: ET.Element, e: GraphEdge, look: str, text: str, rules: dict[str, str],
          pos: Box, size: Box) -> None:
    attrs = {"data-rule": rules.get(e.finding or "", "")} if look == "severed" else {}
    group = _edge_group(svg, look, attrs)
    ET.SubElement(group, "path", {"d": _curve(e, pos, size)})
    if text:
        x1, y1, x2, y2 = _ends(e, pos, size)
        label = ET.SubElement(group, "text", {
            "x": f"{x1 + 6:.0f}", "y": f"{y1 + _LINE:.0f}",
            "text-anchor": "start", "font-size": "10", "fill": EDGE_STYLE[look][0],
            "stroke": "none"})
        label.text = text


def _node(svg: ET.Element, node: GraphNode, lines: list[str], at: tuple[float, float],
          box: tuple[float, float]) -> None:
    kind = node.kind
    group = ET.SubElement(svg, "g", {"class": f"tm-node tm-{kind}", "data-node": node.id})
    # the full name and place on hover: a label longer than the box ends with an ellipsis
    ET.SubElement(group, "title").text = " · ".join(
        [" ".join(str(node.label).split()), *lines[1:]])
    shape = {"x": f"{at[0]:.1f}", "y": f"{at[1]:.1f}", "width": f"{box[0]:.1f}",
             "height": f"{box[1]:.1f}", "fill": NODE_FILL.get(kind, NODE_FILL["op"]),
             "stroke": "#4b5563", "stroke-width": "0.8",
             "rx": "4" if kind in ("variable", "group", "host") else f"{box[1] / 2:.1f}"}
    if kind == "loss":
        shape["stroke-width"] = "2"
    ET.SubElement(group, "rect", shape)
    for k, line in enumerate(lines):
        text = ET.SubElement(group, "text", {
            "x": f"{at[0] + box[0] / 2:.1f}", "y": f"{at[1] + _PAD / 2 + _LINE * (k + 0.8):.1f}",
            "text-anchor": "middle", "font-size": "11" if k == 0 else "9",
            # monospace: the box is sized at 0.6 em a character, so the label fits it
            "font-family": _MONO, "fill": "#111827" if k == 0 else "#374151"})
        if k:
            text.set("class", "tm-sub")
        text.text = line
