"""``run --html FILE``: the self-contained HTML report, opened from disk in headless Chromium.

No server and no kernel: the page is written from hand-built reports (the seed-000 situation,
and one whose every string is hostile markup) and opened as a ``file://`` URL, offline. The
checks are what a user sees: the graph drawn with its cut highlighted, one card per finding,
the rule's documentation behind *Explain*, and nothing from the report executing.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tapemagic.report.standalone import render_standalone
from tests.samples import NASTY, nasty_report, seed000_report
from tests.samples_quantised import CUT, quantised_report

SEVERED_RED = "rgb(185, 28, 28)"  # --tm-red of the light palette (report/theme.py)


def _open(page, tmp_path: Path, items, name: str = "report.html"):
    path = tmp_path / name
    path.write_text(render_standalone(items, "train.py"), encoding="utf-8")
    requests: list[str] = []
    dialogs: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return requests, dialogs


def test_graph_cut_and_cards_render_offline(page, tmp_path: Path, shot) -> None:
    report = seed000_report()
    requests, _ = _open(page, tmp_path, [("train.py", report)])
    assert requests == [tmp_path.joinpath("report.html").as_uri()]  # nothing else is fetched
    svg = page.locator("svg.tm-graph-svg")
    box = svg.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 40
    assert page.locator("svg .tm-node").count() == len(report.graph.nodes)
    named = {e.finding for e in report.graph.edges if e.state == "severed"} & {
        f.id for f in report.findings}
    cuts = page.locator("svg .tm-edge.tm-severed")
    assert cuts.count() == sum(e.state == "severed" and e.finding in named
                               for e in report.graph.edges) > 0
    stroke = cuts.first.locator("path").evaluate(
        "p => [getComputedStyle(p).stroke, p.parentElement.getAttribute('stroke-dasharray')]")
    assert stroke == [SEVERED_RED, "6 3"]
    assert "\u2702 TM301" in cuts.first.locator("text").text_content()
    cards = page.locator(".tm-card")
    assert cards.count() == len(report.findings)
    first = cards.first
    assert first.locator(".tm-code-badge").inner_text() == "TM301"
    assert first.locator(".tm-severity").inner_text().lower() == "error"
    assert first.locator(".tm-fix").is_visible()
    explain = first.locator("details.tm-explain")
    assert not explain.locator("p").first.is_visible()
    explain.locator("summary").click()
    assert explain.locator("p").first.is_visible()
    assert "host-round-trip" in explain.inner_text()
    shot(page, "html_report", full_page=True)


def test_report_strings_never_execute_or_become_markup(page, tmp_path: Path) -> None:
    report = nasty_report()
    script = "<script>window.__pwned = 1</script>"
    first = dataclasses.replace(report.findings[0], message=f"{script} {NASTY}")
    report = dataclasses.replace(report, findings=(first,), headline=script)
    _, dialogs = _open(page, tmp_path, [(NASTY, report)], "nasty.html")
    assert page.evaluate("() => window.__pwned") is None
    counts = page.evaluate("""() => ({
        scripts: document.scripts.length,
        images: document.images.length,
        handlers: [...document.querySelectorAll('*')].filter(
            el => [...el.attributes].some(a => a.name.startsWith('on'))).length,
        bold: document.querySelectorAll('svg b, main b, main i').length,
    })""")
    assert counts == {"scripts": 0, "images": 0, "handlers": 0, "bold": 0}
    assert dialogs == []
    card = page.locator(".tm-card").first
    assert "<img src=x onerror=alert(1)>" in card.locator(".tm-message").inner_text()
    assert script in card.locator(".tm-message").inner_text()
    assert page.locator(".tm-headline").inner_text() == script
    assert "<img src=x onerror=alert(1)>" in page.locator("svg.tm-graph-svg").inner_html() \
        .replace("&lt;", "<").replace("&gt;", ">")
    assert page.locator("svg .tm-edge.tm-severed").count() == 1
    # the page's policy forbids scripts outright: even an injected one would not run
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__ran = true'; document.body.append(s); }""")
    assert page.evaluate("() => window.__ran === true") is False


def test_the_graph_opens_on_the_cuts_and_the_weights_they_cut(page, tmp_path: Path) -> None:
    """Two cuts deep in a long chain: both, and both cut weights, are in view on open; the loss
    ends the drawing; a long label fits its box (full name on hover)."""
    report = quantised_report()
    page.set_viewport_size({"width": 1200, "height": 900})
    _open(page, tmp_path, [("In[3]", report)])
    view = page.evaluate("""() => {
        const g = document.querySelector('.tm-graph'), v = g.getBoundingClientRect();
        const inside = el => { const r = el.getBoundingClientRect();
            return r.left >= v.left && r.right <= v.left + g.clientWidth; };
        const nodes = [...g.querySelectorAll('.tm-node')];
        const node = id => nodes.find(n => n.dataset.node === id);
        const bottom = el => el.getBoundingClientRect().bottom;
        return {
            cuts: [...g.querySelectorAll('.tm-edge.tm-severed')].map(inside),
            weights: %s.map(id => inside(node(id))),
            lossLast: nodes.every(n => bottom(n) <= bottom(node('loss:loss@14'))),
            overflow: nodes.flatMap(n => [...n.querySelectorAll('text')].filter(
                t => t.getComputedTextLength() > n.querySelector('rect').getBBox().width)
                .map(t => t.textContent)),
            titles: nodes.map(n => n.querySelector('title')?.textContent || ''),
            hint: g.querySelector('.tm-scroll-hint')?.textContent ?? null,
        }; }""" % [f"var:{v}" for v in CUT])
    assert view["cuts"] == [True, True]
    assert view["weights"] == [True, True]
    assert view["lossLast"]
    assert view["overflow"] == []
    # the place as a finding's (cell and line), and the whole label on hover
    assert any(t.startswith("quantized_dense_1 · w_q = tf.round(self.kernel * 127.0) / 127.0")
               and t.endswith("In[2], line 14") for t in view["titles"])
    assert view["hint"] is None  # all of it fits: no hint
