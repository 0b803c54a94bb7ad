"""As-you-type hints in a real JupyterLab: drawn from the server's lint endpoint, no kernel.

The hints come from the real `tapemagic.serverext` endpoint, which `pip install` enables (the
shipped jupyter-config file). The failure test alone answers the endpoint from the browser
side (Playwright routes), since a 404 and a dropped connection are what it is about.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest

pytestmark = pytest.mark.ui

LINT = "tapemagic/lint"
LANGUAGE_INFO = {"name": "python", "codemirror_mode": {"name": "ipython", "version": 3}}
SETUP_CELL = "%load_ext tapemagic"
# Correct code: the tape sees the whole path from `w` to `loss`.
CHECK_CELL = """%%gradcheck
import tensorflow as tf
w = tf.Variable([1.0, 2.0], name="w")
x = tf.constant([3.0, 4.0])
with tf.GradientTape() as tape:
    y = w * x
    loss = tf.reduce_sum(y)
grads = tape.gradient(loss, [w])"""
LOSS_LINE = 6  # 0-based line of `    loss = tf.reduce_sum(y)`
LOSS_TEXT = CHECK_CELL.splitlines()[LOSS_LINE]
CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell"
HINTS = ".cm-lintRange-hint"
RUNTIME = ".cm-lintRange-error, .cm-lintRange-warning, .cm-lintRange-info"


@pytest.fixture
def page(browser):
    """A fresh page whose requests Playwright sees and routes: JupyterLab's service worker is
    blocked (a request it answers never reaches `page.route` or the response events)."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, service_workers="block")
    pg = context.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))  # type: ignore[attr-defined]
    yield pg
    context.close()


