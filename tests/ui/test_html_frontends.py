"""The report's ``text/html`` where the lab extension is not: alone, in a sandboxed iframe, on
dark and light pages, in nbconvert's HTML export, and in a JupyterLab with the extension off.

What each test checks is what a user sees: the graph drawn with its cut highlighted, the
finding's card with its fix, and every piece of text readable: its contrast against the
background it sits on (composited as the browser paints it) is at least 4.5 (WCAG AA).
"""

from __future__ import annotations

import html
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tapemagic.report import render_html
from tests.plain_notebook import execute_plain
from tests.samples import seed000_report

SEVERED = "svg .tm-edge.tm-severed"
# Every visible text of the report: its colour, the colour under it, and the contrast ratio.
CONTRAST_JS = """root => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]*)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => { const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const background = el => { const layers = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let base = [255, 255, 255, 1];
    for (const c of layers.reverse()) base = over(c, base);
    return base; };
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const out = [];
  for (const el of root.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest('style')) continue;
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    let fg, bg;
    if (el instanceof SVGElement) {
      fg = parse(getComputedStyle(el).fill);
      const rect = el.closest('.tm-node')?.querySelector('rect');
      bg = rect ? over(parse(getComputedStyle(rect).fill), background(el.ownerSVGElement))
                : background(el.ownerSVGElement);
    } else { fg = parse(getComputedStyle(el).color); bg = background(el); }
    fg = over(fg, bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out.push({text: el.textContent.trim().slice(0, 40), ratio: (a + 0.05) / (b + 0.05)});
  }
  return out; }"""

# Host pages as the front ends make them: their theme switch and colour variables.
HOSTS = {
    "plain-light": ("light", "", ""),
    "plain-dark": ("dark", "", "background:#1e1e1e;color:#e5e7eb"),
    "jupyterlab-dark": ("light", 'data-jp-theme-light="false"',
                        "--jp-layout-color0:#111111;--jp-content-font-color1:#ffffff;"
                        "background:#111111"),
    "vscode-dark": ("light", 'class="vscode-dark"',
                    "--vscode-editor-background:#1f1f1f;--vscode-editor-foreground:#cccccc;"
                    "background:#1f1f1f"),
    "vscode-light": ("dark", 'class="vscode-light"',
                     "--vscode-editor-background:#ffffff;--vscode-editor-foreground:#3b3b3b"),
}


def _host_page(fragment: str, attrs: str, style: str) -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body {attrs} '
            f'style="margin:16px;{style}">{fragment}</body></html>')


def _assert_readable(target, scope: str = ".tapemagic-report") -> list[dict]:
    texts = target.locator(scope).first.evaluate(CONTRAST_JS)
    assert len(texts) > 20  # the headline, legend, node labels, cards, table...
    low = [t for t in texts if t["ratio"] < 4.5]
    assert not low, low
    return texts


def _assert_report_drawn(target) -> None:
    svg = target.locator("svg.tm-graph-svg").first
    box = svg.bounding_box()
    # drawn at its own size, or shrunk no further than a page's width allows (a small graph,
    # top to bottom, is narrow)
    natural = float(svg.get_attribute("width") or 0)
    assert box is not None and box["width"] >= min(200, 0.95 * natural) and box["height"] > 40
    assert target.locator(SEVERED).count() > 0
    assert "\u2702 TM301" in target.locator(SEVERED).first.text_content()
    assert target.locator(".tm-card").first.is_visible()


def test_bundle_html_alone(page, shot) -> None:
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.set_content(render_html(seed000_report()))
    _assert_report_drawn(page)
    assert requests == []  # nothing is fetched
    card = page.locator(".tm-card").first
    assert card.locator(".tm-diff .tm-del").inner_text().endswith("p = y_pred.numpy()")
    assert card.locator(".tm-diff .tm-add").inner_text().endswith("p = y_pred")
    explain = card.locator("details.tm-explain")
    explain.locator("summary").click()
    assert explain.locator("p").first.is_visible()
    _assert_readable(page)
    shot(page, "html_alone", full_page=True)


