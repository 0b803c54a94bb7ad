"""Write reports as one self-contained HTML page, readable offline in any browser.

TF-free. This module's single job is :func:`render_standalone`, behind ``python -m tapemagic
run --html FILE`` (a script: one report; a notebook: one per checked cell). The page carries
what the JupyterLab extension shows: the headline, the loss→weights graph with its cuts
highlighted (inline SVG drawn by :mod:`tapemagic.report.svg`, no Graphviz needed), one card
per finding (severity, rule code and name, place, message, source line, weights, path, fix and
its applicability, and an *Explain* section with the rule's catalog documentation), the
verdict of every weight, the exception and the notes. No JavaScript and no external resource:
styles are inline and a Content-Security-Policy forbids scripts, so nothing from the report
can run even if it were markup; and every report string is HTML-escaped (``html.escape``)
or written by ElementTree, so it never becomes markup in the first place.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from tapemagic.report.html import _code_spans
from tapemagic.report.model import Finding, GradientCall, Location, Report
from tapemagic.report.svg import EDGE_STYLE, NODE_FILL, graph_svg
from tapemagic.report.text import _fallback_headline, format_chain

__all__ = ["CSP", "render_standalone"]

#: The page's Content-Security-Policy: no script, no request, only its own inline styles.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
Place = Callable[[Location | None], str]
_APPLICABILITY = {"safe": "safe fix", "unsafe": "unsafe fix: review before applying",
                  "display-only": "suggestion only"}
_STYLE = """
body{font-family:system-ui,sans-serif;font-size:14px;line-height:1.45;margin:0;color:#111827;
 background:#f9fafb}
header{padding:12px 24px;background:#fff;border-bottom:1px solid #e5e7eb}
h1{font-size:18px;margin:0}
.tm-meta{color:#4b5563;margin:4px 0 0}
main{padding:12px 24px;max-width:1400px}
.tm-report{background:#fff;border:1px solid #e5e7eb;border-radius:6px;padding:12px 16px;
 margin:0 0 16px}
.tm-report h2{font-size:15px;margin:0 0 6px;font-family:ui-monospace,monospace}
.tm-headline{font-weight:600;margin:0 0 8px}
.tm-graph svg.tm-fit{max-width:100%;height:auto}
.tm-graph{overflow:auto;border:1px solid #f3f4f6;border-radius:4px;padding:4px;margin:8px 0}
.tm-legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;color:#4b5563;margin:4px 0}
.tm-legend span{display:inline-flex;align-items:center;gap:4px}
.tm-swatch{display:inline-block;width:24px;border-top-width:2px}
.tm-box{display:inline-block;width:12px;height:10px;border:1px solid #4b5563;border-radius:2px}
.tm-card{border:1px solid #e5e7eb;border-left:4px solid #9ca3af;border-radius:4px;
 padding:8px 10px;margin:8px 0}
.tm-card.tm-error{border-left-color:#dc2626}.tm-card.tm-warning{border-left-color:#d97706}
.tm-card.tm-info{border-left-color:#2563eb}
.tm-card-header{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:4px}
.tm-severity{font-size:11px;text-transform:uppercase;font-weight:700;padding:1px 6px;
 border-radius:3px;color:#fff;background:#6b7280}
.tm-severity.tm-error{background:#dc2626}.tm-severity.tm-warning{background:#d97706}
.tm-severity.tm-info{background:#2563eb}
.tm-code-badge{font-family:ui-monospace,monospace;font-weight:700}
.tm-rule-name{color:#374151}.tm-place{color:#6b7280;margin-left:auto}
.tm-secondary{font-size:11px;border:1px solid #9ca3af;border-radius:3px;padding:0 4px}
.tm-source{background:#f3f4f6;padding:4px 8px;margin:4px 0;overflow:auto}
.tm-lineno{color:#9ca3af;margin-right:10px;user-select:none}
.tm-facts{margin:4px 0;color:#374151}.tm-facts div{margin:2px 0}
.tm-fix{background:#f0fdf4;border-radius:3px;padding:4px 8px;margin:4px 0}
.tm-applicability{color:#4b5563;font-size:12px;margin-left:8px}
details.tm-explain summary{cursor:pointer;color:#1d4ed8}
details.tm-explain pre{background:#f3f4f6;padding:4px 8px;overflow:auto}
table{border-collapse:collapse;margin:4px 0 8px}
th,td{padding:2px 10px;text-align:left;border-bottom:1px solid #e5e7eb}
tr.tm-severed td,tr.tm-zero td,tr.tm-unexplained td{color:#b91c1c}
code{font-family:ui-monospace,monospace;background:#f3f4f6;padding:0 2px;border-radius:2px}
.tm-exception{border:1px solid #fecaca;background:#fef2f2;border-radius:4px;padding:6px 10px}
.tm-notes{color:#4b5563}
""".strip()


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def render_standalone(items: Sequence[tuple[str, Report] | tuple[str, Report, Place]],
                      source: str) -> str:
    """Return one HTML document (UTF-8 text) with every report of ``items``.

    Parameters
    ----------
    items : sequence of (title, report) or (title, report, place)
        One section each, in order; ``place`` turns a finding's location into the label the
        user knows (``notebook.ipynb:cell 4:7``); without it, the location's own label.
    source : str
        The script or notebook that was run, for the page title.

    Raises
    ------
    AttributeError
        If an item's report is not a :class:`~tapemagic.report.model.Report`.
    """
    from tapemagic import __version__

    sections = [_section(k, item) for k, item in enumerate(items)]
    errors = sum(f.severity == "error" for item in items for f in item[1].findings)
    findings = sum(len(item[1].findings) for item in items)
    summary = (f"{len(items)} report{'s' * (len(items) != 1)}, {findings} finding"
               f"{'s' * (findings != 1)} ({errors} error{'s' * (errors != 1)})")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tapemagic report: {_e(source)}</title><style>{_STYLE}</style></head><body>",
        f'<header><h1>tapemagic report: <code>{_e(source)}</code></h1>'
        f'<p class="tm-meta">{_e(summary)} · tapemagic {_e(__version__)}</p></header>',
        "<main>", *sections,
        "" if items else "<p>No cell computed a gradient.</p>",
        "</main></body></html>", ""])


def _section(k: int, item: tuple[str, Report] | tuple[str, Report, Place]) -> str:
    title, report = item[0], item[1]
    place: Place = item[2] if len(item) > 2 else (  # type: ignore[misc]
        lambda loc: loc.label if loc is not None else "")
    out = [f'<section class="tm-report" id="report-{k + 1}"><h2>{_e(title)}</h2>',
           f'<p class="tm-headline">{_e(report.headline or _fallback_headline(report))}</p>']
    svg = graph_svg(report)
    if svg is not None:
        out.append(f'<div class="tm-graph">{_legend()}{ET.tostring(svg, encoding="unicode")}'
                   "</div>")
    out.append('<div class="tm-cards">')
    out.extend(_card(f, place, report.cell.execution_count) for f in report.findings)
    out.append("</div>")
    rules = {f.id: f.rule for f in report.findings}
    out.extend(_call(call, rules, place) for call in report.gradient_calls)
    if report.exception is not None:
        err = report.exception
        out.append(f'<div class="tm-exception"><strong>{_e(err.type)}</strong>: '
                   f"<code>{_e(err.message)}</code>"
                   + (f"<div>{_code_spans(err.explanation)}</div>" if err.explanation else "")
                   + "</div>")
    if report.notes:
        out.append('<ul class="tm-notes">'
                   + "".join(f"<li>{_code_spans(n)}</li>" for n in report.notes) + "</ul>")
    out.append("</section>")
    return "\n".join(out)


def _legend() -> str:
    items = [(f'<span class="tm-swatch" style="border-top:2px {"dashed" if dash else "solid"} '
              f'{color}"></span>', text)
             for (color, dash, _w), text in zip(EDGE_STYLE.values(), (
                 "gradient flows", "✂ severed (rule code)", "zero at runtime",
                 "no gradient by design"), strict=True)]
    items += [(f'<span class="tm-box" style="background:{NODE_FILL[kind]}"></span>', text)
              for kind, text in (("loss", "loss"), ("variable", "weight"), ("op", "op"),
                                 ("host", "host / NumPy"), ("group", "Keras layer"))]
    return ('<div class="tm-legend">'
            + "".join(f"<span>{mark}{_e(text)}</span>" for mark, text in items) + "</div>")


def _card(f: Finding, place: Place, cell_ec: int | None) -> str:
    severity = f.severity if f.severity in ("error", "warning", "info") else "info"
    where = place(f.location)
    head = (f'<div class="tm-card-header"><span class="tm-severity tm-{severity}">'
            f'{_e(severity)}</span><span class="tm-code-badge">{_e(f.rule)}</span>'
            f'<span class="tm-rule-name">{_e(f.name)}</span>'
            + ("" if f.primary else '<span class="tm-secondary">next cut</span>')
            + (f'<span class="tm-place">{_e(where)}</span>' if where else "") + "</div>")
    out = [f'<div class="tm-card tm-{severity}" data-rule="{_e(f.rule)}">', head,
           f'<div class="tm-message">{_code_spans(f.message)}</div>']
    loc = f.location
    if loc is not None and loc.source_line.strip():
        out.append(f'<pre class="tm-source"><span class="tm-lineno">{_e(loc.line)}</span>'
                   f"{_e(loc.source_line.rstrip())}</pre>")
    facts = []
    if f.variables:
        facts.append("weights: " + ", ".join(f"<code>{_e(v)}</code>" for v in f.variables))
    if f.chain:
        facts.append(f"path: {_e(format_chain(f.chain, cell_ec))}")
    if f.api or f.op_type:
        facts.append(f"op: <code>{_e(f.api or f.op_type)}</code>")
    if facts:
        out.append('<div class="tm-facts">' + "".join(f"<div>{x}</div>" for x in facts)
                   + "</div>")
    if f.fix is not None:
        state = {True: " · verified", False: " · not verified", None: ""}[f.fix.verified]
        out.append(f'<div class="tm-fix"><strong>Fix:</strong> {_code_spans(f.fix.title)}'
                   f'<span class="tm-applicability">'
                   f"{_e(_APPLICABILITY.get(f.fix.applicability, f.fix.applicability))}"
                   f"{_e(state)}</span>"
                   + (f"<div>{_e(f.fix.verification)}</div>" if f.fix.verification else "")
                   + "</div>")
    out.append(_explain(f.rule))
    out.append("</div>")
    return "\n".join(out)


def _explain(code: str) -> str:
    """Return the rule's catalog documentation in a closed ``<details>`` (no script needed)."""
    from tapemagic.rules import get_rule  # lazy: the catalog loads its schema

    try:
        rule = get_rule(code)
    except KeyError:
        return (f'<details class="tm-explain"><summary>Explain</summary><p>Unknown rule '
                f"{_e(code)}: update tapemagic.</p></details>")
    parts = [f"<p><strong>{_e(rule.code)} {_e(rule.name)}</strong>: {_e(rule.title)}</p>",
             f"<p><em>What it does.</em> {_code_spans(rule.what)}</p>",
             f"<p><em>Why.</em> {_code_spans(rule.why)}</p>"]
    if rule.known_problems:
        parts.append(f"<p><em>Known problems.</em> {_code_spans(rule.known_problems)}</p>")
    if rule.example_bad:
        parts.append(f"<p><em>Example</em></p><pre>{_e(rule.example_bad)}</pre>")
    parts.append(f"<p><em>Use instead</em></p><pre>{_e(rule.example_good)}</pre>")
    if rule.references:  # catalog links (https, from our own catalog), shown as text
        parts.append("<ul>" + "".join(f"<li>{_e(r.title)}: <code>{_e(r.url)}</code></li>"
                                      for r in rule.references) + "</ul>")
    return ('<details class="tm-explain"><summary>Explain</summary>' + "".join(parts)
            + "</details>")


def _call(call: GradientCall, rules: dict[str, str], place: Place) -> str:
    where = place(call.location) if call.location is not None else ""
    rows = []
    for s in call.sources:
        codes = ", ".join(dict.fromkeys(rules.get(i, i) for i in s.finding_ids)) or "-"
        rows.append(f'<tr class="tm-{_e(s.verdict)}"><td><code>{_e(s.variable)}</code></td>'
                    f"<td>{_e(s.result)}</td><td>{_e(s.verdict)}</td><td>{_e(codes)}</td></tr>")
    return (f'<div class="tm-call">Gradient call <code>{_e(call.id)}</code>: '
            f"<code>tape.{_e(call.method)}({_e(call.target)})</code>"
            + (f" at {_e(where)}" if where else "")
            + "<table><thead><tr><th>weight</th><th>result</th><th>verdict</th><th>findings"
              f"</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>")
