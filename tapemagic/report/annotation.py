"""One finding or lint hint as a CI tool sees it: a file position, a rule code, a message.

TF-free, JSON-Schema-free. This module's single job is :class:`Annotation`, the common shape the
CI writers (:mod:`tapemagic.report.github`, :mod:`tapemagic.report.sarif`) read, and the two
ways to make one: from a lint :class:`~tapemagic.lint.model.Hint` and from a run report's
:class:`~tapemagic.report.model.Finding` placed by a door (a script's file, a notebook's cell).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tapemagic.report.model import Finding, Location
from tapemagic.report.places import place as name_place
from tapemagic.report.places import shown_path

__all__ = ["Annotation", "Place", "from_finding", "from_hint", "script_place"]

Level = Literal["error", "warning", "info", "hint"]


@dataclass(frozen=True, slots=True)
class Place:
    """Where something is, as the user opens it.

    ``path`` is the file as the user named it (relative to the working directory when it is
    under it); ``cell`` is the 1-based notebook cell number (every cell counted, markdown
    too), None for a plain file. ``line``/``end_line`` are 1-based (the cell's own lines for a
    notebook), ``col``/``end_col`` 0-based; any of them may be None when unknown. ``count``
    is the cell's ``In[N]`` when a run knows it (a lint hint has none).
    """

    path: str
    line: int | None = None
    col: int | None = None
    end_line: int | None = None
    end_col: int | None = None
    cell: int | None = None
    count: int | None = None

    @property
    def where(self) -> str:
        """Return the place inside the file as every output names it.

        ``cell 5 (In[4]), line 14``; ``train.py:14`` for a plain file
        (:func:`tapemagic.report.places.place`).
        """
        if self.cell is not None:
            return name_place(self.line, self.count, self.cell)
        return name_place(self.line, file=self.path)

    @property
    def label(self) -> str:
        """Return the file and the place: ``nb.ipynb, cell 5 (In[4]), line 14``, ``train.py:14``."""
        return f"{self.path}, {self.where}" if self.cell is not None else self.where


@dataclass(frozen=True, slots=True)
class Annotation:
    """A finding (severity error/warning/info) or a lint hint (severity ``hint``) at a place."""

    place: Place
    code: str
    name: str
    severity: Level
    message: str
    fix: str | None = None


def relative(path: str) -> str:
    """Return ``path`` relative to the working directory when it lies under it, else as is."""
    return shown_path(os.path.abspath(path)) if os.path.isabs(path) else path


def script_place(location: Location | None, default: str) -> Place:
    """Return the place of a script run's location (its file, made relative), or ``default``."""
    if location is None:
        return Place(default)
    return Place(relative(location.file), location.line, location.col, location.end_line,
                 location.end_col)


def from_finding(finding: Finding, place: Callable[[Location | None], Place]) -> Annotation:
    """Return the annotation of a run report's finding, placed by the door's ``place``."""
    return Annotation(place(finding.location), finding.rule, finding.name, finding.severity,
                      finding.message, finding.fix.title if finding.fix is not None else None)


def from_hint(hint: Any) -> Annotation:
    """Return the annotation of a lint :class:`~tapemagic.lint.model.Hint`."""
    return Annotation(Place(hint.path, hint.line, hint.col, hint.end_line, hint.end_col,
                            hint.cell), hint.code, hint.name, "hint", hint.message,
                      hint.fix.title if hint.fix is not None else None)
