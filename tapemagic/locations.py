"""Map compiled filenames and lines to what the user sees: ``In[N]`` line L, or ``script.py:L``.

TF-free. A ``%%gradcheck`` body is compiled with one blank line in front, so its line numbers
already equal the editor's (line 1 is the magic line). Earlier cells are found through
IPython's ``CachingCompiler._filename_map`` (filename → execution count); their lines are the
cell's own. Anything else (a script, the user's module) keeps its file and line.
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass, field

from tapemagic.report.model import Location
from tapemagic.trace import RawLocation


@dataclass
class CellMap:
    """What the mapper knows: compiled filename → (execution count, cell id)."""

    cells: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)

    def add(self, filename: str, execution_count: int | None, cell_id: str | None) -> None:
        """Register a compiled cell."""
        self.cells[filename] = (execution_count, cell_id)

    def location(self, raw: RawLocation | None) -> Location | None:
        """Return the user-facing :class:`Location` of a raw frame position."""
        if raw is None:
            return None
        count, cell_id = self.cells.get(raw.file, (None, None))
        source_line = linecache.getline(raw.file, raw.line).rstrip("\n")
        return Location(
            file=raw.file,
            line=raw.line,
            end_line=raw.end_line,
            col=raw.col,
            end_col=raw.end_col,
            source_line=source_line,
            function=None if raw.function == "<module>" else raw.function,
            execution_count=count,
            cell_id=cell_id,
        )

    def snippet(self, raw: RawLocation | None, limit: int = 60) -> str | None:
        """Return the source text of the expression at ``raw`` (first line only), if known."""
        if raw is None or raw.col is None:
            return None
        line = linecache.getline(raw.file, raw.line).rstrip("\n")
        end = raw.end_col if raw.end_line in (None, raw.line) and raw.end_col else len(line)
        text = line[raw.col:end].strip()
        if not text:
            return None
        return text if len(text) <= limit else text[: limit - 3] + "..."
