"""Build the loss->weights graph of a report as Graphviz DOT text.

TF-free. This module's single job is to turn a :class:`~tapemagic.report.graphmodel.Graph`
into DOT source with the ``graphviz`` package (``Digraph(...).source``; it never renders, so no
``dot`` executable is needed). Report strings are untrusted: DOT node names are generated (``n0``,
``n1``, ... in the order of ``graph.nodes``, then of first appearance in ``graph.edges`` for ids
that no node declares), and every label is escaped so that quotes, backslashes, ``<...>``
(which Graphviz would otherwise read as an HTML-like label), newlines and control characters
stay text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

import graphviz

from tapemagic.report.text import SCISSORS

if TYPE_CHECKING:
    from tapemagic.report.graphmodel import Graph, GraphEdge, GraphNode
    from tapemagic.report.model import Finding

__all__ = ["SCISSORS", "build_dot", "dot_text"]

_SHAPES = {
    "loss": "doubleoctagon",
    "variable": "box",
    "group": "ellipse",
    "op": "ellipse",
    "host": "note",
}
_EDGE_STYLE = {
    "severed": {"color": "red", "fontcolor": "red", "style": "dashed", "penwidth": "2"},
    "zero": {"color": "orange", "fontcolor": "orange", "style": "dotted"},
    "connected": {"color": "grey50"},
    # severed, but no finding marks it: no gradient by design (a mask, a tf.where condition)
    "design": {"color": "grey60", "style": "dashed"},
}
_MAX_LABEL = 60


def dot_text(text: str, limit: int = _MAX_LABEL) -> str:
    r"""Return ``text`` as a safe DOT label value (a ``graphviz.nohtml`` string).

    Each line is cut to ``limit`` characters (with ``...``), control characters become spaces,
    backslashes are doubled so that Graphviz escapes such as ``\N`` or ``\l`` stay literal,
    line breaks become Graphviz's ``\n``, and the result is marked as not HTML, so that
    ``graphviz`` quotes it (and escapes its double quotes) instead of emitting ``<...>`` raw.

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise TypeError(f"DOT label must be str, not {type(text).__name__}")
    lines = []
    for line in text.splitlines() or [""]:
        line = "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in line)
        if len(line) > limit:
            line = line[: limit - 3] + "..."
        lines.append(graphviz.escape(line))
    label: str = graphviz.nohtml("\\n".join(lines))
    return label


def build_dot(graph: Graph, findings: Sequence[Finding] = ()) -> str:
    """Return the DOT source of ``graph``, with edges styled by state.

    Nodes are shaped by kind (loss: doubleoctagon, variable: box, op and group: ellipse, host:
    note) and labelled with their label and line. Severed edges are red and dashed, labelled
    with scissors and the rule code of the finding that cuts them (``✂ TM301``). A severed edge
    that no finding in ``findings`` marks carries no gradient by design (a mask branch of a
    weight that is connected anyway): grey and dashed, without scissors. Zero edges are orange
    and dotted; connected edges are grey. The output is deterministic.

    Parameters
    ----------
    graph : Graph
        The report's collapsed graph.
    findings : sequence of Finding
        The report's findings, used to turn ``edge.finding`` ids into rule codes.

    Returns
    -------
    str
        DOT source; the empty string when the graph has no nodes and no edges.

    Raises
    ------
    TypeError
        If a node label or id is not a string.
    """
    if not graph.nodes and not graph.edges:
        return ""
    rules = {f.id: f.rule for f in findings}
    names: dict[str, str] = {}
    for node in graph.nodes:
        names.setdefault(node.id, f"n{len(names)}")
    declared = set(names)
    for edge in graph.edges:
        for end in (edge.source, edge.target):
            names.setdefault(end, f"n{len(names)}")

    dot = graphviz.Digraph(
        "tapemagic",
        graph_attr={"rankdir": "LR", "fontname": "Helvetica", "fontsize": "10"},
        node_attr={"fontname": "Helvetica", "fontsize": "10"},
        edge_attr={"fontname": "Helvetica", "fontsize": "9", "arrowsize": "0.6"},
    )
    emitted: set[str] = set()
    for node in graph.nodes:
        if node.id not in emitted:
            emitted.add(node.id)
            _add_node(dot, names[node.id], node)
    for node_id, name in names.items():
        if node_id not in declared:
            # An edge names a node the graph does not declare: draw it plainly, labelled by id.
            dot.node(name, label=dot_text(node_id), shape="plaintext")
    for edge in graph.edges:
        dot.edge(names[edge.source], names[edge.target], **_edge_attrs(edge, rules))
    source: str = dot.source
    return source


def _add_node(dot: graphviz.Digraph, name: str, node: GraphNode) -> None:
    label = node.label
    if node.where:  # the place, named as every output names it
        label = f"{label}\n{node.where}"
    attrs = {"shape": _SHAPES.get(node.kind, "ellipse")}
    if node.kind == "loss":
        attrs.update(style="filled", fillcolor="lightyellow")
    elif node.kind == "host":
        attrs.update(style="filled", fillcolor="mistyrose")
    dot.node(name, label=dot_text(label), **attrs)


def _edge_attrs(edge: GraphEdge, rules: dict[str, str]) -> dict[str, str]:
    # An edge is a cut (red, scissors) only when a finding of the report marks it; a severed
    # edge no finding names carries no gradient by design and must not look like a cut.
    rule = rules.get(edge.finding or "")
    look = "design" if edge.state == "severed" and not rule else edge.state
    attrs = dict(_EDGE_STYLE.get(look, _EDGE_STYLE["connected"]))
    parts = []
    if look == "severed":
        parts.append(f"{SCISSORS} {rule}")
    if edge.label:
        parts.append(edge.label)
    if parts:
        attrs["label"] = dot_text("\n".join(parts))
    return attrs
