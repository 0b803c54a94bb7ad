"""The fix loop in a real JupyterLab: "Apply", "Apply and re-run", the graph opening on the cut,
and edges that carry no gradient by design drawn apart from cuts.

The first tests read saved outputs (no TensorFlow); the live one runs the real magic in a kernel.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tests.ui.lab_pages import MIME, SEED000, _cell_source, _open, _payload, _report_cell

pytestmark = pytest.mark.ui

CUT_RED = "#dc2626"  # EDGE_STYLE.severed in labextension/src/model/graph.ts
DESIGN_GREY = "#9ca3af"  # EDGE_STYLE.design

CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def _focus_editor(page, index: int) -> None:
    """Put the keyboard focus in cell `index`'s editor (Ctrl-Z goes to its undo history)."""
    page.evaluate(
        "i => { const nb = window.jupyterapp.shell.currentWidget.content;"
        " nb.activeCellIndex = i; nb.mode = 'edit'; nb.widgets[i].editor.focus(); }",
        index,
    )


def _set_source(page, index: int, old: str, new: str) -> None:
    """Replace the first `old` in cell `index` by `new`, as one edit of just that text.

    Its own undo step, as a user's edit followed by a pause: the cell's undo manager (Yjs)
    merges edits less than 500 ms apart, and this test's next edit (an Apply) comes sooner, so
    one Ctrl-Z then undid both.
    """
    page.evaluate(
        "([i, a, b]) => { const m = window.jupyterapp.shell.currentWidget.content.widgets[i]"
        ".model.sharedModel; const at = m.getSource().indexOf(a);"
        " m.updateSource(at, at + a.length, b); m.undoManager?.stopCapturing(); }",
        [index, old, new],
    )


