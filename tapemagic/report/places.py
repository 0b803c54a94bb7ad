"""The one way a place in the user's code is named, in every output that shows it to a human.

TF-free, and imports nothing of tapemagic's at run time. This module's single job is
:func:`place`: the text report, the HTML, the CI messages, the graph's node labels, the Keras
callback's printout and the report JSON the JupyterLab extension draws (each location's,
chain step's and graph node's ``where``) all name a place through it, so one run never names
one line two ways. The forms:

- a notebook cell: ``In[4], line 14``, the words IPython's own tracebacks use ("Cell In[4],
  line 14") and the ``[4]`` the notebook shows beside the cell;
- a notebook cell whose position in the notebook file is known too (``python -m tapemagic run
  NOTEBOOK.ipynb`` knows it; a kernel does not): ``cell 5 (In[4]), line 14``, every cell counted
  from 1, markdown too, as ``tapemagic lint`` counts them;
- a file (a script, the user's module): ``train.py:14``, relative to the working directory
  when the file lies under it, as a terminal or an editor opens it.

:func:`numbered` adds the cell positions to a whole report once a notebook runner knows them.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any, TypeVar

__all__ = ["Named", "numbered", "place", "shown_path"]

T = TypeVar("T")


def shown_path(path: str) -> str:
    """Return ``path`` relative to the working directory when it lies under it, else as is."""
    if not os.path.isabs(path):
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if rel.startswith(os.pardir) else rel


def place(line: int | None, execution_count: int | None = None, cell: int | None = None,
          file: str | None = None) -> str:
    """Return the name of a place: ``In[4], line 14``, ``cell 5 (In[4]), line 14``, ``train.py:14``.

    Parameters
    ----------
    line : int or None
        1-based line in the cell (the cell's own lines) or in the file; None when unknown.
    execution_count : int, optional
        The cell's ``In[N]``: the place is in a notebook or IPython cell.
    cell : int, optional
        The cell's 1-based position in its notebook file, when the door knows it.
    file : str, optional
        The file, for code outside a cell (ignored for a cell: its compiled name means
        nothing to the reader).

    Returns
    -------
    str
        The place's name; ``line 14`` alone when neither the cell nor the file is known, ``""``
        when nothing is.
    """
    if execution_count is not None or cell is not None:
        prompt = f"In[{execution_count}]" if execution_count is not None else None
        head = (f"cell {cell} ({prompt})" if cell is not None and prompt
                else f"cell {cell}" if cell is not None else str(prompt))
        return f"{head}, line {line}" if line is not None else head
    if file:
        shown = shown_path(file)
        return f"{shown}:{line}" if line is not None else shown
    return f"line {line}" if line is not None else ""


class Named:
    """A frozen dataclass with a place: its ``where`` is named by :func:`place` when empty.

    For :class:`~tapemagic.report.model.Location`, ``ChainStep`` and ``GraphNode``: their
    ``line``, ``execution_count``, ``cell`` (and a location's ``file``) say where; ``where`` is
    what every output prints, kept in the JSON so the JupyterLab extension prints it too.
    """

    def __post_init__(self) -> None:
        line = getattr(self, "line", None)
        if not getattr(self, "where", "") and line is not None:
            object.__setattr__(self, "where", place(line, getattr(self, "execution_count", None),
                                                    getattr(self, "cell", None),
                                                    getattr(self, "file", None)))


def numbered(value: T, cells: Mapping[int, int]) -> T:
    """Return ``value`` (a report, or any part of one) with its cells' notebook positions.

    Every location, chain step and graph node whose ``execution_count`` is a key of ``cells``
    gets ``cell = cells[execution_count]`` and its ``where`` named again by :func:`place`.
    Everything else is returned as it was (the same objects where nothing changed).
    """
    return _numbered(value, cells)  # type: ignore[no-any-return]


def _numbered(value: Any, cells: Mapping[int, int]) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            old = getattr(value, f.name)
            new = _numbered(old, cells)
            if new is not old:
                changes[f.name] = new
        count = getattr(value, "execution_count", None)
        if isinstance(value, Named) and count is not None and count in cells:
            changes["cell"] = cells[count]
            changes["where"] = ""  # named again from the new cell, in __post_init__
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, tuple):
        items = tuple(_numbered(v, cells) for v in value)
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    return value
