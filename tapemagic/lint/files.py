"""The ``python -m tapemagic lint PATH...`` door: files, folders and notebooks to hints.

TF-free, no execution. A folder is searched for ``*.py`` and ``*.ipynb`` (hidden folders,
virtual environments and ``node_modules`` skipped); a notebook is read as JSON, its code cells
are checked as one program (top to bottom) and each hint is given in its own cell's
coordinates. Text output follows ruff's:
``path:line:col: CODE message`` with a 1-based column, and for a notebook cell
``path:cell N:line:col: CODE message``, where N counts every cell of the notebook from 1 (the
N-th cell as the notebook shows it, markdown cells included) and the line is the cell's own.
``--format json`` prints a list of objects (``path``, ``cell`` for a notebook cell, ``code``,
``cause``, ``line``, ``col`` (0-based), ``end_line``, ``end_col``, ``message``);
``--format github`` and ``--format sarif`` the CI forms of :mod:`tapemagic.report.github` and
:mod:`tapemagic.report.sarif`.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from tapemagic.lint import check_source
from tapemagic.lint.cells import blank_magics
from tapemagic.lint.model import Hint

#: Exit status of ``python -m tapemagic lint`` (``--help`` prints it).
EXIT_STATUS = """\
exit status:
  0    no hint
  1    at least one hint
  2    usage error (no such path, unreadable file, a notebook that is not JSON)"""
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "site-packages", "venv"})


class LintUsageError(Exception):
    """A path that does not exist or cannot be read as Python or a notebook."""


def discover(paths: list[str]) -> Iterator[Path]:
    """Yield the ``.py`` and ``.ipynb`` files of ``paths`` (folders searched, sorted).

    Raises
    ------
    LintUsageError
        If a path does not exist.
    """
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
                for file in sorted(files):
                    if file.endswith((".py", ".ipynb")):
                        yield Path(folder) / file
        elif path.is_file():
            yield path
        else:
            raise LintUsageError(f"no such file or folder: {name}")


def check_file(path: Path) -> list[Hint]:
    """Return the hints of one Python file or notebook (notebook hints carry their cell).

    Raises
    ------
    LintUsageError
        If the file cannot be read, or a notebook is not a notebook's JSON.
    """
    shown = str(path)
    if path.suffix == ".ipynb":
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
            cells = notebook["cells"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise LintUsageError(f"{shown}: not a readable notebook ({error})") from error
        return check_notebook(cells, shown)
    try:
        with tokenize.open(path) as handle:  # PEP 263 coding line and BOM, as Python reads it
            text = handle.read()
    except (OSError, SyntaxError, UnicodeDecodeError) as error:
        raise LintUsageError(f"{shown}: cannot be read ({error})") from error
    return check_source(text, shown)


def check_notebook(cells: list[object], shown: str) -> list[Hint]:
    """Return the hints of a notebook's code cells, each in its own cell's coordinates.

    The cells are checked as one program, in notebook order (a cell uses what earlier cells
    defined, as the kernel does when they run top to bottom); a cell that is not valid Python
    on its own is left out, so it cannot hide the others' hints.
    """
    texts: list[str] = []
    owners: list[tuple[int, int]] = []  # (cell number, first line of the cell in the program)
    line = 1
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = blank_magics("".join(source) if isinstance(source, list) else str(source))
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            text = "\n" * text.count("\n")
        owners.append((number, line))
        texts.append(text)
        line += text.count("\n") + 1
    hints = []
    for hint in check_source("\n".join(texts), shown):
        number, first = next(o for o in reversed(owners) if o[1] <= hint.line)
        shift = first - 1
        fix = hint.fix
        if fix is not None:
            fix = replace(fix, edits=tuple(replace(e, line=e.line - shift,
                                                   end_line=e.end_line - shift)
                                           for e in fix.edits))
        hints.append(replace(hint, cell=number, line=hint.line - shift,
                             end_line=hint.end_line - shift, fix=fix))
    return hints


def render_text(hint: Hint) -> str:
    """Return ruff's one-line form of a hint (1-based column)."""
    where = f"{hint.path}:cell {hint.cell}" if hint.cell is not None else hint.path
    return f"{where}:{hint.line}:{hint.col + 1}: {hint.code} {hint.message}"


def render_json(hints: list[Hint]) -> str:
    """Return the ``--format json`` list of hints."""
    keys = ("path", "cell", "code", "cause", "line", "col", "end_line", "end_col", "message")
    rows = [{k: v for k, v in h.to_json().items() if k in keys} for h in hints]
    return json.dumps(rows, indent=1, ensure_ascii=False)


def run(paths: list[str], output_format: str, out: TextIO = sys.stdout,
        err: TextIO = sys.stderr) -> int:
    """Check ``paths`` and print the hints; return the exit status (:data:`EXIT_STATUS`)."""
    hints: list[Hint] = []
    try:
        for path in discover(paths):
            hints += check_file(path)
    except LintUsageError as error:
        print(f"tapemagic lint: {error}", file=err)
        return 2
    if output_format == "json":
        print(render_json(hints), file=out)
    elif output_format in ("github", "sarif"):
        from tapemagic.report.annotation import from_hint

        annotations = [from_hint(h) for h in hints]
        if output_format == "github":
            from tapemagic.report.github import render_github

            if annotations:
                print(render_github(annotations), file=out)
        else:
            from tapemagic.report.sarif import build_sarif

            print(json.dumps(build_sarif(annotations), indent=1, ensure_ascii=False), file=out)
    else:
        for hint in hints:
            print(render_text(hint), file=out)
        if hints:
            print(f"Found {len(hints)} hint{'s' if len(hints) != 1 else ''} (nothing was run: "
                  "each says where a gradient may be cut).", file=out)
    return 1 if hints else 0
