"""The JupyterLab extension in a real browser: renderer, panel, inline diagnostics, quick fix.

The notebook is written with nbformat and carries the sample payload as a saved display_data
output, so these tests need no TensorFlow. One step runs a kernel cell that displays the payload,
to check that live outputs reach the panel.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.ui

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "tests" / "samples" / "seed000_sample.json"
CATALOG = REPO / "tapemagic" / "rules" / "catalog.json"
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


XSS = '<img src=x onerror="window.__pwned=1">'


def _hostile_cell(payload: dict) -> nbformat.NotebookNode:
    """A report whose strings try to become HTML or break out of a DOT label."""
    hostile = json.loads(json.dumps(payload))
    hostile["headline"] = f"hostile {XSS}"
    hostile["findings"][0]["message"] = f"`{XSS}` <script>window.__pwned=2</script>"
    hostile["findings"][0]["location"]["source_line"] = "<b>bold?</b>"
    hostile["graph"]["nodes"][0]["label"] = '"]; evil [label=<<b>x</b>> URL="javascript:alert(1)"]; x [label="'
    hostile["dot"] = 'digraph { a [URL="javascript:alert(1)" label=<<b>x</b>>] }'
    cell = _report_cell(hostile, "hostile-cell", 7)
    cell.source = "print('hostile')"
    return cell


@pytest.fixture
def notebooks(lab_root: Path) -> dict[str, str]:
    payload = _payload()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
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


def _open(page, base: str, path: str) -> None:
    # `reset` drops the workspace a previous test left (its notebooks would open first).
    page.goto(f"{base}/lab/tree/{path}?reset")
    page.wait_for_function(
        "p => window.jupyterapp?.shell.currentWidget?.context?.path === p", arg=path, timeout=60_000
    )
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell", timeout=60_000)


def _cell_source(page, index: int) -> str:
    return page.evaluate(
        "i => window.jupyterapp.shell.currentWidget.content.widgets[i].model.sharedModel.getSource()",
        index,
    )


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


DEMO = REPO / "demo"


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
        f"n => document.querySelectorAll('.jp-tapemagic-report').length >= n", arg=len(cells)
    )
    assert page.locator(".jp-tapemagic-invalid").count() == 0
    with_findings = [c for c in cells if any(o.get("data", {}).get(MIME, {}).get("findings") for o in c.outputs)]
    if with_findings:
        page.locator(".cm-lintRange-error, .cm-lintRange-warning, .cm-lintRange-info").first.wait_for(timeout=15_000)
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
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
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


SETUP_CELL = """%load_ext tapemagic
import numpy as np
import tensorflow as tf
w = tf.Variable([1.0, 2.0], name="w")
x = tf.constant([3.0, 4.0])
def my_loss(v):
    return tf.constant(np.sum(v.numpy()))"""
CHECK_CELL = """%%gradcheck
with tf.GradientTape() as tape:
    loss = my_loss(w * x)
grads = tape.gradient(loss, [w])"""
INLINE_CELL = """%%gradcheck
with tf.GradientTape() as tape:
    y = w * x
    loss = tf.constant(np.sum(y.numpy()))
