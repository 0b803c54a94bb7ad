"""The picture reads right in JupyterLab and Notebook 7 (issue 31 §2): the quantised-layer report.

Two instances of a custom layer are cut inside their own `call` (cell In[2], line 14); the
model is trained in In[3], whose line 14 is the `fit` line. The notebook carries the report as
a saved output (tests/samples_quantised.py), so no TensorFlow runs here.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from tests.samples_quantised import CUT, FIXED, MODEL_CELL, ROUND_LINE, quantised_report

pytestmark = pytest.mark.ui

MIME = "application/vnd.tapemagic.report.v1+json"
LAYER_CELL = "\n".join(["class QuantizedDense(keras.layers.Layer):"]
                       + [f"    # {k}" for k in range(2, 14)] + [ROUND_LINE,
                          "        return tf.matmul(x, w_q) + self.bias"])

# Is every cut edge and every cut weight inside the graph's visible box? Do the node labels
# fit their shapes? Which way does the hint point, and which way is there more to see?
VIEW_JS = """([canvas, weights]) => {
    const c = document.querySelector(canvas), v = c.getBoundingClientRect();
    const inside = el => { const r = el.getBoundingClientRect();
        return r.width > 0 && r.left >= v.left - 1 && r.right <= v.left + c.clientWidth + 1
            && r.top >= v.top - 1 && r.bottom <= v.top + c.clientHeight + 1; };
    const cuts = [...c.querySelectorAll('[data-tm^=e]')]
        .filter(e => e.querySelector('[stroke="#dc2626"]'));
    const nodes = [...c.querySelectorAll('[data-tm^=n]')];
    const titled = label => nodes.find(n => (n.querySelector('title')?.textContent || '')
        .startsWith(label));
    const overflow = nodes.flatMap(n => {
        const shape = n.querySelector('polygon, ellipse, path');
        return [...n.querySelectorAll('text')].filter(
            t => t.getComputedTextLength() > shape.getBBox().width).map(t => t.textContent); });
    const hint = c.querySelector('.jp-tapemagic-scroll-hint');
    return {cuts: cuts.map(inside), weights: weights.map(w => !!titled(w) && inside(titled(w))),
            overflow, hint: hint ? hint.dataset.more : '',
            left: c.scrollLeft > 8, right: c.scrollLeft + c.clientWidth < c.scrollWidth - 1,
            titles: nodes.map(n => n.querySelector('title')?.textContent || '')};
}"""


def _notebook(root: Path, name: str) -> str:
    payload = quantised_report().to_json()
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    layer = nbformat.v4.new_code_cell(LAYER_CELL, id="layer-cell")
    layer.execution_count = 2
    model = nbformat.v4.new_code_cell(MODEL_CELL.rstrip("\n"), id="model-cell")
    model.execution_count = 3
    model.outputs = [nbformat.v4.new_output(
        "display_data", data={MIME: payload, "text/plain": payload["headline"]})]
    nb.cells = [layer, model]
    nbformat.write(nb, root / name)
    return name


def _view(page, canvas: str) -> dict:
    return page.evaluate(VIEW_JS, [canvas, list(CUT)])


def _assert_opens_on_the_cuts(view: dict) -> None:
    """Both cuts and both cut kernels when they fit the view, else the first and its kernel."""
    assert len(view["cuts"]) == 2 and view["cuts"][0], view
    assert view["weights"][0], view
    if all(view["cuts"]) or not (view["left"] or view["right"]):
        assert all(view["cuts"]) and all(view["weights"]), view
    assert view["overflow"] == [], view
    # the hint points where there is more to see (none when all of it is in view)
    expected = {(True, True): "both", (True, False): "left", (False, True): "right",
                (False, False): ""}[(view["left"], view["right"])]
    assert view["hint"] == expected


def test_quantised_report_in_lab(lab_server, lab_root, page, shot):
    name = _notebook(lab_root, "quantised.ipynb")
    page.set_viewport_size({"width": 1300, "height": 900})
    page.goto(f"{lab_server}/lab/tree/{name}?reset")
    page.wait_for_function("p => window.jupyterapp?.shell.currentWidget?.context?.path === p",
                           arg=name, timeout=60_000)
    report = page.locator(".jp-OutputArea-output .jp-tapemagic-report").first
    report.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    page.wait_for_timeout(500)  # the first ResizeObserver frame sizes and scrolls the graph

    # 1. The output-area graph opens on both cuts and the kernels they cut; labels fit, and
    #    each node's full name and place (the cell, not just the line) is on hover.
    view = _view(page, ".jp-OutputArea-output .jp-tapemagic-graph-canvas")
    _assert_opens_on_the_cuts(view)
    assert any(t.startswith("quantized_dense_1 · w_q = tf.round(self.kernel * 127.0) / 127.0")
               and t.endswith("In[2], line 14") for t in view["titles"]), view["titles"]
    shot(page, "q_output")

    # 2. The card shows the edit its fix makes, before and after, next to "Apply (unsafe)".
    card = report.locator(".jp-tapemagic-card[data-finding='F1']")
    diff = card.locator(".jp-tapemagic-fix .jp-tapemagic-diff")
    assert diff.locator(".jp-mod-del").inner_text().endswith(ROUND_LINE.strip())
    assert FIXED in diff.locator(".jp-mod-add").inner_text()
    assert card.locator(".jp-tapemagic-apply").inner_text() == "Apply (unsafe)"
    # JupyterLab shows the panel's tab: no pointer to it
    assert not report.locator(".jp-tapemagic-panel-pointer").is_visible()

    # 3. Side panel: only the two cut layers are on a severed path; the first lists the
    #    finding of its own place (In[2] line 14), though the report is In[3]'s.
    page.locator("li[data-id='tapemagic-panel']").click()
    panel = page.locator("#tapemagic-panel")
    panel.locator("svg.jp-tapemagic-svg").wait_for(timeout=30_000)
    severed = panel.locator(".jp-tapemagic-layer.jp-mod-severed")
    assert sorted(severed.evaluate_all("els => els.map(e => e.dataset.group)")) == [
        "layer:net/quantized_dense", "layer:net/quantized_dense_1"]
    assert panel.locator(".jp-tapemagic-layer-cut").count() == 2
    q1 = panel.locator(".jp-tapemagic-layer[data-group='layer:net/quantized_dense']")
    assert "In[2], line 14" in q1.locator(".jp-tapemagic-layer-toggle").inner_text()
    assert q1.locator(".jp-tapemagic-layer-finding[data-finding='F1']").count() == 1
    assert "No finding" not in q1.inner_text()

    # 4. Narrow, the panel's graph stays legible (it pans) and opens on the first cut.
    page.evaluate("""() => { const p = document.querySelector('#tapemagic-panel');
        p.style.minWidth = '0'; p.style.width = '230px'; }""")
    panel.locator(".jp-tapemagic-zoom-reset").click()
    text_px = panel.locator("svg.jp-tapemagic-svg").evaluate("""svg => {
        const t = [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().height);
        return Math.min(...t.filter(h => h > 0)); }""")
    assert text_px >= 9
    chips = panel.locator(".jp-tapemagic-var")
    assert chips.first.get_attribute("title") == chips.first.inner_text()
    shot(page, "q_panel")


def test_notebook7_points_to_the_panel(notebook_server, notebook_root, browser, shot):
    name = _notebook(notebook_root, "quantised.ipynb")
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{notebook_server}/notebooks/{name}")
        report = page.locator(".jp-OutputArea-output .jp-tapemagic-report").first
        report.locator("svg.jp-tapemagic-svg").wait_for(timeout=60_000)
        pointer = report.locator(".jp-tapemagic-panel-pointer")
        assert pointer.is_visible()
        assert "View → Right Sidebar" in pointer.inner_text()
        pointer.locator("button").click()
        panel = page.locator("#tapemagic-panel")
        panel.locator(".jp-tapemagic-report-row").first.wait_for(timeout=15_000)
        assert panel.is_visible()
        page.wait_for_function("() => document.body.classList.contains('jp-tapemagic-panel-shown')")
        assert not pointer.is_visible()  # the panel is open: no pointer to it
    finally:
        context.close()
