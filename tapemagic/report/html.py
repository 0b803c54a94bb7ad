"""Render a report as static HTML, for front ends without the tapemagic JupyterLab extension.

TF-free. This module's single job is :func:`render_html`: no JavaScript, every report string
passed through :func:`html.escape`. The graph becomes inline SVG when a ``dot`` executable is on
PATH; the DOT is always rebuilt from ``report.graph`` by :func:`~tapemagic.report.dot.build_dot`
(never taken from ``report.dot``, which could come from an untrusted payload), and the SVG
Graphviz returns is checked element by element before it is inlined. Without ``dot``, or if the
check fails, the graph is shown as a list of its cut edges.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import TYPE_CHECKING

import graphviz

from tapemagic.report.dot import build_dot
from tapemagic.report.text import SCISSORS, fallback_headline, fix_lines, format_chain

if TYPE_CHECKING:
    from tapemagic.report.model import ErrorInfo, Finding, GradientCall, Location, Report

__all__ = ["render_html", "render_svg"]

_STYLE = """
.tapemagic-report{font-family:sans-serif;font-size:13px;line-height:1.4}
.tapemagic-report .tm-headline{font-weight:bold;margin:0 0 .5em}
.tapemagic-report table{border-collapse:collapse;margin:.25em 0 .75em}
.tapemagic-report th,.tapemagic-report td{padding:1px 8px;text-align:left;
  border-bottom:1px solid #ddd}
.tapemagic-report .tm-finding{border-left:4px solid #999;padding:2px 8px;margin:.5em 0}
.tapemagic-report .tm-error{border-color:#c62828}
.tapemagic-report .tm-warning{border-color:#ef6c00}
.tapemagic-report .tm-info{border-color:#1565c0}
.tapemagic-report .tm-severed{color:#c62828}
.tapemagic-report pre{margin:2px 0;padding:2px 6px;background:#f6f6f6}
.tapemagic-report dl{margin:2px 0}
.tapemagic-report dt{float:left;clear:left;width:5em;color:#666}
.tapemagic-report dd{margin-left:5.5em}
""".strip()

# Elements and attributes Graphviz's SVG output uses; anything else means the SVG is not what
# we expect from Graphviz (a newer Graphviz, or a label that escaped) and it is not inlined.
_SVG_TAGS = {
    "svg",
    "g",
    "title",
    "text",
    "path",
    "polygon",
    "polyline",
    "ellipse",
    "line",
    "rect",
    "circle",
    "defs",
    "desc",
    "tspan",
}
_SVG_SAFE_URL = re.compile(r"^#")


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def code_spans(text: str) -> str:
    """Escape ``text`` and turn `backticked` parts into ``<code>`` elements."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # unbalanced backticks: keep them as text
        return _e(text)
    return "".join(f"<code>{_e(p)}</code>" if i % 2 else _e(p) for i, p in enumerate(parts))


def render_svg(dot_source: str) -> str | None:
    """Lay out DOT source with Graphviz and return checked inline SVG, or None.

    Parameters
    ----------
    dot_source : str
        DOT text, as :func:`~tapemagic.report.dot.build_dot` produces it.

    Returns
    -------
    str or None
        The ``<svg>`` element (without XML prolog) when a ``dot`` executable is on PATH, the
        layout succeeds and the SVG contains only Graphviz's plain drawing elements (no
        script, no event handlers, no external links); None otherwise.

    Raises
    ------
    TypeError
        If ``dot_source`` is not a string.
    """
    if not isinstance(dot_source, str):
        raise TypeError("dot_source must be str")
    if not dot_source or shutil.which("dot") is None:
        return None
    try:
        svg = graphviz.Source(dot_source).pipe(format="svg", encoding="utf-8")
    except (graphviz.ExecutableNotFound, subprocess.CalledProcessError, OSError):
        return None
    start = svg.find("<svg")
    if start < 0:
        return None
    svg = svg[start:].strip()
    return svg if _svg_is_plain(svg) else None


def _svg_is_plain(svg: str) -> bool:
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return False
    for el in root.iter():
        if not isinstance(el.tag, str) or el.tag.rsplit("}", 1)[-1] not in _SVG_TAGS:
            return False
        for name, value in el.attrib.items():
            local = name.rsplit("}", 1)[-1].lower()
            if local.startswith("on") or (local == "style" and "url(" in value.lower()):
                return False
            if local in ("href", "src") and not _SVG_SAFE_URL.match(value):
                return False
    return True


def render_html(report: Report, *, svg: bool | None = None) -> str:
    """Return a self-contained HTML fragment (no JavaScript) describing ``report``.

    Parameters
    ----------
    report : Report
        The report to render.
    svg : bool or None
        None (default): draw the graph as SVG when ``dot`` is available; False: always show the
        list of cut edges instead (deterministic output, e.g. for golden files); True: same as
        None.

    Returns
    -------
    str
        A ``<div class="tapemagic-report">`` with a scoped ``<style>``; every string from the
        report is HTML-escaped.

    Raises
    ------
    AttributeError
        If ``report`` is not a :class:`Report`.
    """
    out = [f'<div class="tapemagic-report"><style>{_STYLE}</style>']
    out.append(f'<p class="tm-headline">{_e(report.headline or fallback_headline(report))}</p>')
    if report.mode != "eager":
        out.append(f'<p class="tm-mode">Analysis mode: <code>{_e(report.mode)}</code></p>')
    rules = {f.id: f.rule for f in report.findings}
    for call in report.gradient_calls:
        out.append(_call_html(call, rules))
    for finding in report.findings:
        out.append(_finding_html(finding, report.cell.execution_count))
    out.append(_graph_html(report, svg))
    if report.exception is not None:
        out.append(_error_html("Exception", report.exception))
    if report.notes:
        out.append('<ul class="tm-notes">')
        out.extend(f"<li>{code_spans(n)}</li>" for n in report.notes)
        out.append("</ul>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def _where(loc: Location) -> str:
    text = loc.label
    if loc.function and loc.function != "<module>":
        text += f", in {loc.function}()"
    return text


def _call_html(call: GradientCall, rules: dict[str, str]) -> str:
    where = f" at {_e(_where(call.location))}" if call.location is not None else ""
    zero = (
        " (<code>unconnected_gradients=ZERO</code>)" if call.unconnected_gradients == "zero" else ""
    )
    rows = []
    for s in call.sources:
        codes = ", ".join(dict.fromkeys(rules.get(fid, fid) for fid in s.finding_ids)) or "-"
        cls = f' class="tm-{_e(s.verdict)}"' if s.verdict != "connected" else ""
        rows.append(
            f"<tr{cls}><td><code>{_e(s.variable)}</code></td><td>{_e(s.result)}</td>"
            f"<td>{_e(s.verdict)}</td><td>{_e(codes)}</td></tr>"
        )
    error = _error_html("Error", call.error) if call.error is not None else ""
    return (
        f'<div class="tm-call"><div>Gradient call <code>{_e(call.id)}</code>: '
        f"<code>tape.{_e(call.method)}({_e(call.target)})</code>{where}{zero}</div>"
        "<table><thead><tr><th>weight</th><th>result</th><th>verdict</th><th>findings</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>{error}</div>"
    )


def _source_html(loc: Location) -> str:
    return f"<pre>{_e(loc.source_line.rstrip())}</pre>" if loc.source_line.strip() else ""


def _dl(items: Iterable[tuple[str, str]]) -> str:
    return "<dl>" + "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in items) + "</dl>"


def _finding_html(f: Finding, cell_ec: int | None) -> str:
    facts: list[tuple[str, str]] = []
    if f.location is not None:
        facts.append(("at", _e(_where(f.location)) + _source_html(f.location)))
    if f.op_type:
        facts.append(("op", f"<code>{_e(f.op_type)}</code>"))
    if f.api:
        facts.append(("api", f"<code>{_e(f.api)}</code>"))
    if f.variables:
        facts.append(("weights", ", ".join(f"<code>{_e(v)}</code>" for v in f.variables)))
    if not f.primary:
        facts.append(("order", "secondary: the next cut on this path once the first is fixed"))
    if f.chain:
        facts.append(("path", _e(format_chain(f.chain, cell_ec))))
    for line in fix_lines(f):
        key, _, value = line.strip().partition(": ")
        facts.append((key, code_spans(value)))
    facts.append(("see", f"<code>%gradcheck --explain {_e(f.rule)}</code>"))
    severity = f.severity if f.severity in ("error", "warning", "info") else "info"
    return (
        f'<div class="tm-finding tm-{severity}"><div><strong>{_e(f.rule)} {_e(f.name)}</strong>: '
        f"{code_spans(f.message)}</div>{_dl(facts)}</div>"
    )


def _graph_html(report: Report, svg: bool | None) -> str:
    graph = report.graph
    if not graph.nodes and not graph.edges:
        return ""
    dot_source = build_dot(graph, report.findings)
    drawing = render_svg(dot_source) if svg is not False else None
    if drawing is not None:
        return f'<div class="tm-graph">{drawing}</div>'
    labels = {n.id: n.label for n in graph.nodes}
    rules = {f.id: f.rule for f in report.findings}
    items = []
    for edge in graph.edges:
        if edge.state == "connected":
            continue
        mark = f"{SCISSORS} {rules.get(edge.finding or '', '')}".strip()
        if edge.state == "zero":
            mark = "zero gradient"
        items.append(
            f'<li class="tm-{_e(edge.state)}"><code>{_e(labels.get(edge.source, edge.source))}'
            f"</code> &rarr; {_e(mark)} &rarr; "
            f"<code>{_e(labels.get(edge.target, edge.target))}</code></li>"
        )
    body = f"<ul>{''.join(items)}</ul>" if items else "<p>No edge of the graph is cut.</p>"
    return (
        f'<div class="tm-graph"><div>Cut edges of the loss&rarr;weights graph:</div>{body}'
        f"<details><summary>Graphviz DOT</summary><pre>{_e(dot_source)}</pre></details></div>"
    )


def _error_html(kind: str, err: ErrorInfo) -> str:
    facts = [("type", f"<code>{_e(err.type)}</code>"), ("message", f"<pre>{_e(err.message)}</pre>")]
    if err.explanation:
        facts.append(("means", code_spans(err.explanation)))
    if err.location is not None:
        facts.append(("at", _e(_where(err.location)) + _source_html(err.location)))
    return f'<div class="tm-exception"><strong>{_e(kind)}</strong>{_dl(facts)}</div>'
