"""The static checker's result: a :class:`Hint` (a possible cut the source shows) and its fix.

TF-free, no execution. A hint carries the catalog code, cause and name of the runtime rule it
anticipates, severity ``"hint"`` always (nothing ran, so nothing is known for sure), and a
message from the rule's ``hint`` template in the catalog, worded as a possibility.
Positions: lines 1-based, columns 0-based in characters (not bytes), in the coordinates of the
source as it was given to :func:`tapemagic.lint.check_source`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tapemagic.report.model import Edit

Applicability = Literal["safe", "unsafe", "display-only"]


@dataclass(frozen=True, slots=True)
class HintFix:
    """A quick fix for a hint: the rule's ``fix_title``, how safe it is, and its edits."""

    title: str
    applicability: Applicability
    edits: tuple[Edit, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return ``{"title", "applicability", "edits": [{line, col, end_line, end_col, text}]}``.

        The edit columns are characters, like the hint's.
        """
        return {
            "title": self.title,
            "applicability": self.applicability,
            "edits": [{"line": e.line, "col": e.col, "end_line": e.end_line,
                       "end_col": e.end_col, "text": e.text} for e in self.edits],
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """One place where the source shows that a gradient may be cut.

    ``path`` is the file (or ``"<cell>"``) the source came from; ``cell`` is the 1-based cell
    number when the source is one cell of a notebook file (None otherwise).
    """

    path: str
    code: str
    cause: str
    name: str
    message: str
    line: int
    col: int
    end_line: int
    end_col: int
    fix: HintFix | None = None
    cell: int | None = None
    severity: Literal["hint"] = "hint"

    def to_json(self) -> dict[str, Any]:
        """Return the JSON object of the lint contract (``cell`` only for notebook cells)."""
        out: dict[str, Any] = {
            "path": self.path, "code": self.code, "cause": self.cause, "name": self.name,
            "severity": self.severity, "message": self.message, "line": self.line,
            "col": self.col, "end_line": self.end_line, "end_col": self.end_col,
            "fix": self.fix.to_json() if self.fix is not None else None,
        }
        if self.cell is not None:
            out["cell"] = self.cell
        return out