grads = tape.gradient(loss, [w])"""


@pytest.mark.tf
def test_live_gradcheck_end_to_end(lab_server, lab_root, page, shot):
    """The real magic in a real kernel: marks land in the right cells; fix, stale, re-run."""
    import importlib.util

    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("tensorflow is not installed")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell(SETUP_CELL, id="setup"),
        nbformat.v4.new_code_cell(CHECK_CELL, id="check"),
        nbformat.v4.new_code_cell(INLINE_CELL, id="inline"),
    ]
    nbformat.write(nb, lab_root / "live.ipynb")
    _open(page, lab_server, "live.ipynb")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status"
        " === 'idle'",
        timeout=60_000,
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-OutputArea-output .jp-tapemagic-report').length === 2",
        timeout=120_000,
    )
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    # The loss function's finding is underlined where it lives: the earlier cell.
    setup_mark = cells.nth(0).locator(".cm-lintRange-error").first
    setup_mark.wait_for(timeout=15_000)
    assert "v.numpy()" in setup_mark.evaluate(
        "el => el.closest('.cm-line').textContent"
    )
    inline_mark = cells.nth(2).locator(".cm-lintRange-error").first
    inline_mark.wait_for(timeout=15_000)
    shot(page, "7_live_marks")

    # Apply the fix in the third cell: edited, stale; re-run: fresh report, not stale.
    inline_mark.hover()
    page.locator(".cm-tooltip-lint .cm-diagnosticAction").first.click()
    # the quick fix drops .numpy() and turns the NumPy call on its value into TensorFlow
    assert "tf.constant(tf.reduce_sum(y))" in _cell_source(page, 2)
    stale = cells.nth(2).locator(".jp-tapemagic-renderer.jp-mod-stale")
    stale.wait_for(timeout=10_000)
    page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
        " nb.activeCellIndex = 2; return window.jupyterapp.commands.execute('notebook:run-cell'); }"
    )
    stale.wait_for(state="detached", timeout=60_000)
    cells.nth(2).locator(".jp-tapemagic-report").wait_for(timeout=60_000)
    shot(page, "8_live_rerun")
    assert not page.errors, page.errors


SEED000 = DEMO / "seed000_numpy_in_loss.ipynb"


def _demo_report(path: Path, cell_id: str) -> dict:
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.get("id") == cell_id)
    return next(o["data"][MIME] for o in cell.outputs if MIME in o.get("data", {}))


def _lint_text(page, cell_index: int, line_text: str, severity: str = "error") -> str:
    """The text under `severity` lint marks on the editor line that reads `line_text`."""
    return page.evaluate(
        """([i, text, sev]) => {
            const cell = document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell')[i];
            const line = Array.from(cell.querySelectorAll('.cm-line')).find(l => l.textContent === text);
            if (!line) return null;
            return Array.from(line.querySelectorAll('.cm-lintRange-' + sev)).map(e => e.textContent).join('');
        }""",
        [cell_index, line_text, severity],
    )


def _cursor(page) -> dict:
    """The active cell and cursor; asserts the cursor's line is scrolled into view."""
    where = page.evaluate(
        """() => {
            const nb = window.jupyterapp.shell.currentWidget.content;
            const e = nb.activeCell.editor;
            const r = e.getCoordinateForPosition(e.getCursorPosition());
            const box = nb.node.getBoundingClientRect();
            return {cell: nb.activeCellIndex, ...e.getCursorPosition(), mode: nb.mode,
                    visible: !!r && r.top >= box.top && r.bottom <= box.bottom};
        }"""
    )
    assert where.pop("visible"), f"cursor line not scrolled into view: {where}"
    assert where.pop("mode") == "edit"
    return where


