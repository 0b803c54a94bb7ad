"""The JupyterLab extension on a reopened notebook: saved marks, go to line, Notebook 7.

With no kernel the saved report still draws its marks and panel; "go to line" and the layer
groups move the cursor to the user's line and scroll it into view; Notebook 7 shows the same.
"""

from __future__ import annotations

import json

import pytest

from tests.ui.lab_pages import (
    SEED000,
    _demo_report,
    _lint_text,
    _open,
)

pytestmark = pytest.mark.ui


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
    hidden = panel.locator(
        ".jp-tapemagic-layer.jp-mod-expanded[data-group='layer:sequential/hidden']")
    hidden.wait_for(timeout=10_000)
    page.wait_for_function(
        "() => document.querySelector('#tapemagic-panel svg.jp-tapemagic-svg')"
        "?.textContent.includes('sequential/hidden/kernel')"
    )
    assert "sequential/amplitude/kernel" not in (
        panel.locator("svg.jp-tapemagic-svg").text_content() or "")
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
    assert "sequential/hidden/kernel" in (
        panel.locator("svg.jp-tapemagic-svg").text_content() or "")
    shot(page, "10_panel_layers")

    # 4. Clicking the severed edge in the panel goes to the finding's line, from far away.
    page.evaluate(
        "() => { const nb = window.jupyterapp.shell.currentWidget.content;"
        " nb.activeCellIndex = nb.widgets.length - 1; nb.mode = 'command';"
        " return nb.scrollToCell(nb.widgets[nb.widgets.length - 1], 'start'); }"
    )
    in_view = (
        "() => { const nb = window.jupyterapp.shell.currentWidget.content.node"
        ".getBoundingClientRect();"
        " const line = Array.from(document.querySelectorAll('.jp-Cell')[2]"
        ".querySelectorAll('.cm-line'))"
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
        page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.content",
                               timeout=60_000)
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