def test_apply_undo_and_stale_fix(lab_server, lab_root, page, shot):
    """Apply on a saved card edits the cell, Ctrl-Z restores it; a changed line disables it."""
    payload = _payload()
    # what --verify-fixes writes: a verified fix, and one whose re-run left a weight cut
    # (the text is untrusted: it must show as text)
    by_id = {f["id"].lower(): f for f in payload["findings"]}
    by_id["f1"]["fix"].update(verified=True,
                              verification="every weight it named now gets a gradient")
    by_id["f2"]["fix"].update(verified=False,
                              verification="still cut: `<b>w</b>` (TM201 at line 3)")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    bad = json.loads(json.dumps(payload))
    bad["findings"][0]["severity"] = "fatal"
    invalid = _report_cell(bad, "bad-cell", 6)
    invalid.source = "print('a report with a bad field')"
    nb.cells = [_report_cell(payload, "seed-cell", 5), invalid]
    nbformat.write(nb, lab_root / "apply.ipynb")
    _open(page, lab_server, "apply.ipynb")
    cell = page.locator(CELLS).first
    report = cell.locator(".jp-OutputArea-output .jp-tapemagic-report")
    report.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    numpy_card = report.locator(".jp-tapemagic-card[data-finding='f1']")  # TM301, unsafe, 1 edit
    tape_card = report.locator(".jp-tapemagic-card[data-finding='f2']")  # TM101, unsafe, 1 edit
    branch_card = report.locator(".jp-tapemagic-card[data-finding='f3']")  # TM303, display-only
    apply = numpy_card.locator(".jp-tapemagic-apply")
    apply.wait_for(timeout=10_000)
    assert apply.inner_text() == "Apply (unsafe)"
    assert "Unsafe fix" in (apply.get_attribute("title") or "")
    assert numpy_card.locator(".jp-tapemagic-apply-rerun").inner_text() == "Apply and re-run"
    assert branch_card.locator(".jp-tapemagic-apply, .jp-tapemagic-apply-rerun").count() == 0
    assert numpy_card.locator(".jp-tapemagic-verified.jp-mod-yes").inner_text() == "verified"
    assert tape_card.locator(".jp-tapemagic-verified.jp-mod-no").inner_text() == "not verified"
    assert tape_card.locator(".jp-tapemagic-verification").inner_text() == (
        "still cut: `<b>w</b>` (TM201 at line 3)")
    assert tape_card.locator(".jp-tapemagic-verification b").count() == 0
    assert apply.is_enabled()
    # A payload the schema refuses: one line that names the field, not a crash.
    refused = page.locator(CELLS).nth(1).locator(".jp-tapemagic-invalid")
    assert refused.inner_text() == (
        "cannot render this report (schema tapemagic.report/1: /findings/0/severity must be"
        " equal to one of the allowed values (error, warning, info))"
    )

    # 0. The editor's quick-fix tooltip offers the same two actions.
    cell.locator(".cm-lintRange-error").first.hover()
    tip = page.locator(".cm-tooltip-lint")
    tip.wait_for(timeout=10_000)
    labels = [t.strip() for t in tip.locator(".cm-diagnosticAction").all_inner_texts()]
    assert labels[:2] == ["Apply (unsafe)", "Apply and re-run"], labels
    shot(page, "fix_0_tooltip")
    page.mouse.move(0, 0)

    # 1. A change on the line a fix edits disables that fix (and says why), not the others.
    _set_source(page, 0, "as tape:", "as t:")  # on the fix's line, not on its mark
    tape_card.locator(".jp-tapemagic-apply[disabled]").wait_for(timeout=10_000)
    note = tape_card.locator(".jp-tapemagic-apply-note").inner_text()
    assert "cell changed where this fix edits it" in note
    assert apply.is_enabled()
    tape_card.scroll_into_view_if_needed()
    shot(page, "fix_1_stale")
    _set_source(page, 0, "as t:", "as tape:")
    tape_card.locator(".jp-tapemagic-apply:not([disabled])").wait_for(timeout=10_000)
    assert tape_card.locator(".jp-tapemagic-apply-note").inner_text() == ""

    # 2. Apply edits the cell through its editor, as an undo step of its own: a user's edit
    # made just before it (Yjs merges edits under 500 ms apart) is not undone with it.
    before = _cell_source(page, 0)
    edited = before + "\n# edited"
    page.evaluate(
        "([sel]) => { const cell = window.jupyterapp.shell.currentWidget.content.widgets[0];"
        " const m = cell.model.sharedModel; const end = m.getSource().length;"
        " m.updateSource(end, end, '\\n# edited'); cell.node.querySelector(sel).click(); }",
        [".jp-tapemagic-card[data-finding='f1'] .jp-tapemagic-apply"],
    )
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.widgets[0].model.sharedModel"
        ".getSource().split('\\n')[5] === '    p = y_pred'"
    )
    assert "Ctrl-Z" in numpy_card.locator(".jp-tapemagic-apply-note").inner_text()
    # the applied finding's underline goes with the text it marked; the others stay
    page.wait_for_function(
        "() => !Array.from(document.querySelectorAll('.jp-Cell')[0].querySelectorAll('.cm-line'))"
        ".some(l => l.textContent === '    p = y_pred' && l.querySelector('.cm-lintRange-error'))"
    )
    assert cell.locator(".cm-line", has_text="watch_accessed_variables=False").locator(
        ".cm-lintRange-error"
    ).count() == 1
    numpy_card.locator(".jp-tapemagic-apply[disabled]").wait_for(timeout=10_000)  # applied: stale
    cell.locator(".jp-tapemagic-renderer.jp-mod-stale").wait_for(timeout=10_000)
    shot(page, "fix_2_applied")
    _focus_editor(page, 0)
    for text in (edited, before):  # the Apply, then the edit before it
        page.keyboard.press("Control+z")
        page.wait_for_function(
            "src => window.jupyterapp.shell.currentWidget.content.widgets[0].model.sharedModel"
            ".getSource() === src",
            arg=text,
        )
    numpy_card.locator(".jp-tapemagic-apply:not([disabled])").wait_for(timeout=10_000)

    # 3. The side panel's cards have the same buttons, in the same state.
    page.evaluate("() => window.jupyterapp.commands.execute('tapemagic:open-panel')")
    panel_card = page.locator("#tapemagic-panel .jp-tapemagic-card[data-finding='f1']")
    panel_card.locator(".jp-tapemagic-apply:not([disabled])").click()
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.content.widgets[0].model.sharedModel"
        ".getSource().split('\\n')[5] === '    p = y_pred'"
    )
    panel_card.locator(".jp-tapemagic-apply[disabled]").wait_for(timeout=10_000)
    assert "Ctrl-Z" in panel_card.locator(".jp-tapemagic-apply-note").inner_text()
    shot(page, "fix_3_panel_applied")
    _focus_editor(page, 0)
    page.keyboard.press("Control+z")
    panel_card.locator(".jp-tapemagic-apply:not([disabled])").wait_for(timeout=10_000)
    assert _cell_source(page, 0) == before

    assert not page.errors, page.errors


