"""A fix's edits as a before/after of the lines they change, for readers with no Apply button.

TF-free. This module's single job is :func:`fix_diff`. The edits are in the coordinates of
the finding's location (lines 1-based, columns 0-based; :class:`~tapemagic.report.model.Edit`).
The text they were made for is the report's own cell (or script) when the finding is in it,
as the JupyterLab extension's fix loop reads it (``labextension/src/model/fixes.ts``);
otherwise only the finding's own line is known, and only edits on it can be shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapemagic.report.model import Edit, Finding, Location, Report

__all__ = ["Diff", "fix_diff"]


@dataclass(frozen=True)
class Diff:
    """The lines ``first..`` as they are (``before``) and as the fix leaves them (``after``)."""

    first: int
    before: tuple[str, ...]
    after: tuple[str, ...]


def _known_lines(report: Report, loc: Location) -> dict[int, str]:
    """Return the lines (by number) of the text the finding's edits were made for."""
    cell = report.cell
    own = (loc.execution_count == cell.execution_count if cell.execution_count is not None
           else loc.file == cell.filename)
    if own and cell.source:
        return dict(enumerate(cell.source.split("\n"), start=1))
    return {loc.line: loc.source_line.rstrip("\n")} if loc.source_line else {}


def fix_diff(finding: Finding, report: Report) -> Diff | None:
    """Return the before/after of the lines the fix of ``finding`` edits, or None.

    None when the finding has no fix edits, when a line an edit touches is not known (a
    finding in an earlier cell whose edit leaves its own line), when an edit's columns fall
    outside its lines, or when two edits overlap: then there is nothing exact to show.

    Raises
    ------
    AttributeError
        If ``finding`` or ``report`` is not a report object.
    """
    fix, loc = finding.fix, finding.location
    if fix is None or not fix.edits or loc is None:
        return None
    lines = _known_lines(report, loc)
    first = min(e.line for e in fix.edits)
    last = max(e.end_line for e in fix.edits)
    if any(n not in lines for n in range(first, last + 1)):
        return None
    before = [lines[n] for n in range(first, last + 1)]
    text = "\n".join(before)
    starts = [0]
    for line in before[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(line: int, col: int) -> int | None:
        k = line - first
        return starts[k] + col if 0 <= col <= len(before[k]) else None

    spans: list[tuple[int, int, Edit]] = []
    for e in fix.edits:
        a, b = offset(e.line, e.col), offset(e.end_line, e.end_col)
        if a is None or b is None or b < a:
            return None
        spans.append((a, b, e))
    spans.sort(key=lambda s: (s[0], s[1]))
    if any(spans[k][1] > spans[k + 1][0] for k in range(len(spans) - 1)):
        return None
    for a, b, e in reversed(spans):  # from the end, so earlier offsets stay valid
        text = text[:a] + e.text + text[b:]
    return Diff(first, tuple(before), tuple(text.split("\n")))
