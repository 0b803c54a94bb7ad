"""The HTML report (report/html.py): one renderer, escaped, self-contained, the same bytes
with or without Graphviz, fixes as a before/after. TF-free, on hand-built reports."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

from samples import NASTY, nasty_report, seed000_report

from tapemagic.report import mimebundle, render_html
from tapemagic.report.diff import fix_diff
from tapemagic.report.model import Edit, Fix, Location
from tapemagic.report.standalone import render_standalone

REPO = Path(__file__).resolve().parents[1]
RAW_IMG = "<img src=x onerror=alert(1)>"
HTML_TAGS = {"div", "style", "p", "code", "table", "thead", "tbody", "tr", "th", "td", "pre",
             "strong", "em", "ul", "li", "details", "summary", "span", "h2"}
SVG_TAGS = {"svg", "title", "defs", "marker", "path", "g", "rect", "text"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.extend(attrs)


def _check_markup(markup: str) -> _Tags:
    parser = _Tags()
    parser.feed(markup)
    assert parser.tags <= HTML_TAGS | SVG_TAGS, parser.tags - HTML_TAGS - SVG_TAGS
    names = {a for a, _ in parser.attrs}
    assert not [a for a in names if a.startswith("on") or a in ("href", "src", "xlink:href")]
    assert "<script" not in markup and RAW_IMG not in markup
    # the only url() is the SVG's own arrow markers: nothing is fetched
    assert set(re.findall(r"url\(([^)]*)\)", markup)) <= {
        f"#tm-arrow-{k}" for k in ("connected", "severed", "zero", "design")}
    assert "@import" not in markup
    return parser


def test_every_report_string_is_escaped():
    markup = render_html(nasty_report())
    _check_markup(markup)
    assert "&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&quot;; ]" in markup
    assert "&#x27;" in markup  # single quotes escaped too


def test_mime_html_is_the_full_report():
    report = seed000_report()
    markup = mimebundle(report)["text/html"]
    assert markup == render_html(report)
    _check_markup(markup)
    assert markup.startswith('<div class="tapemagic-report">\n<style>')
    # the graph, drawn in Python: every node, and each cut a finding names, in red
    assert markup.count('<g class="tm-node ') == len(report.graph.nodes)
    assert markup.count('<g class="tm-edge tm-severed" data-rule="TM301" ') == 2
    assert 'class="tm-legend"' in markup
    for code in ("TM301", "TM101", "TM303"):
        assert '<div class="tm-card tm-' in markup and f'data-rule="{code}"' in markup
    assert markup.count('<details class="tm-explain"><summary>Explain</summary>') == 3
    assert '<pre class="tm-source"><span class="tm-lineno">6</span>    p = y_pred.numpy()' \
        in markup
    assert "path:</span> sequential/h/kernel -&gt; MatMul/BiasAdd/Relu at In[5], line 14" in markup
    # the fix as a before/after of the line it changes, not as coordinates
    assert ('<span class="tm-del"><span class="tm-lineno">6</span>-     p = y_pred.numpy()'
            '</span><span class="tm-add"><span class="tm-lineno">6</span>+     p = y_pred'
            "</span>") in markup
    assert "L6:8" not in markup
    assert "<summary>Graphviz DOT</summary>" not in markup  # DOT stays in report.dot


def test_standalone_page_holds_the_same_report():
    report = seed000_report()
    page = render_standalone([("In[5]", report)], "train.ipynb")
    body = render_html(report, title="In[5]", style=False)
    assert body in page and render_html(report).split("</style>", 1)[1] in body + "\n"
    assert page.count("<style>") == 1


def _render_in_subprocess(path: str, out: Path) -> str:
    code = ("import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
            "from samples import seed000_report, nasty_report\n"
            "from tapemagic.report import mimebundle\n"
            "from tapemagic.report.standalone import render_standalone\n"
            "r = seed000_report()\n"
            "sys.stdout.write(mimebundle(r)['text/html'] + mimebundle(nasty_report())"
            "['text/html'] + render_standalone([('a', r)], 'x'))\n")
    done = subprocess.run([sys.executable, "-c", code, str(REPO), str(REPO / "tests")],
                          env={**os.environ, "PATH": path}, capture_output=True, text=True,
                          check=True, timeout=120)
    out.write_text(done.stdout, encoding="utf-8")
    return done.stdout


def test_same_bytes_with_and_without_dot(tmp_path: Path):
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    called = tmp_path / "dot-was-called"
    dot = fake / "dot"
    dot.write_text(f"#!/bin/sh\ntouch {called}\ncat >/dev/null\n")
    dot.chmod(0o755)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    without = _render_in_subprocess(str(empty), tmp_path / "without.html")
    assert _render_in_subprocess(str(fake), tmp_path / "fake.html") == without
    assert not called.exists()
    real = shutil.which("dot")
    if real is not None:  # Graphviz installed: its `dot` changes nothing either
        assert _render_in_subprocess(str(Path(real).parent), tmp_path / "dot.html") == without


def test_fix_diff_of_several_edits_and_lines():
    report = seed000_report()
    f = report.findings[0]  # TM301 at line 6 of the report's own cell
    two = dataclasses.replace(f, fix=Fix("t", "unsafe", (
        Edit(6, 8, 6, 14, "y"), Edit(6, 14, 6, 22, ""), Edit(7, 0, 7, 0, "# added\n"))))
    d = fix_diff(two, report)
    assert d is not None and d.first == 6
    lines = report.cell.source.split("\n")
    assert d.before == (lines[5], lines[6])
    assert d.after == ("    p = y", "# added", lines[6])
    markup = render_html(dataclasses.replace(report, findings=(two,)))
    # the unchanged line 7 is context, shown once, after the changed lines
    assert ('<span class="tm-add"><span class="tm-lineno">7</span>+ # added</span>'
            f'<span class=""><span class="tm-lineno">7</span>  {lines[6]}</span>') in markup


def test_fix_diff_in_an_earlier_cell_uses_its_line():
    report = seed000_report()
    loc = Location("<ipython-input-3-x>", 2, 2, 4, 13, "    v = x.numpy()", "f", 3)
    f = dataclasses.replace(report.findings[0], location=loc,
                            fix=Fix("t", "unsafe", (Edit(2, 8, 2, 17, "x"),)))
    d = fix_diff(f, report)
    assert d is not None and d.before == ("    v = x.numpy()",) and d.after == ("    v = x",)
    # an edit beyond the finding's own line cannot be shown exactly: it is said in words
    far = dataclasses.replace(f, fix=Fix("t", "unsafe", (Edit(3, 0, 3, 1, "<y>"),)))
    assert fix_diff(far, report) is None
    markup = render_html(dataclasses.replace(report, findings=(far,)))
    assert "<li>replace line 3, columns 0-1 by <code>&lt;y&gt;</code></li>" in markup


def test_fix_diff_refuses_overlaps_and_columns_out_of_line():
    report = seed000_report()
    f = report.findings[0]
    for edits in ((Edit(6, 8, 6, 14, "a"), Edit(6, 10, 6, 16, "b")), (Edit(6, 8, 6, 99, "a"),)):
        assert fix_diff(dataclasses.replace(f, fix=Fix("t", "unsafe", edits)), report) is None


def test_nasty_fix_stays_text():
    report = nasty_report()
    f = report.findings[0]
    on_line = dataclasses.replace(f, fix=Fix(NASTY, "unsafe", (Edit(3, 0, 3, 4, NASTY),)),
                                  location=dataclasses.replace(f.location, execution_count=None))
    markup = render_html(dataclasses.replace(report, findings=(on_line,)))
    _check_markup(markup)
    assert '<pre class="tm-diff">' in markup
    assert "+ &lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;" in markup


def test_fix_verification_names_weights_as_code_and_escapes_the_rest():
    report = seed000_report()
    fix = dataclasses.replace(report.findings[0].fix,
                              verification="verified: `dense/kernel` now gets a gradient <b>")
    markup = render_html(dataclasses.replace(
        report, findings=(dataclasses.replace(report.findings[0], fix=fix),)))
    assert "verified: <code>dense/kernel</code> now gets a gradient &lt;b&gt;" in markup
    assert "`dense/kernel`" not in markup
