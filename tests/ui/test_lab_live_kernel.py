"""The JupyterLab extension with a live kernel: ``%%gradcheck`` end to end, marks that go.

A real kernel runs the magic (or displays a saved report); the report reaches the renderer, the
panel and the editor's marks, and a mark goes when its range is edited or a re-run is clean.
"""

from __future__ import annotations

import json

import nbformat
import pytest

from tests.ui.lab_pages import (
    MIME,
    _cell_source,
    _lint_text,
    _open,
    _payload,
    _report_cell,
)

pytestmark = pytest.mark.ui


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
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
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
        "() => document.querySelectorAll('.jp-OutputArea-output .jp-tapemagic-report')"
        ".length === 2",
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
    dirty["cell"] = {**dirty["cell"], "source": RERUN_CELL, "execution_count": 9,
                     "cell_id": "rerun"}
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
    clean["graph"]["edges"] = [{**e, "state": "connected", "finding": None}
                               for e in clean["graph"]["edges"]]
    (lab_root / "clean_report.json").write_text(json.dumps(clean))
    rerun = _report_cell(dirty, "rerun", 9)
    rerun.source = RERUN_CELL
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [_report_cell(payload, "seed-cell", 5), rerun]
    nbformat.write(nb, lab_root / "marks.ipynb")
    _open(page, lab_server, "marks.ipynb")
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    cells.nth(1).locator(".cm-lintRange-error").first.wait_for(timeout=15_000)
    numpy_line = "    p = y_pred.numpy()"
    tape_line = "with tf.GradientTape(watch_accessed_variables=False) as tape:"
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
    assert (_lint_text(page, 0, "    if tf.reduce_mean(y_pred) > 0.0:", "warning")
            == "tf.reduce_mean(y_pred) > 0.0")
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