def test_clean_report_has_no_red_edge(lab_server, lab_root, page, shot):
    """demo/seed000's fixed cell: its mask edge is drawn 'no gradient by design', not as a cut."""
    if not SEED000.exists():
        pytest.skip(f"{SEED000} missing")
    nb = json.loads(SEED000.read_text())
    fixed = next(c for c in nb["cells"] if c.get("id") == "seed000-fixed")
    data = next(o["data"][MIME] for o in fixed["outputs"] if MIME in o.get("data", {}))
    assert not data["findings"] and any(e["state"] == "severed" for e in data["graph"]["edges"])
    (lab_root / SEED000.name).write_text(SEED000.read_text())
    _open(page, lab_server, SEED000.name)
    clean = page.locator(f"{CELLS} .jp-OutputArea-output .jp-tapemagic-report.jp-mod-ok").first
    svg = clean.locator("svg.jp-tapemagic-svg")
    svg.wait_for(timeout=30_000)
    assert svg.locator(f"[stroke='{CUT_RED}']").count() == 0
    assert "✂" not in (svg.text_content() or "")
    design = svg.locator(f"g[data-tm^='e'] path[stroke='{DESIGN_GREY}'][stroke-dasharray]")
    assert design.count() == 1
    # a cell the notebook has not rendered yet has no inner text: scroll to it and wait
    legend = clean.locator(".jp-tapemagic-legend")
    legend.scroll_into_view_if_needed()
    page.wait_for_function("el => el.innerText.includes('no gradient by design')",
                           arg=legend.element_handle(), timeout=10_000)
    # the broken cell's report in the same notebook still draws its cut in red
    broken = page.locator(f"{CELLS} .jp-OutputArea-output .jp-tapemagic-report.jp-mod-error").first
    broken.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    assert broken.locator(f"svg.jp-tapemagic-svg path[stroke='{CUT_RED}']").count() >= 1
    clean.scroll_into_view_if_needed()
    shot(page, "fix_4_clean_no_red")
    assert not page.errors, page.errors


SETUP = """%load_ext tapemagic
import numpy as np
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="h"),
                          keras.layers.Dense(1, name="out")])
x = tf.random.normal((8, 3))
w = tf.Variable([1.0, 2.0], name="w")
v = tf.constant([3.0, 4.0])
def my_loss(t):
    return tf.constant(np.sum(t.numpy()))"""
FIT = """%%gradcheck
with tf.GradientTape() as tape:
    y = model(x)
    loss = tf.constant(np.mean(y.numpy() ** 2))
grads = tape.gradient(loss, model.trainable_weights)"""
STEPS = 24
WIDE = "%%gradcheck\nwith tf.GradientTape() as tape:\n    h = w * v\n" + "".join(
    f"    h = h * 1.0{i:02d} + 0.{i:02d}\n" for i in range(STEPS)
) + "    loss = tf.constant(np.sum(h.numpy()))\ngrads = tape.gradient(loss, [w])"