def test_reopened_notebook_without_kernel(lab_server, lab_root, page, shot):
    """A committed notebook opened with "No Kernel": renderer, panel, marks from saved outputs.

    The copy keeps every cell and output byte for byte; only `kernelspec` and `language_info`
    are dropped from its metadata, so JupyterLab asks which kernel to use instead of starting
    one, and the test answers "No Kernel".
    """
    if not SEED000.exists():
        pytest.skip(f"{SEED000} missing")
    broken = _demo_report(SEED000, "seed000-broken")
    nb = json.loads(SEED000.read_text())
    nb["metadata"].pop("kernelspec", None)
    nb["metadata"].pop("language_info", None)
    (lab_root / "reopened.ipynb").write_text(json.dumps(nb))
    page.goto(f"{lab_server}/lab/tree/reopened.ipynb?reset")
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=60_000)
    dialog.locator("select").select_option(label="No Kernel")
    dialog.locator(".jp-mod-accept").click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget?.sessionContext?.kernelDisplayName"
        " === 'No Kernel'",
        timeout=30_000,
    )
    sessions = page.evaluate("() => fetch('/api/sessions').then(r => r.json())")
    assert not [s for s in sessions if s["path"].endswith("reopened.ipynb")], sessions

    # Renderer: both saved reports, with graphs, from the outputs alone.
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    broken_view = cells.nth(2).locator(".jp-OutputArea-output .jp-tapemagic-report")
    broken_view.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    assert broken_view.locator(".jp-tapemagic-headline").inner_text() == broken["headline"]
    assert broken_view.locator(".jp-tapemagic-card").count() == len(broken["findings"])
    assert cells.nth(4).locator(".jp-tapemagic-report svg.jp-tapemagic-svg").count() == 1

    # Marks: in the broken cell only, exactly on the findings' column ranges.
    cells.nth(2).locator(".cm-lintRange-error").first.wait_for(timeout=15_000)
    assert _lint_text(page, 2, "    psi = out.numpy()[:, 0]") == "out.numpy()"
    tape_line = "with tf.GradientTape(watch_accessed_variables=False) as tape:"
    assert _lint_text(page, 2, tape_line) == "tf.GradientTape(watch_accessed_variables=False)"
    assert _lint_text(page, 2, "        elif out[k, 0] != 0:", "warning") == "out[k, 0] != 0"
    marks = ".cm-lintRange-error, .cm-lintRange-warning, .cm-lintRange-info"
    for other in (1, 4, 5):
        assert cells.nth(other).locator(marks).count() == 0

    # Panel: lists both reports, the most recently run first.
    page.evaluate("() => window.jupyterapp.commands.execute('tapemagic:open-panel')")
    panel = page.locator("#tapemagic-panel")
    panel.locator(".jp-tapemagic-report-row").first.wait_for(timeout=10_000)
    rows = panel.locator(".jp-tapemagic-report-row")
    assert [rows.nth(i).get_attribute("data-cell-id") for i in range(rows.count())] == [
        "seed000-fixed", "seed000-broken"
    ]
    shot(page, "9_reopened_no_kernel")
    assert not page.errors, page.errors


