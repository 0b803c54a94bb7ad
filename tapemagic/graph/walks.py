"""Walks over the provenance graph: ancestors, descendants, a shortest path, a reconnection.

TF-free. Shared by the cut analysis, the collapsed picture and the rules' context, so every
"what reaches what" question is answered by one piece of code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection

from tapemagic.graph.provenance import Edge, ProvenanceGraph


def backward(graph: ProvenanceGraph, start: set[int], keep: Callable[[Edge], bool]) -> set[int]:
    """Return ``start`` and every tensor with a path into it along edges ``keep`` accepts."""
    seen = set(start)
    queue = deque(start)
    while queue:
        node = queue.popleft()
        for edge in graph.in_edges.get(node, ()):
            if edge.src not in seen and keep(edge):
                seen.add(edge.src)
                queue.append(edge.src)
    return seen


def forward(graph: ProvenanceGraph, start: int | Collection[int], within: set[int],
            diff_only: bool) -> set[int]:
    """Return ``start`` and the tensors reachable from it inside ``within`` (differentiably, maybe).

    ``start``: one tensor, or several (one walk from all of them).
    """
    seen = {start} if isinstance(start, int) else set(start)
    queue = deque(seen)
    while queue:
        node = queue.popleft()
        for edge in graph.out_edges.get(node, ()):
            if edge.dst in within and edge.dst not in seen and (
                    edge.differentiable or not diff_only):
                seen.add(edge.dst)
                queue.append(edge.dst)
    return seen


def reconnects(graph: ProvenanceGraph, node: int, anc: set[int], targets: set[int],
                fixed: set[int]) -> bool:
    """Return True when ``node`` reaches a target once the edges in ``fixed`` (ids) pass."""
    seen = {node}
    queue = deque([node])
    while queue:
        current = queue.popleft()
        if current in targets:
            return True
        for edge in graph.out_edges.get(current, ()):
            if edge.dst in anc and edge.dst not in seen and (
                    edge.differentiable or id(edge) in fixed):
                seen.add(edge.dst)
                queue.append(edge.dst)
    return False


def shortest_path(graph: ProvenanceGraph, node: int, anc: set[int], targets: set[int]) -> list[int]:
    """Return a shortest tensor path from the source to a target (empty when there is none)."""
    parent: dict[int, int | None] = {node: None}
    queue = deque([node])
    while queue:
        current = queue.popleft()
        if current in targets:
            path = []
            step: int | None = current
            while step is not None:
                path.append(step)
                step = parent[step]
            return path[::-1]
        for edge in graph.out_edges.get(current, ()):
            if edge.dst in anc and edge.dst not in parent:
                parent[edge.dst] = current
                queue.append(edge.dst)
    return []