CROSS = """%%gradcheck
with tf.GradientTape() as tape:
    loss = my_loss(w * v)
grads = tape.gradient(loss, [w])"""

CUT_BOX = """cell => {
    const canvas = cell.querySelector('.jp-tapemagic-graph-canvas');
    const cut = Array.from(canvas.querySelectorAll("g[data-tm^='e']"))
        .find(g => g.querySelector("path[stroke='#dc2626']"));
    const r = cut.getBoundingClientRect(), c = canvas.getBoundingClientRect();
    const svg = canvas.querySelector('svg').getBoundingClientRect();
    return {cut: [r.left, r.right, r.top, r.bottom], view: [c.left, c.right, c.top, c.bottom],
            svgWidth: svg.width, viewWidth: c.width, svgHeight: svg.height, viewHeight: c.height,
            scrolled: canvas.scrollLeft + canvas.scrollTop};
}"""

# The same for the side panel, where the graph is panned (a transform), not scrolled.
PANEL_CUT_BOX = """root => {
    const canvas = root.querySelector('.jp-tapemagic-graph-canvas');
    const cut = Array.from(canvas.querySelectorAll("g[data-tm^='e']"))
        .find(g => g.querySelector("path[stroke='#dc2626']"));
    const r = cut.getBoundingClientRect(), c = canvas.getBoundingClientRect();
    const svg = canvas.querySelector('svg').getBoundingClientRect();
    return {cut: [r.left, r.right, r.top, r.bottom], view: [c.left, c.right, c.top, c.bottom],
            svgHeight: svg.height, viewHeight: c.height};
}"""