def test_go_to_line_and_layer_groups(lab_server, lab_root, page, shot):
    """"Go to line" on an output-area card; panel layers collapse/expand; a severed edge reveals."""
    if not SEED000.exists():
        pytest.skip(f"{SEED000} missing")
    (lab_root / SEED000.name).write_text(SEED000.read_text())
    _open(page, lab_server, SEED000.name)
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    card = cells.nth(2).locator(".jp-OutputArea-output .jp-tapemagic-card[data-rule='TM303']")
    card.wait_for(timeout=30_000)

    # 1. Output-area card: "Go to line" selects the cell and puts the cursor on the finding.
    cells.nth(0).click()
    card.locator(".jp-tapemagic-reveal-button").click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === 2"
    )
    assert _cursor(page) == {"cell": 2, "line": 9, "column": 13}
    # A click on the card itself (e.g. to select its text) does not jump into the editor.
    cells.nth(0).click()
    card.locator(".jp-tapemagic-message").click()
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.content.mode") == "command"

    # 2. Panel, clean report (selected first): layers collapsed, weights hidden; click expands.
    page.evaluate("() => window.jupyterapp.commands.execute('tapemagic:open-panel')")
    panel = page.locator("#tapemagic-panel")
    svg = panel.locator("svg.jp-tapemagic-svg")
    svg.wait_for(timeout=30_000)
    layers = panel.locator(".jp-tapemagic-layer")
    assert layers.count() == 2
    assert panel.locator(".jp-tapemagic-layer.jp-mod-expanded").count() == 0
    assert "sequential/hidden/kernel" not in (svg.text_content() or "")
    assert "▸ 2 weights" in (svg.text_content() or "")
    svg.locator("[data-tm^='n'] text", has_text="sequential/hidden").first.click()
    hidden = panel.locator(".jp-tapemagic-layer.jp-mod-expanded[data-group='layer:sequential/hidden']")
    hidden.wait_for(timeout=10_000)
    page.wait_for_function(
        "() => document.querySelector('#tapemagic-panel svg.jp-tapemagic-svg')"
        "?.textContent.includes('sequential/hidden/kernel')"
    )
    assert "sequential/amplitude/kernel" not in (panel.locator("svg.jp-tapemagic-svg").text_content() or "")
    weights = hidden.locator(".jp-tapemagic-layer-weight")
    assert weights.count() == 2 and "gets a gradient" in weights.first.inner_text()
    assert "No finding in this layer or at In[3], line 12" in hidden.inner_text()
    # The list's toggle collapses it again.
    hidden.locator(".jp-tapemagic-layer-toggle").click()
    panel.locator(".jp-tapemagic-layer.jp-mod-expanded").wait_for(state="detached", timeout=10_000)

    # 3. Broken report: both layers lie on the severed path, so they start expanded.
    panel.locator(".jp-tapemagic-report-row[data-cell-id='seed000-broken']").click()
    panel.locator(".jp-tapemagic-report-row.jp-mod-selected[data-cell-id='seed000-broken']").wait_for()
    panel.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    assert panel.locator(".jp-tapemagic-layer.jp-mod-expanded.jp-mod-severed").count() == 2
    assert "no gradient" in panel.locator(".jp-tapemagic-layer-weight").first.inner_text()
    assert "sequential/hidden/kernel" in (panel.locator("svg.jp-tapemagic-svg").text_content() or "")
    shot(page, "10_panel_layers")

    # 4. Clicking the severed edge in the panel goes to the finding's line, from far away.
    page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
        " nb.activeCellIndex = nb.widgets.length - 1; nb.mode = 'command';"
        " return nb.scrollToCell(nb.widgets[nb.widgets.length - 1], 'start'); }"
    )
    in_view = (
        "() => { const nb = window.jupyterapp.shell.currentWidget.content.node.getBoundingClientRect();"
        " const line = Array.from(document.querySelectorAll('.jp-Cell')[2].querySelectorAll('.cm-line'))"
        ".find(l => l.textContent.includes('psi = out.numpy()'));"
        " if (!line) return false; const r = line.getBoundingClientRect();"
        " return r.height > 0 && r.top >= nb.top && r.bottom <= nb.bottom; }"
    )
    page.wait_for_function(f"() => !({in_view})()")
    panel.locator("svg.jp-tapemagic-svg [data-tm^='e'] text", has_text="✂ TM301").first.click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === 2"
    )
    assert _cursor(page) == {"cell": 2, "line": 2, "column": 10}
    assert not page.errors, page.errors


RERUN_CELL = f"""import json
from IPython.display import display
report = json.load(open('clean_report.json'))
display({{{MIME!r}: report, 'text/plain': report['headline']}}, raw=True)"""


