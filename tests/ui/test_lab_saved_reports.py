"""The JupyterLab extension on saved reports: renderer, panel, inline diagnostics, quick fix.

The notebook is written with nbformat and carries the sample payload as a saved display_data
output, so these tests need no TensorFlow. One step runs a kernel cell that displays the payload,
to check that live outputs reach the panel. The demo notebooks' saved reports render too.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tests.ui.lab_pages import (
    DEMO,
    MIME,
    REPO,
    SAMPLE,
    _cell_source,
    _open,
    _payload,
    _report_cell,
)

pytestmark = pytest.mark.ui


CATALOG = REPO / "tapemagic" / "rules" / "catalog.json"


XSS = '<img src=x onerror="window.__pwned=1">'


def _hostile_cell(payload: dict) -> nbformat.NotebookNode:
    """A report whose strings try to become HTML or break out of a DOT label."""
    hostile = json.loads(json.dumps(payload))
    hostile["headline"] = f"hostile {XSS}"
    hostile["findings"][0]["message"] = f"`{XSS}` <script>window.__pwned=2</script>"
    hostile["findings"][0]["location"]["source_line"] = "<b>bold?</b>"
    hostile["graph"]["nodes"][0]["label"] = (
        '"]; evil [label=<<b>x</b>> URL="javascript:alert(1)"]; x [label="')
    hostile["dot"] = 'digraph { a [URL="javascript:alert(1)" label=<<b>x</b>>] }'
    cell = _report_cell(hostile, "hostile-cell", 7)
    cell.source = "print('hostile')"
    return cell


@pytest.fixture
def notebooks(lab_root: Path) -> dict[str, str]:
    payload = _payload()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    future = {**payload, "schema": "tapemagic.report/9"}
    broken = _report_cell(future, "future-cell", 6)
    broken.source = "print('a report from the future')"
    live = nbformat.v4.new_code_cell(
        "import json\nfrom IPython.display import display\n"
        f"p = json.load(open({str(SAMPLE)!r}))\n"
        f"display({{{MIME!r}: p, 'text/plain': p['headline']}}, raw=True)",
        id="live-cell",
    )
    nb.cells = [_report_cell(payload, "seed-cell", 5), broken, live, _hostile_cell(payload)]
    nbformat.write(nb, lab_root / "report.ipynb")
    empty = nbformat.v4.new_notebook()
    empty.cells = [nbformat.v4.new_code_cell("1 + 1", id="plain-cell")]
    empty.metadata["kernelspec"] = nb.metadata["kernelspec"]
    nbformat.write(empty, lab_root / "empty.ipynb")
    return {"report": "report.ipynb", "empty": "empty.ipynb"}


def test_renderer_panel_diagnostics(lab_server, page, notebooks, shot):
    payload = _payload()
    catalog = {r["code"]: r for r in json.loads(CATALOG.read_text())["rules"]}
    _open(page, lab_server, notebooks["report"])

    # 1. Output renderer: verdict, graph with legend and severed edge, one card per finding.
    report = page.locator(".jp-OutputArea-output .jp-tapemagic-report").first
    report.wait_for(timeout=30_000)
    assert report.locator(".jp-tapemagic-headline").inner_text() == payload["headline"]
    report.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    svg = report.locator("svg.jp-tapemagic-svg")
    assert "✂ TM301" in (svg.text_content() or "")
    severed = svg.locator("path[stroke='#dc2626'][stroke-dasharray]")
    assert severed.count() >= 1
    assert report.locator(".jp-tapemagic-legend").inner_text().count("severed") == 1
    cards = report.locator(".jp-tapemagic-card")
    assert cards.count() == len(payload["findings"])
    first = report.locator(".jp-tapemagic-card[data-finding='f1']")
    assert "In[5], line 6" in first.inner_text()  # the location's `where`, as Python names it
    assert "p = y_pred.numpy()" in first.locator(".jp-tapemagic-source").inner_text()
    assert "sequential/h/kernel" in first.inner_text()
    assert "unsafe" in first.locator(".jp-tapemagic-fix").inner_text()

    # Clicking a severed edge leads to the finding that cut it.
    svg.locator("[data-tm^='e'] text", has_text="✂ TM301").first.click()
    report.locator(".jp-tapemagic-card.jp-mod-flash[data-finding='f1']").wait_for(timeout=5_000)

    # 2. Explain shows the rule's documentation from the bundled shared catalog.
    first.locator(".jp-tapemagic-explain-button").click()
    explain = first.locator(".jp-tapemagic-explain")
    assert catalog["TM301"]["why"].replace("`", "")[:60] in explain.inner_text()
    shot(page, "1_renderer")

    # 3. A future-version report gets a short message, not a crash.
    invalid = page.locator(".jp-tapemagic-invalid")
    invalid.wait_for(timeout=10_000)
    assert "cannot render this report (schema tapemagic.report/9" in invalid.inner_text()

    # 3b. Untrusted strings stay text, in the DOM and in the graph.
    hostile = page.locator(".jp-Cell").nth(3).locator(".jp-tapemagic-report")
    hostile.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    assert hostile.locator(".jp-tapemagic-headline").inner_text() == f"hostile {XSS}"
    assert hostile.locator("img, script, a[href^='javascript'], b").count() == 0
    assert '"]; evil' in (hostile.locator("svg.jp-tapemagic-svg").text_content() or "")
    assert page.evaluate("() => window.__pwned") is None

    # 4. Inline diagnostics: an error mark on the `.numpy()` call, message on hover.
    mark = page.locator(".jp-Cell").first.locator(".cm-lintRange-error").first
    mark.wait_for(timeout=15_000)
    assert page.locator(".jp-Cell").first.locator(".cm-lintRange-warning").count() >= 1
    mark.hover()
    tooltip = page.locator(".cm-tooltip-lint")
    tooltip.wait_for(timeout=10_000)
    assert "TM301" in tooltip.inner_text()
    shot(page, "2_diagnostic_tooltip")
    # A fix with no edit for this code (TM303's tf.where rewrite does not apply to this `if`)
    # shows its text but offers no button.
    page.mouse.move(0, 0)
    page.locator(".jp-Cell").first.locator(".cm-lintRange-warning").first.hover()
    page.locator(".cm-tooltip-lint:has-text('TM303')").wait_for(timeout=10_000)
    warning_tip = page.locator(".cm-tooltip-lint")
    assert "Fix: Replace the Python branch" in warning_tip.inner_text()
    assert warning_tip.locator(".cm-diagnosticAction").count() == 0

    # 5. Side panel: follows the notebook, lists its report, draws the graph large.
    page.locator("li[data-id='tapemagic-panel']").click()
    panel = page.locator("#tapemagic-panel")
    panel.locator(".jp-tapemagic-report-row").first.wait_for(timeout=10_000)
    rows = panel.locator(".jp-tapemagic-report-row")
    assert rows.count() == 2
    # Latest first: In[7] (the hostile cell) was run after In[5].
    assert rows.first.get_attribute("data-cell-id") == "hostile-cell"
    panel.locator(".jp-tapemagic-report-row[data-cell-id='seed-cell']").click()
    panel.locator(".jp-tapemagic-report-row.jp-mod-selected[data-cell-id='seed-cell']").wait_for()
    panel.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    big = panel.locator("svg.jp-tapemagic-svg")
    before = big.bounding_box()
    panel.locator(".jp-tapemagic-zoom-in").click()
    after = big.bounding_box()
    assert after and before and after["width"] > before["width"] * 1.2
    panel.locator(".jp-tapemagic-zoom-reset").click()
    shot(page, "3_panel")

    # 6. Clicking a finding selects its cell and puts the cursor on its line.
    page.locator(".jp-Notebook .jp-Cell").nth(2).click()
    panel.locator(".jp-tapemagic-card[data-finding='f2'] .jp-tapemagic-message").click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === 0"
    )
    pos = page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.content.activeCell.editor.getCursorPosition()"
    )
    assert pos == {"line": 11, "column": 21}

    # 7. Quick fix from the lint tooltip edits the cell, marks the report stale, and undoes.
    page.locator(".jp-Cell").first.locator(".cm-lintRange-error").first.hover()
    page.locator(".cm-tooltip-lint .cm-diagnosticAction").first.click()
    assert _cell_source(page, 0).splitlines()[5] == "    p = y_pred"
    page.locator(".jp-tapemagic-renderer.jp-mod-stale").first.wait_for(timeout=10_000)
    panel.locator(".jp-tapemagic-stale-badge").wait_for(timeout=10_000)
    shot(page, "4_after_fix")
    page.keyboard.press("Control+z")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.widgets[0].model.sharedModel"
        ".getSource().includes('y_pred.numpy()')"
    )

    # 8. A live run adds a report to the panel, latest first.
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status"
        " === 'idle'",
        timeout=60_000,
    )
    page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
        " nb.activeCellIndex = 2; return window.jupyterapp.commands.execute('notebook:run-cell'); }"
    )
    page.wait_for_function(
        "() => document.querySelectorAll('#tapemagic-panel .jp-tapemagic-report-row').length === 3",
        timeout=60_000,
    )
    rows = panel.locator(".jp-tapemagic-report-row")
    assert rows.first.get_attribute("data-cell-id") == "live-cell"
    shot(page, "5_live_run")

    # 9. Another notebook becomes active: the panel follows it and shows its empty state.
    page.evaluate(
        "p => window.jupyterapp.commands.execute('docmanager:open', {path: p})", notebooks["empty"]
    )
    panel.locator(".jp-tapemagic-empty").wait_for(timeout=30_000)
    assert "%%gradcheck" in panel.inner_text()
    shot(page, "6_empty_state")
    assert not page.errors, page.errors


def _demo_notebooks() -> list[Path]:
    return sorted(DEMO.glob("*.ipynb")) if DEMO.exists() else []


@pytest.mark.parametrize("demo", _demo_notebooks(), ids=lambda p: p.stem)
def test_demo_notebook_reports_render(lab_server, lab_root, page, demo, shot):
    """Reports the real engine wrote into the demo notebooks render, with marks in their cells."""
    nb = nbformat.read(demo, as_version=4)
    cells = [
        c for c in nb.cells
        if c.cell_type == "code" and any(MIME in o.get("data", {}) for o in c.get("outputs", []))
    ]
    if not cells:
        pytest.skip(f"{demo.name} has no saved report")
    (lab_root / demo.name).write_text(demo.read_text())
    _open(page, lab_server, demo.name)
    reports = page.locator(".jp-OutputArea-output .jp-tapemagic-report")
    reports.first.wait_for(timeout=30_000)
    page.wait_for_function(
        "n => document.querySelectorAll('.jp-tapemagic-report').length >= n", arg=len(cells)
    )
    assert page.locator(".jp-tapemagic-invalid").count() == 0
    with_findings = [c for c in cells
                     if any(o.get("data", {}).get(MIME, {}).get("findings") for o in c.outputs)]
    if with_findings:
        marks = page.locator(".cm-lintRange-error, .cm-lintRange-warning, .cm-lintRange-info")
        marks.first.wait_for(timeout=15_000)
    reports.first.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    reports.first.scroll_into_view_if_needed()
    shot(page, f"demo_{demo.stem}")
    assert not page.errors, page.errors


def test_dot_only_report_is_laid_out_and_sanitised(lab_server, lab_root, page):
    """A report with DOT text but no structured graph: Graphviz lays it out, links are dropped."""
    payload = json.loads(json.dumps(_payload()))
    payload["graph"] = {"nodes": [], "edges": []}
    payload["dot"] = (
        'digraph { a [label=<<b>bold</b> label> URL="javascript:window.__pwned=3"]; '
        'a -> b [label="✂ TM301" color=red style=dashed] }'
    )
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [_report_cell(payload, "dot-only", 3)]
    nbformat.write(nb, lab_root / "dot_only.ipynb")
    _open(page, lab_server, "dot_only.ipynb")
    svg = page.locator(".jp-OutputArea-output .jp-tapemagic-report svg.jp-tapemagic-svg")
    svg.wait_for(timeout=30_000)
    assert "bold" in (svg.text_content() or "")
    assert svg.locator("a, [href], script").count() == 0
    svg.locator("text").first.click()
    assert page.evaluate("() => window.__pwned") is None
    assert not page.errors, page.errors