@pytest.mark.tf
def test_apply_and_rerun_live(lab_server, lab_root, page, shot):
    """Real kernel: a wide graph opens on its cut; Apply and re-run connects all 4 weights."""
    import importlib.util

    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("tensorflow is not installed")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.cells = [
        nbformat.v4.new_code_cell(SETUP, id="setup"),
        nbformat.v4.new_code_cell(FIT, id="fit"),
        nbformat.v4.new_code_cell(WIDE, id="wide"),
        nbformat.v4.new_code_cell(CROSS, id="cross"),
    ]
    nbformat.write(nb, lab_root / "fixloop.ipynb")
    _open(page, lab_server, "fixloop.ipynb")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status"
        " === 'idle'",
        timeout=60_000,
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-OutputArea-output svg.jp-tapemagic-svg')"
        ".length === 3",
        timeout=180_000,
    )
    cells = page.locator(CELLS)

    # 1. The big graph (drawn top to bottom) opens scrolled to its cut: the severed edge is
    #    inside the visible box.
    wide = cells.nth(2)
    wide.scroll_into_view_if_needed()
    page.wait_for_function(f"cell => ({CUT_BOX})(cell).scrolled > 0", arg=wide.element_handle(),
                           timeout=10_000)
    box = wide.evaluate(CUT_BOX)
    assert box["svgHeight"] > 1.5 * box["viewHeight"], box  # really larger than its box
    left, right, top, bottom = box["cut"]
    vleft, vright, vtop, vbottom = box["view"]
    assert vleft <= left and right <= vright and vtop <= top and bottom <= vbottom, box
    assert box["scrolled"] > 0, box
    wide.locator(".jp-tapemagic-graph").screenshot(path=str(_artifact("fix_5_wide_graph_on_cut")))

    # 2. Apply and re-run on the TM301 card: the cell is fixed, run, and the new report compared.
    fit = cells.nth(1)
    card = fit.locator(".jp-tapemagic-card[data-rule='TM301']")
    card.locator(".jp-tapemagic-apply-rerun").click()
    outcome = fit.locator(".jp-OutputArea-output .jp-tapemagic-outcome")
    outcome.wait_for(timeout=120_000)
    source = _cell_source(page, 1)
    assert "np.mean(y.numpy()" not in source and "tf.reduce_mean(y ** 2)" in source, source
    assert source.startswith("%%gradcheck\n")
    assert outcome.locator(".jp-tapemagic-outcome-line").inner_text() == (
        "After the fix: 4 of 4 weights now get a gradient"
    )
    items = outcome.locator("li")
    assert items.count() == 4
    assert all(t.endswith("severed → connected") for t in items.all_inner_texts())
    report = fit.locator(".jp-OutputArea-output .jp-tapemagic-report")
    assert report.locator(".jp-tapemagic-headline").inner_text() == "All 4 weights get a gradient"
    assert report.locator(".jp-tapemagic-card").count() == 0
    report.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    assert report.locator(f"svg.jp-tapemagic-svg [stroke='{CUT_RED}']").count() == 0
    assert fit.locator(".jp-tapemagic-renderer.jp-mod-stale").count() == 0
    fit.scroll_into_view_if_needed()
    shot(page, "fix_6_after_rerun")

    # 3. The side panel shows the new report with the same before/after line.
    page.evaluate("() => window.jupyterapp.commands.execute('tapemagic:open-panel')")
    panel = page.locator("#tapemagic-panel")
    row = panel.locator(".jp-tapemagic-report-row.jp-mod-selected[data-cell-id='fit']")
    row.wait_for(timeout=10_000)
    panel_line = panel.locator(".jp-tapemagic-outcome").inner_text()
    assert "4 of 4 weights now get a gradient" in panel_line
    shot(page, "fix_7_panel_outcome")
    # The panel draws the wide cell's chain top to bottom, taller than its box: it pans to the cut.
    panel.locator(".jp-tapemagic-report-row[data-cell-id='wide']").click()
    panel.locator(".jp-tapemagic-report-row.jp-mod-selected[data-cell-id='wide']").wait_for()
    panel.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    # the first fit waits for the panel's layout (a ResizeObserver): it sets a transform
    page.wait_for_function(
        "() => document.querySelector('#tapemagic-panel svg.jp-tapemagic-svg')?.style.transform"
    )
    tall = panel.locator(".jp-tapemagic-panel-detail").evaluate(PANEL_CUT_BOX)
    assert tall["svgHeight"] > 1.5 * tall["viewHeight"], tall
    left, right, top, bottom = tall["cut"]
    vleft, vright, vtop, vbottom = tall["view"]
    assert vleft <= left and right <= vright and vtop <= top and bottom <= vbottom, tall
    shot(page, "fix_7b_panel_tall_graph_on_cut")

    # 4. A finding in an earlier cell (the loss function), on a report cell that lost its magic
    # line: the fix edits the earlier cell, the re-run runs it, puts %%gradcheck back, runs the
    # report's cell, and compares.
    cross = cells.nth(3)
    _set_source(page, 3, "%%gradcheck\n", "")
    cross.locator(".jp-tapemagic-renderer.jp-mod-stale").wait_for(timeout=10_000)
    card = cross.locator(".jp-tapemagic-card[data-rule='TM301']")
    card.locator(".jp-tapemagic-apply-rerun:not([disabled])").click()
    outcome = cross.locator(".jp-OutputArea-output .jp-tapemagic-outcome")
    outcome.wait_for(timeout=120_000)
    assert "tf.constant(tf.reduce_sum(t))" in _cell_source(page, 0)
    assert _cell_source(page, 3) == CROSS
    assert outcome.locator(".jp-tapemagic-outcome-line").inner_text() == (
        "After the fix: 1 of 1 weight now gets a gradient"
    )
    assert outcome.locator("li").inner_text() == "w: severed → connected"
    cross.scroll_into_view_if_needed()
    shot(page, "fix_8_cross_cell_rerun")
    assert not page.errors, page.errors


def _artifact(name: str) -> Path:
    from conftest import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"ui_{name}.png"