def test_in_a_sandboxed_iframe(page, shot) -> None:
    srcdoc = html.escape(render_html(seed000_report()), quote=True)
    page.set_content(f'<iframe sandbox style="width:1400px;height:950px;border:0" '
                     f'srcdoc="{srcdoc}"></iframe>')
    frame = page.frame_locator("iframe")
    frame.locator(".tapemagic-report").wait_for()
    _assert_report_drawn(frame)
    frame.locator("details.tm-explain summary").first.click()  # no script needed
    assert frame.locator("details.tm-explain[open]").count() == 1
    shot(page, "html_sandboxed_iframe")


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_readable_on_dark_and_light_pages(browser, host: str, shot) -> None:
    scheme, attrs, style = HOSTS[host]
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.set_content(_host_page(render_html(seed000_report()), attrs, style))
        _assert_report_drawn(page)
        _assert_readable(page)
        report = page.locator(".tapemagic-report").first
        colours = report.evaluate("e => [getComputedStyle(e).color, "
                                  "getComputedStyle(e).backgroundColor]")
        if host == "jupyterlab-dark":  # the host's own colours, not the palette's
            assert colours == ["rgb(255, 255, 255)", "rgb(17, 17, 17)"]
        if host == "vscode-dark":
            assert colours == ["rgb(204, 204, 204)", "rgb(31, 31, 31)"]
        if host in ("plain-dark", "vscode-light"):  # the OS says one thing, the host wins
            assert colours[1] == ("rgb(30, 30, 30)" if host == "plain-dark"
                                  else "rgb(255, 255, 255)")
        shot(page, f"html_{host}", full_page=True)
    finally:
        context.close()


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("tensorflow")
    pytest.importorskip("nbclient")
    return execute_plain(tmp_path_factory.mktemp("plain-run"))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_nbconvert_html_export(executed: Path, page, theme: str, shot) -> None:
    out = executed.parent / f"export-{theme}"
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html",
                    f"--theme={theme}", "--output-dir", str(out), str(executed)],
                   check=True, capture_output=True, timeout=300)
    page.goto((out / "plain.html").as_uri())
    reports = page.locator(".jp-OutputArea-output .tapemagic-report")
    assert reports.count() == 2  # the %%gradcheck cell and the auto-mode cell
    _assert_report_drawn(reports.nth(0))
    for k in range(2):
        _assert_readable(reports.nth(k), "xpath=.")
    reports.nth(0).scroll_into_view_if_needed()
    shot(page, f"nbconvert_{theme}")


def test_jupyterlab_without_the_extension(plain_lab, executed: Path, page, shot) -> None:
    url, root, data_dir = plain_lab
    nb = nbformat.read(executed, as_version=4)
    # trusted, as the user's own executed notebook is: Lab renders its HTML unsanitised
    env = {**os.environ, "JUPYTER_DATA_DIR": str(data_dir)}
    target = root / "plain.ipynb"
    nbformat.write(nb, target)
    subprocess.run([sys.executable, "-m", "jupyter", "trust", str(target)], env=env,
                   check=True, capture_output=True, timeout=120)
    page.goto(f"{url}/lab/tree/plain.ipynb?reset")
    page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.context?.path "
                           "=== 'plain.ipynb'", timeout=60_000)
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
    report = cells.nth(1).locator(".jp-OutputArea-output .tapemagic-report")
    report.wait_for(timeout=60_000)
    assert page.locator(".jp-tapemagic-report").count() == 0  # the extension is off
    plugins = page.evaluate("() => [...window.jupyterapp.listPlugins()]")
    assert not [p for p in plugins if p.startswith("tapemagic")], plugins
    _assert_report_drawn(report)
    _assert_readable(report, "xpath=.")
    report.scroll_into_view_if_needed()
    shot(page, "lab_without_extension_light")
    page.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', "
                  "{theme: 'JupyterLab Dark'})")
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'",
                           timeout=60_000)
    page.wait_for_function(  # the theme's style sheet applied: the report's ground is dark
        "() => { const c = getComputedStyle(document.querySelector('.tapemagic-report'))"
        ".backgroundColor.match(/\\d+/g).slice(0, 3).map(Number);"
        " return c[0] + c[1] + c[2] < 200; }", timeout=60_000)
    _assert_readable(report, "xpath=.")
    shot(page, "lab_without_extension_dark")
