"""Facts the analysis computes once per provenance graph, kept beside the graph, not in it.

TF-free. A table keyed weakly by the graph: an entry goes with its graph, and the graph (like
the recorded trace it indexes) is never written by the analysis that reads it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_TABLES: weakref.WeakKeyDictionary[object, dict[str, object]] = weakref.WeakKeyDictionary()


def once(graph: object, key: str, make: Callable[[], T]) -> T:
    """Return ``make()`` for ``graph`` and ``key``, computed on the first call only."""
    table = _TABLES.setdefault(graph, {})
    if key not in table:
        table[key] = make()
    return table[key]  # type: ignore[return-value]
