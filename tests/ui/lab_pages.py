"""Notebooks and page helpers shared by the JupyterLab extension's browser tests (tests/ui/).

A report notebook is written with nbformat and carries a saved report as a display_data output;
``_open`` opens a notebook in the running JupyterLab, the rest read the page (cell sources, the
text under lint marks). tests/ui/test_lab_*.py and tests/ui/test_fix_loop.py use them.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "tests" / "samples" / "seed000_sample.json"
MIME = "application/vnd.tapemagic.report.v1+json"


def _payload() -> dict:
    if not SAMPLE.exists():
        pytest.skip(f"{SAMPLE} missing")
    return json.loads(SAMPLE.read_text())


def _report_cell(payload: dict, cell_id: str, count: int) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(payload["cell"]["source"].rstrip("\n"), id=cell_id)
    cell.execution_count = count
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={MIME: payload, "text/plain": payload["headline"]}
        )
    ]
    return cell


def _open(page, base: str, path: str) -> None:
    # `reset` drops the workspace a previous test left (its notebooks would open first).
    page.goto(f"{base}/lab/tree/{path}?reset")
    page.wait_for_function(
        "p => window.jupyterapp?.shell.currentWidget?.context?.path === p", arg=path, timeout=60_000
    )
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell", timeout=60_000)


def _cell_source(page, index: int) -> str:
    return page.evaluate(
        "i => window.jupyterapp.shell.currentWidget.content.widgets[i]"
        ".model.sharedModel.getSource()",
        index,
    )


DEMO = REPO / "demo"


SEED000 = DEMO / "seed000_numpy_in_loss.ipynb"


def _demo_report(path: Path, cell_id: str) -> dict:
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    return next(o["data"][MIME] for o in cell.outputs if MIME in o.get("data", {}))


def _lint_text(page, cell_index: int, line_text: str, severity: str = "error") -> str:
    """The text under `severity` lint marks on the editor line that reads `line_text`."""
    return page.evaluate(
        """([i, text, sev]) => {
            const cell = document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell')[i];
            const line = Array.from(cell.querySelectorAll('.cm-line'))
                .find(l => l.textContent === text);
            if (!line) return null;
            return Array.from(line.querySelectorAll('.cm-lintRange-' + sev))
                .map(e => e.textContent).join('');
        }""",
        [cell_index, line_text, severity],
    )