def test_marks_go_when_edited_or_rerun_clean(lab_server, lab_root, page, shot):
    """A mark goes when an edit touches its range (others stay); a clean re-run clears a cell."""
    payload = _payload()
    # A cell whose saved report has one finding on its own line 3; re-running it (kernel, no
    # TensorFlow) displays a clean report instead.
    dirty = json.loads(json.dumps(payload))
    dirty["cell"] = {**dirty["cell"], "source": RERUN_CELL, "execution_count": 9, "cell_id": "rerun"}
    line3 = RERUN_CELL.splitlines()[2]
    dirty["findings"] = [{
        **payload["findings"][0],
        "location": {**payload["findings"][0]["location"], "line": 3, "end_line": 3, "col": 9,
                     "end_col": len(line3), "source_line": line3, "execution_count": 9},
        "fix": None,
    }]
    clean = json.loads(json.dumps(payload))
    clean["findings"] = []
    clean["headline"] = "All 4 weights get a gradient"
    clean["graph"]["edges"] = [{**e, "state": "connected", "finding": None} for e in clean["graph"]["edges"]]
    (lab_root / "clean_report.json").write_text(json.dumps(clean))
    rerun = _report_cell(dirty, "rerun", 9)
    rerun.source = RERUN_CELL
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [_report_cell(payload, "seed-cell", 5), rerun]
    nbformat.write(nb, lab_root / "marks.ipynb")
    _open(page, lab_server, "marks.ipynb")
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    cells.nth(1).locator(".cm-lintRange-error").first.wait_for(timeout=15_000)
    numpy_line, tape_line = "    p = y_pred.numpy()", "with tf.GradientTape(watch_accessed_variables=False) as tape:"
    tape_loc = payload["findings"][1]["location"]
    tape_mark = tape_line[tape_loc["col"]:tape_loc["end_col"]]  # watch_accessed_variables=False
    assert _lint_text(page, 0, numpy_line) == "y_pred.numpy()"
    assert _lint_text(page, 1, line3) == "json.load(open('clean_report.json'))"

    # 1. An edit elsewhere in the cell keeps every mark (mapped); the report goes stale.
    page.evaluate(
        "() => { const e = window.jupyterapp.shell.currentWidget.content.widgets[0].editor;"
        " e.setCursorPosition({line: 2, column: 0}); e.focus(); }"
    )
    page.keyboard.type("# edited\n")
    cells.nth(0).locator(".jp-tapemagic-renderer.jp-mod-stale").wait_for(timeout=10_000)
    assert _lint_text(page, 0, numpy_line) == "y_pred.numpy()"
    assert _lint_text(page, 0, tape_line) == tape_mark

    # 2. Typing inside the `.numpy()` range drops that mark only.
    page.evaluate(
        "() => { const e = window.jupyterapp.shell.currentWidget.content.widgets[0].editor;"
        " e.setCursorPosition({line: 6, column: 19}); e.focus(); }"
    )
    page.keyboard.type("_x")
    edited = "    p = y_pred.nump_xy()"
    assert _cell_source(page, 0).splitlines()[6] == edited
    page.wait_for_function(
        "t => { const l = Array.from(document.querySelectorAll('.jp-Cell')[0]"
        ".querySelectorAll('.cm-line')).find(l => l.textContent === t);"
        " return !!l && !l.querySelector('[class*=cm-lintRange]'); }",
        arg=edited,
        timeout=10_000,
    )
    assert _lint_text(page, 0, tape_line) == tape_mark
    assert _lint_text(page, 0, "    if tf.reduce_mean(y_pred) > 0.0:", "warning") == "tf.reduce_mean(y_pred) > 0.0"
    shot(page, "11_mark_dropped_on_edit")

    # 3. Re-running the other cell clean: its report is replaced and its mark is gone.
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status"
        " === 'idle'",
        timeout=60_000,
    )
    page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
        " nb.activeCellIndex = 1; return window.jupyterapp.commands.execute('notebook:run-cell'); }"
    )
    headline = cells.nth(1).locator(".jp-tapemagic-headline")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-Cell')[1]"
        ".querySelector('.jp-tapemagic-headline')?.textContent === 'All 4 weights get a gradient'",
        timeout=60_000,
    )
    assert headline.inner_text() == "All 4 weights get a gradient"
    marks = ".cm-lintRange-error, .cm-lintRange-warning, .cm-lintRange-info"
    page.wait_for_function(
        f"() => document.querySelectorAll('.jp-Cell')[1].querySelectorAll({marks!r}).length === 0",
        timeout=10_000,
    )
    assert _lint_text(page, 0, tape_line) == tape_mark
    assert not page.errors, page.errors


