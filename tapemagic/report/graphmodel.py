"""The report's loss→weights graph: frozen dataclasses of the v1 JSON payload's ``graph``.

TF-free. ``graph/collapse.py`` fills a :class:`Graph`; ``report/model.py``'s ``Report`` holds
it and ``report/svg.py`` and ``report/dot.py`` draw it. Field names are the schema's
(``graph``, ``graph_node``, ``graph_edge``, ``node_kind``, ``edge_state``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tapemagic.report.places import Named

NodeKind = Literal["loss", "op", "variable", "host", "group"]
EdgeState = Literal["connected", "severed", "zero"]


@dataclass(frozen=True)
class GraphNode(Named):
    """A node of the collapsed loss→weights graph; ids are stable across runs.

    Its place is ``line`` of ``file`` (a script, or a cell's compiled file), and of the cell
    ``In[execution_count]`` in a notebook: the same place identity as a finding's
    :class:`~tapemagic.report.model.Location`, so a front end matches nodes and findings by
    cell and line. ``where`` names the place as every output shows it (as
    :class:`~tapemagic.report.model.ChainStep`'s).
    """

    id: str
    kind: NodeKind
    label: str
    line: int | None = None
    group: str | None = None
    file: str | None = None
    execution_count: int | None = None
    cell: int | None = None
    where: str = ""


@dataclass(frozen=True)
class GraphEdge:
    """An edge of the collapsed graph; ``finding`` names the finding that cuts it, if any."""

    source: str
    target: str
    state: EdgeState
    finding: str | None = None
    label: str | None = None


@dataclass(frozen=True)
class Graph:
    """The loss→weights graph, collapsed by Keras layer and by user line."""

    nodes: tuple[GraphNode, ...] = ()
    edges: tuple[GraphEdge, ...] = ()
