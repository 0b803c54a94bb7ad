"""Where a run's reports go: the text report, ``--json``, ``--format github|sarif``, ``--html``.

TF-free. One :class:`Outputs` serves a script run (one report) and a notebook run (one report
per checked cell). Streams: the text report and the program's own prints go to stdout, except
when stdout carries a machine format (``--json -`` or ``--format sarif``): then both go to
stderr, so stdout stays one valid JSON document.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from tapemagic.report.annotation import Annotation, Place, from_finding, script_place
from tapemagic.report.model import Location, Report
from tapemagic.report.places import place

__all__ = ["Outputs", "Unit"]


@dataclass(frozen=True)
class Unit:
    """One report and where its code lives.

    ``path`` is the script or notebook as the user named it; ``cell`` the notebook cell whose
    run made the report (1-based, every cell counted), None for a script; ``cells`` maps the
    kernel's execution counts (``In[N]``) to cell numbers, so a finding in an earlier cell is
    placed there.
    """

    report: Report
    path: str
    cell: int | None = None
    cells: Mapping[int, int] = field(default_factory=dict)

    def place(self, location: Location | None) -> Place:
        """Return where ``location`` is for the user (notebook cell, or file and line)."""
        if location is None:
            return Place(self.path, cell=self.cell)
        count = location.execution_count
        if count is not None and count in self.cells:
            return Place(self.path, location.line, location.col, location.end_line,
                         location.end_col, cell=self.cells[count], count=count)
        return script_place(location, self.path)

    def label(self, location: Location | None) -> str:
        """Return where ``location`` is: ``nb.ipynb, cell 5 (In[4]), line 14``, ``train.py:14``."""
        return self.place(location).label

    def annotations(self) -> list[Annotation]:
        """Return the report's findings as CI annotations."""
        return [from_finding(f, self.place) for f in self.report.findings]


@dataclass
class Outputs:
    """What the user asked for: ``--json`` path (or ``-``), ``--html`` path, ``--format``."""

    json_path: str | None = None
    html_path: str | None = None
    format: str = "text"

    @property
    def machine_stdout(self) -> bool:
        """Return True when stdout carries one JSON document (``--json -``, SARIF)."""
        return self.json_path == "-" or self.format == "sarif"

    @property
    def program_stdout(self) -> TextIO:
        """Return the stream for the checked program's own prints."""
        return sys.stderr if self.machine_stdout else sys.stdout

    def write(self, units: list[Unit], source: str, *, successful: bool,
              notebook: bool = False, show: list[Unit] | None = None) -> None:
        """Write every requested output (text first, then the files).

        ``units`` go to ``--json``; ``show`` (default: all of them) to the text, the CI
        formats and ``--html`` (a notebook run leaves out cells that computed no gradient).
        """
        show = units if show is None else show
        text = sys.stderr if self.machine_stdout else sys.stdout
        for unit in show:
            print(_text(unit, notebook), file=text)
        annotations = [a for unit in show for a in unit.annotations()]
        if self.format == "github":
            from tapemagic.report.github import render_github

            if annotations:
                print(render_github(annotations))
        elif self.format == "sarif":
            from tapemagic.report.sarif import build_sarif

            print(json.dumps(build_sarif(annotations, successful=successful), indent=1,
                             ensure_ascii=False))
        if self.json_path:
            payload: Any = ([{"cell": u.cell, "execution_count": u.report.cell.execution_count,
                              "report": u.report.to_json()} for u in units] if notebook
                            else units[0].report.to_json())
            _write(self.json_path, json.dumps(payload, indent=1, ensure_ascii=False) + "\n")
        if self.html_path:
            from tapemagic.report.standalone import render_standalone

            _write(self.html_path, render_standalone(
                [(_title(u, notebook), u.report) for u in show], source))


def _title(unit: Unit, notebook: bool) -> str:
    if not notebook:
        return unit.path
    return f"{unit.path}, {place(None, unit.report.cell.execution_count, unit.cell)}"


def _text(unit: Unit, notebook: bool) -> str:
    """Return a unit's text: for a notebook cell a header and ruff-style finding lines first."""
    from tapemagic.report.text import render_text

    body = render_text(unit.report)
    if not notebook:
        return body
    lines = [f"== {_title(unit, notebook)} =="]
    lines += [f"{a.place.label}: {a.code} {a.message}" for a in unit.annotations()]
    return "\n".join(lines) + "\n\n" + body


def _write(path: str, text: str) -> None:
    if path == "-":
        print(text, end="")
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