def test_notebook7_renderer_and_panel(notebook_server, notebook_root, browser, shot):
    """Notebook 7 (`jupyter notebook`): renderer, marks, and the panel in its right sidebar."""
    if not SEED000.exists():
        pytest.skip(f"{SEED000} missing")
    broken = _demo_report(SEED000, "seed000-broken")
    (notebook_root / SEED000.name).write_text(SEED000.read_text())
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    ours: list[str] = []
    # Notebook 7.6 itself throws one TypeError while loading; only errors from our bundle count.
    page.on("pageerror", lambda e: ours.append(str(e)) if "tapemagic" in f"{e}{e.stack}" else None)
    try:
        page.goto(f"{notebook_server}/notebooks/{SEED000.name}")
        page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.content", timeout=60_000)
        assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        cells = page.locator(".jp-Notebook .jp-Cell")
        report = cells.nth(2).locator(".jp-OutputArea-output .jp-tapemagic-report")
        report.locator("svg.jp-tapemagic-svg").wait_for(timeout=60_000)
        assert report.locator(".jp-tapemagic-headline").inner_text() == broken["headline"]
        assert report.locator(".jp-tapemagic-card").count() == len(broken["findings"])
        cells.nth(2).locator(".cm-lintRange-error").first.wait_for(timeout=15_000)
        assert _lint_text(page, 2, "    psi = out.numpy()[:, 0]") == "out.numpy()"

        # Notebook 7 has a right sidebar: the panel is a tab there and opens on command.
        assert "tapemagic-panel" in page.evaluate(
            "() => Array.from(window.jupyterapp.shell.widgets('right')).map(w => w.id)"
        )
        page.evaluate("() => window.jupyterapp.commands.execute('tapemagic:open-panel')")
        panel = page.locator("#tapemagic-panel")
        panel.locator(".jp-tapemagic-report-row").first.wait_for(timeout=15_000)
        assert panel.is_visible()
        assert panel.locator(".jp-tapemagic-report-row").count() == 2
        panel.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
        box = panel.bounding_box()
        assert box and box["x"] + box["width"] <= 1500

        # Go to line from the output-area card works here too.
        card = report.locator(".jp-tapemagic-card[data-rule='TM101']")
        card.locator(".jp-tapemagic-reveal-button").click()
        page.wait_for_function(
            "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex === 2"
        )
        assert _cursor(page) == {"cell": 2, "line": 15, "column": 5}
        shot(page, "12_notebook7")
        assert not ours, ours
    finally:
        context.close()


SEED004 = DEMO / "seed004_fit_argsort_sets.ipynb"

# Smallest rendered text of the output-area graph, in CSS px: the SVG's scale times the
# smallest font-size of its text (user units).
GRAPH_TEXT_PX = """svg => {
    const sizes = Array.from(svg.querySelectorAll('text')).map(t => parseFloat(t.getAttribute('font-size')));
    return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width * Math.min(...sizes);
}"""


def _graph_box(report):
    """Text size and scrolling of an output-area report's graph."""
    svg = report.locator("svg.jp-tapemagic-svg")
    svg.wait_for(timeout=30_000)
    canvas = report.locator(".jp-tapemagic-graph-canvas")
    page = report.page
    page.wait_for_function(
        "el => el.querySelector('svg.jp-mod-legible')", arg=canvas.element_handle(), timeout=10_000
    )
    box = canvas.evaluate(
        "c => ({scroll: c.scrollWidth, client: c.clientWidth,"
        " right: c.getBoundingClientRect().right,"
        " out: c.closest('.jp-OutputArea-output').getBoundingClientRect().right})"
    )
    box["text_px"] = svg.evaluate(GRAPH_TEXT_PX)
    return box