def _notebook(lab_root: Path, name: str) -> str:
    """A notebook whose language is Python but that names no kernelspec."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["language_info"] = LANGUAGE_INFO
    nb.cells = [
        nbformat.v4.new_code_cell(SETUP_CELL, id="setup"),
        nbformat.v4.new_code_cell(CHECK_CELL, id="check"),
    ]
    nbformat.write(nb, lab_root / name)
    return name


def _open_without_kernel(page, base: str, path: str) -> None:
    """Open `path` and shut its kernel down: everything after this runs with "No Kernel"."""
    page.goto(f"{base}/lab/tree/{path}?reset")
    page.wait_for_function(
        "p => window.jupyterapp?.shell.currentWidget?.context?.path === p", arg=path, timeout=60_000
    )
    page.wait_for_selector(f"{CELLS} .cm-line", timeout=60_000)
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.ready")
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayName"
        " === 'No Kernel'",
        timeout=30_000,
    )
    sessions = page.evaluate("() => fetch('/api/sessions').then(r => r.json())")
    assert not [s for s in sessions if s["path"].endswith(path)], sessions


def _cursor_to(page, cell: int, line: int, column: int) -> None:
    page.evaluate(
        """([i, line, column]) => {
            const e = window.jupyterapp.shell.currentWidget.content.widgets[i].editor;
            e.setCursorPosition({line, column}); e.focus(); }""",
        [cell, line, column],
    )


def _source(page, cell: int) -> str:
    return page.evaluate(
        "i => window.jupyterapp.shell.currentWidget.content.widgets[i]"
        ".model.sharedModel.getSource()",
        cell,
    )


def _is_lint_url(url: str) -> bool:
    # ServerConnection appends a cache-busting query string
    return urlparse(url).path.endswith(f"/{LINT}")


def _is_lint(response) -> bool:
    return response.request.method == "POST" and _is_lint_url(response.url)


@pytest.mark.tf
def test_hint_as_you_type_then_the_run_replaces_it(lab_server, lab_root, page, shot):
    import importlib.util

    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("tensorflow is not installed")
    path = _notebook(lab_root, "hints.ipynb")
    _open_without_kernel(page, lab_server, path)
    cells = page.locator(CELLS)
    check = cells.nth(1)
    requests: list[dict] = []

    def sent_to_lint(request) -> None:
        if request.method == "POST" and _is_lint_url(request.url):
            requests.append(json.loads(request.post_data or "{}"))

    page.on("request", sent_to_lint)

    # 1. Typing `.numpy()` inside the tape block: one request after the pause, not one per key.
    _cursor_to(page, 1, LOSS_LINE, len(LOSS_TEXT) - 1)
    typed = ".numpy()"
    requests.clear()
    with page.expect_response(
        lambda r: _is_lint(r) and "y.numpy()" in json.loads(r.request.post_data or "{}")["source"],
        timeout=30_000,
    ) as answer:
        page.keyboard.type(typed, delay=40)
    sent = json.loads(answer.value.request.post_data)
    assert sent == {"source": _source(page, 1), "path": path}
    hints = answer.value.json()["hints"]
    assert [(h["code"], h["severity"], h["line"]) for h in hints] == [
        ("TM301", "hint", LOSS_LINE + 1)
    ]
    assert 1 <= len(requests) < len(typed), requests
    mark = check.locator(HINTS)
    mark.first.wait_for(timeout=15_000)
    assert mark.count() == 1 and mark.first.inner_text() == "y.numpy()"
    assert check.locator(RUNTIME).count() == 0
    assert cells.nth(0).locator(HINTS).count() == 0
    assert mark.first.evaluate("e => getComputedStyle(e).textDecorationStyle") == "dotted"
    assert not _executed(page)

    # 2. The hover: a hint badge, the rule code and name, the "may" message, the quick fix.
    mark.first.hover()
    tooltip = page.locator(".cm-tooltip-lint")
    tooltip.wait_for(timeout=10_000)
    badge = tooltip.locator(".cm-diagnostic-hint .jp-tapemagic-hint-badge")
    assert badge.inner_text().lower() == "hint"
    text = tooltip.inner_text()
    assert "TM301" in text and "host-round-trip" in text and " may " in text
    assert hints[0]["fix"]["title"].replace("`", "") in text
    shot(page, "hint_1_tooltip")

    # 3. The quick fix gives back the correct code, whose answer is no hint; undo brings both back.
    with page.expect_response(
        lambda r: _is_lint(r) and json.loads(r.request.post_data or "{}")["source"] == CHECK_CELL,
        timeout=30_000,
    ) as clean:
        tooltip.locator(".cm-diagnosticAction").first.click()
    assert _source(page, 1) == CHECK_CELL
    assert clean.value.json() == {"hints": []}
    mark.first.wait_for(state="detached", timeout=10_000)
    page.keyboard.press("Control+z")
    assert _source(page, 1).splitlines()[LOSS_LINE] == "    loss = tf.reduce_sum(y.numpy())"
    mark.first.wait_for(timeout=15_000)

    # 4. Run under %%gradcheck: the runtime finding replaces the hint.
    page.mouse.move(0, 0)
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.changeKernel({name: 'python3'})"
    )
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status"
        " === 'idle'",
        timeout=60_000,
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    check.locator(".jp-OutputArea-output .jp-tapemagic-report").wait_for(timeout=120_000)
    error = check.locator(".cm-lintRange-error")
    error.first.wait_for(timeout=15_000)
    assert error.first.inner_text() == "y.numpy()"
    page.wait_for_function(
        "() => document.querySelectorAll('.jp-Cell')[1]"
        ".querySelectorAll('.cm-lintRange-hint').length === 0",
        timeout=10_000,
    )
    shot(page, "hint_2_replaced_by_run")

    # 5. Editing the cell again (over the runtime mark): the report is stale, the hint is back.
    _cursor_to(page, 1, LOSS_LINE, len("    loss = tf.reduce_sum(y.numpy()"))
    page.keyboard.type(" * 2.0")
    check.locator(".jp-tapemagic-renderer.jp-mod-stale").wait_for(timeout=10_000)
    mark.first.wait_for(timeout=15_000)
    assert mark.first.inner_text() == "y.numpy()"
    assert error.count() == 0
    shot(page, "hint_3_back_after_edit")
    assert page.locator(".jp-Dialog").count() == 0
    assert not page.errors, page.errors


def _executed(page) -> bool:
    """Whether any cell of the current notebook has an execution count or outputs."""
    return page.evaluate(
        """() => window.jupyterapp.shell.currentWidget.content.widgets.some(
            c => c.model.executionCount !== null || c.model.outputs.length > 0)"""
    )


def test_endpoint_failure_is_quiet(lab_server, lab_root, page):
    """A dropped connection, then a 404 (server extension off): no hint, no dialog, no error."""
    answer = {"status": 0}

    def lint(route):
        if answer["status"]:
            route.fulfill(status=answer["status"], content_type="text/html", body="<h1>404</h1>")
        else:
            route.abort("connectionreset")

    page.route(_is_lint_url, lint)
    path = _notebook(lab_root, "hints_down.ipynb")
    with page.expect_console_message(
        lambda m: m.type == "debug" and "tapemagic: no hints, the lint request failed" in m.text,
        timeout=60_000,
    ):
        _open_without_kernel(page, lab_server, path)
    answer["status"] = 404
    _cursor_to(page, 1, LOSS_LINE, len(LOSS_TEXT) - 1)
    with page.expect_console_message(
        lambda m: m.type == "debug" and "no tapemagic/lint endpoint (404)" in m.text,
        timeout=30_000,
    ):
        page.keyboard.type(".numpy()")
    assert _source(page, 1).splitlines()[LOSS_LINE] == "    loss = tf.reduce_sum(y.numpy())"
    assert page.locator(f".jp-Dialog, {HINTS}").count() == 0
    assert not page.errors, page.errors


def test_notebook7_hints(notebook_server, notebook_root, browser, shot):
    """Notebook 7 (`jupyter notebook`) loads the same plugin: a typed cut gets its hint."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, service_workers="block")
    page = context.new_page()
    ours: list[str] = []
    # Notebook 7.6 itself throws one TypeError while loading; only errors from our bundle count.
    page.on("pageerror", lambda e: ours.append(str(e)) if "tapemagic" in f"{e}{e.stack}" else None)
    try:
        path = _notebook(notebook_root, "hints7.ipynb")
        page.goto(f"{notebook_server}/notebooks/{path}")
        page.wait_for_function(
            "() => window.jupyterapp?.shell.currentWidget?.content", timeout=60_000
        )
        assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        check = page.locator(".jp-Notebook .jp-Cell").nth(1)
        check.locator(".cm-line").first.wait_for(timeout=60_000)
        _cursor_to(page, 1, LOSS_LINE, len(LOSS_TEXT) - 1)
        page.keyboard.type(".numpy()")
        mark = check.locator(HINTS)
        mark.first.wait_for(timeout=15_000)
        assert mark.count() == 1 and mark.first.inner_text() == "y.numpy()"
        assert check.locator(RUNTIME).count() == 0
        shot(page, "hint_4_notebook7")
        assert not ours, ours
    finally:
        context.close()