def test_output_area_readable(lab_server, lab_root, page, shot):
    """seed004 (--eager, every cut): legible graph (scrolls sideways), shared weights/path once,
    code in fix labels."""
    if not (SEED004.exists() and SEED000.exists()):
        pytest.skip("demo notebooks missing")
    broken = _demo_report(SEED004, "seed004-eager")
    (lab_root / SEED004.name).write_text(SEED004.read_text())
    _open(page, lab_server, SEED004.name)
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    report = cells.nth(4).locator(".jp-OutputArea-output .jp-tapemagic-report")
    report.wait_for(timeout=30_000)
    # the graph is laid out when its box is on screen (the broken cell's report above is tall)
    report.locator(".jp-tapemagic-graph-canvas").scroll_into_view_if_needed()

    # 1. The graph keeps its text legible and stays inside the output area (it scrolls inside
    #    its box); a hint says which way the rest lies only when some of it is out of sight.
    box = _graph_box(report)
    assert box["text_px"] >= 9.9, box
    assert box["right"] <= box["out"] + 1, box
    hint = report.locator(".jp-tapemagic-scroll-hint")
    assert hint.count() == (1 if box["scroll"] > box["client"] + 1 else 0), box

    # 2. The four findings share their weights and path: shown once, referred to in each card.
    summary = report.locator(".jp-tapemagic-shared")
    assert summary.count() == 1
    assert summary.locator(".jp-tapemagic-var").count() == 4
    assert report.locator(".jp-tapemagic-var").count() == 4
    assert report.locator(".jp-tapemagic-chain:not(.jp-tapemagic-shared-ref)").count() == 1
    cards = report.locator(".jp-tapemagic-card")
    assert cards.count() == len(broken["findings"]) == 4
    own_cuts = ["tf.keras.backend.eval", "tf.argsort (TopKV2)",
                "tf.sets.intersection (DenseToDenseSetOperation)", "tf.sets.size (SetSize)"]
    for f, cut in zip(broken["findings"], own_cuts):
        card = report.locator(f".jp-tapemagic-card[data-finding='{f['id']}']")
        text = card.inner_text()
        # Still self-explanatory: own place, source line, message, fix, Explain.
        assert f"line {f['location']['line']}" in text
        assert f["location"]["source_line"].strip() in card.locator(".jp-tapemagic-source").inner_text()
        assert card.locator(".jp-tapemagic-message").inner_text() == f["message"].replace("`", "")
        assert card.locator(".jp-tapemagic-fix").count() == 1
        assert card.locator(".jp-tapemagic-explain-button").count() == 1
        assert "same 4 weights" in text
        assert card.locator(".jp-tapemagic-shared-ref .jp-tapemagic-step.jp-mod-cut").inner_text() == f"✂ {cut}"

    # 3. Backticks in notes and fix titles are inline code, never literal.
    notes = report.locator(".jp-tapemagic-note")
    assert "`" not in notes.all_inner_texts().__str__()
    assert report.locator(".jp-tapemagic-note code", has_text=".numpy()").count() == 1
    assert all("`" not in t for t in report.locator(".jp-tapemagic-fix-title").all_inner_texts())
    report.scroll_into_view_if_needed()
    shot(page, "13_seed004_output")

    # seed000: a smaller graph, fitted to the box with legible text, no shared path.
    (lab_root / SEED000.name).write_text(SEED000.read_text())
    _open(page, lab_server, SEED000.name)
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    report = cells.nth(2).locator(".jp-OutputArea-output .jp-tapemagic-report")
    report.wait_for(timeout=30_000)
    box = _graph_box(report)
    assert box["text_px"] >= 9.9, box
    assert box["right"] <= box["out"] + 1, box
    assert report.locator(".jp-tapemagic-scroll-hint").count() == 0
    assert report.locator(".jp-tapemagic-shared .jp-tapemagic-var").count() == 4
    assert report.locator(".jp-tapemagic-var").count() == 4
    fix = report.locator(".jp-tapemagic-card[data-rule='TM101'] .jp-tapemagic-fix-title")
    assert fix.locator("code", has_text="watch_accessed_variables=False").count() == 1
    report.scroll_into_view_if_needed()
    shot(page, "14_seed000_output")

    # The lint tooltip: the fix's title with code spans (no backticks), then its two actions.
    tape_line = "with tf.GradientTape(watch_accessed_variables=False) as tape:"
    cells.nth(2).locator(".cm-lintRange-error").first.wait_for(timeout=15_000)
    line = cells.nth(2).locator(".cm-line", has_text=tape_line)
    line.scroll_into_view_if_needed()
    line.locator(".cm-lintRange-error").first.hover()
    tip = page.locator(".cm-tooltip-lint:has-text('TM101')")
    tip.wait_for(timeout=10_000)
    title = tip.locator(".jp-tapemagic-lint-fix")
    assert "`" not in title.inner_text()
    assert title.inner_text().startswith("Fix: Remove watch_accessed_variables=False")
    assert title.locator("code", has_text="watch_accessed_variables=False").count() == 1
    actions = tip.locator(".cm-diagnosticAction").all_inner_texts()
    assert [a.strip() for a in actions] == ["Apply (unsafe)", "Apply and re-run"]
    shot(page, "15_fix_action_code")
    assert not page.errors, page.errors
