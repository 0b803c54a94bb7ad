"""Render a report as HTML: the one report of every front end that shows ``text/html``.

TF-free. This module's single job is :func:`render_html`. Its output is the ``text/html`` of
the report's display bundle (VS Code, Colab, Kaggle, nbconvert, GitHub, a JupyterLab or
Notebook without the extension) and each section of ``run --html``
(:mod:`tapemagic.report.standalone`): the headline, the legend and the loss→weights graph
drawn in Python as inline SVG with its cuts highlighted (:mod:`tapemagic.report.svg`; no
Graphviz, so the output is the same bytes wherever it runs), one card per finding (severity,
rule code and name, place, message, source line, weights, path, the fix as a before/after of
the lines it changes, and *Explain* with the rule's catalog documentation), the verdict of
every weight, the exception and the notes.

Self-contained: one scoped ``<style>`` (:mod:`tapemagic.report.theme`), no script, no URL,
so it renders in a sandboxed iframe; ``<details>`` opens without JavaScript. Report strings
are untrusted: every one is escaped with :func:`html.escape` or written by ElementTree.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import TYPE_CHECKING

from tapemagic.report.diff import Diff, fix_diff
from tapemagic.report.svg import graph_svg
from tapemagic.report.text import APPLICABILITY_LABEL, fallback_headline, format_chain
from tapemagic.report.theme import STYLE

if TYPE_CHECKING:
    from tapemagic.report.model import ErrorInfo, Finding, GradientCall, Location, Report

__all__ = ["Place", "code_spans", "render_html"]

#: Turns a location into the label the reader knows (default: its ``where``, ``In[3], line 7``).
Place = Callable[["Location | None"], str]
_LEGEND_EDGES = (("connected", "gradient flows"), ("severed", "\u2702 severed (rule code)"),
                 ("zero", "zero at runtime"), ("design", "no gradient by design"))
_LEGEND_NODES = (("loss", "loss"), ("variable", "weight"), ("op", "op"),
                 ("host", "host / NumPy"), ("group", "Keras layer"))


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def code_spans(text: str) -> str:
    """Escape ``text`` and turn `backticked` parts into ``<code>`` elements."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # unbalanced backticks: keep them as text
        return _e(text)
    return "".join(f"<code>{_e(p)}</code>" if i % 2 else _e(p) for i, p in enumerate(parts))


def _where(loc: Location | None) -> str:
    if loc is None:
        return ""
    text = loc.label
    if loc.function and loc.function != "<module>":
        text += f", in {loc.function}()"
    return text


def render_html(report: Report, *, title: str | None = None, place: Place | None = None,
                style: bool = True) -> str:
    """Return the report as one self-contained HTML fragment (no script, no URL).

    Parameters
    ----------
    report : Report
        The report to render.
    title : str, optional
        A heading for the report (``run --html`` names each cell or script).
    place : callable, optional
        Turns a location into the label the reader knows; default: the location's own label
        and function.
    style : bool
        Include the ``<style>`` element (default). A page that holds several reports
        (:mod:`tapemagic.report.standalone`) writes it once in its head instead.

    Returns
    -------
    str
        A ``<div class="tapemagic-report">``; every string from the report is escaped.

    Raises
    ------
    AttributeError
        If ``report`` is not a :class:`Report`.
    """
    where = place or _where
    out = ['<div class="tapemagic-report">']
    if style:
        out.append(f"<style>{STYLE}</style>")
    if title is not None:
        out.append(f"<h2>{_e(title)}</h2>")
    out.append(f'<p class="tm-headline">{_e(report.headline or fallback_headline(report))}</p>')
    if report.mode != "eager":
        out.append(f'<p class="tm-mode">Analysis mode: <code>{_e(report.mode)}</code></p>')
    svg = graph_svg(report)
    if svg is not None:
        # a drawing too wide to shrink scrolls; with no script it opens at its left end, where
        # the weights and the first cuts are, so the hint points right, to the loss
        wide = "tm-fit" not in svg.get("class", "")
        hint = ('<div class="tm-scroll-hint">Wide graph: it opens on the weights and the first'
                " cuts; scroll sideways for the rest \u2192</div>" if wide else "")
        out.append(f'<div class="tm-graph">{_legend()}{hint}'
                   f'{ET.tostring(svg, encoding="unicode")}</div>')
    out.extend(_card(f, report, where) for f in report.findings)
    rules = {f.id: f.rule for f in report.findings}
    out.extend(_call(call, rules, where) for call in report.gradient_calls)
    if report.exception is not None:
        out.append(_error("Exception", report.exception, where))
    if report.notes:
        out.append('<ul class="tm-notes">'
                   + "".join(f"<li>{code_spans(n)}</li>" for n in report.notes) + "</ul>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def _legend() -> str:
    items = [f'<span><span class="tm-swatch tm-{look}"></span>{_e(text)}</span>'
             for look, text in _LEGEND_EDGES]
    items += [f'<span><span class="tm-box tm-{kind}"></span>{_e(text)}</span>'
              for kind, text in _LEGEND_NODES]
    return '<div class="tm-legend">' + "".join(items) + "</div>"


def _card(f: Finding, report: Report, where: Place) -> str:
    severity = f.severity if f.severity in ("error", "warning", "info") else "info"
    at = where(f.location)
    head = (f'<div class="tm-card-header"><span class="tm-severity tm-{severity}">'
            f'{_e(severity)}</span><span class="tm-code-badge">{_e(f.rule)}</span>'
            f'<span class="tm-rule-name">{_e(f.name)}</span>'
            + ("" if f.primary else '<span class="tm-secondary">next cut</span>')
            + (f'<span class="tm-place">{_e(at)}</span>' if at else "") + "</div>")
    out = [f'<div class="tm-card tm-{severity}" data-rule="{_e(f.rule)}">', head,
           f'<div class="tm-message">{code_spans(f.message)}</div>']
    loc = f.location
    if loc is not None and loc.source_line.strip():
        out.append(f'<pre class="tm-source"><span class="tm-lineno">{_e(loc.line)}</span>'
                   f"{_e(loc.source_line.rstrip())}</pre>")
    facts = []
    if f.variables:
        facts.append(("weights", ", ".join(f"<code>{_e(v)}</code>" for v in f.variables)))
    if f.chain:
        facts.append(("path", _e(format_chain(f.chain, report.cell.execution_count))))
    if f.api or f.op_type:
        facts.append(("op", f"<code>{_e(f.api or f.op_type)}</code>"))
    if facts:
        out.append('<div class="tm-facts">' + "".join(
            f'<div><span class="tm-key">{k}:</span> {v}</div>' for k, v in facts) + "</div>")
    out.append(_fix(f, report))
    out.append(_explain(f.rule))
    out.append("</div>")
    return "\n".join(out)


def _fix(f: Finding, report: Report) -> str:
    fix = f.fix
    if fix is None:
        return ""
    state = f" · {fix.state}" if fix.state else ""  # never a plain "verified" if it changes values
    diff = fix_diff(f, report)
    return (f'<div class="tm-fix"><strong>Fix:</strong> {code_spans(fix.title)}'
            f'<span class="tm-applicability">'
            f"{_e(APPLICABILITY_LABEL.get(fix.applicability, fix.applicability))}{_e(state)}</span>"
            + (f"<div>{code_spans(fix.verification)}</div>" if fix.verification else "")
            + (_diff(diff) if diff is not None else _edits(f))
            + "</div>")


def _diff(d: Diff) -> str:
    """Show the changed lines: each removed line (-), then each added one (+), numbered.

    Lines the edits leave as they were, at either end, are shown once as context.
    """
    before, after = list(d.before), list(d.after)
    head = 0
    while head < min(len(before), len(after)) - 1 and before[head] == after[head]:
        head += 1
    tail = 0
    while (tail < min(len(before), len(after)) - head - 1
           and before[-1 - tail] == after[-1 - tail]):
        tail += 1
    rows = []
    for k in range(head):
        rows.append(("", d.first + k, " ", before[k]))
    for k in range(head, len(before) - tail):
        rows.append(("tm-del", d.first + k, "-", before[k]))
    for k in range(head, len(after) - tail):
        rows.append(("tm-add", d.first + k, "+", after[k]))
    for k in range(len(before) - tail, len(before)):
        rows.append(("", d.first + k, " ", before[k]))
    return '<pre class="tm-diff">' + "".join(
        f'<span class="{cls}"><span class="tm-lineno">{n}</span>{mark} {_e(line)}</span>'
        for cls, n, mark, line in rows) + "</pre>"


def _edits(f: Finding) -> str:
    """Say the edits in words, when the lines they change are not in the report."""
    assert f.fix is not None
    items = []
    for e in f.fix.edits:
        span = (f"line {e.line}" if e.line == e.end_line else f"lines {e.line}-{e.end_line}")
        what = f"replace {span}, columns {e.col}-{e.end_col}"
        items.append(f"<li>{_e(what)} by <code>{_e(e.text)}</code></li>" if e.text
                     else f"<li>{_e(what.replace('replace', 'delete', 1))}</li>")
    return f'<ul class="tm-edits">{"".join(items)}</ul>' if items else ""


def _explain(code: str) -> str:
    """Return the rule's catalog documentation in a closed ``<details>`` (no script needed)."""
    from tapemagic.rules import get_rule  # lazy: the catalog loads its schema

    try:
        rule = get_rule(code)
    except KeyError:
        return (f'<details class="tm-explain"><summary>Explain</summary><p>Unknown rule '
                f"{_e(code)}: update tapemagic.</p></details>")
    parts = [f"<p><strong>{_e(rule.code)} {_e(rule.name)}</strong>: {_e(rule.title)}</p>",
             f"<p><em>What it does.</em> {code_spans(rule.what)}</p>",
             f"<p><em>Why.</em> {code_spans(rule.why)}</p>"]
    if rule.known_problems:
        parts.append(f"<p><em>Known problems.</em> {code_spans(rule.known_problems)}</p>")
    if rule.example_bad:
        parts.append(f"<p><em>Example</em></p><pre>{_e(rule.example_bad)}</pre>")
    parts.append(f"<p><em>Use instead</em></p><pre>{_e(rule.example_good)}</pre>")
    if rule.references:  # catalog links (https, from our own catalog), shown as text
        parts.append("<ul>" + "".join(f"<li>{_e(r.title)}: <code>{_e(r.url)}</code></li>"
                                      for r in rule.references) + "</ul>")
    parts.append(f"<p>In a notebook: <code>%gradcheck --explain {_e(rule.code)}</code></p>")
    return ('<details class="tm-explain"><summary>Explain</summary>' + "".join(parts)
            + "</details>")


def _call(call: GradientCall, rules: dict[str, str], where: Place) -> str:
    at = where(call.location) if call.location is not None else ""
    zero = (" (<code>unconnected_gradients=ZERO</code>)"
            if call.unconnected_gradients == "zero" else "")
    rows = []
    for s in call.sources:
        codes = ", ".join(dict.fromkeys(rules.get(i, i) for i in s.finding_ids)) or "-"
        rows.append(f'<tr class="tm-{_e(s.verdict)}"><td><code>{_e(s.variable)}</code></td>'
                    f"<td>{_e(s.result)}</td><td>{_e(s.verdict)}</td><td>{_e(codes)}</td></tr>")
    error = _error("Error", call.error, where) if call.error is not None else ""
    return (f'<div class="tm-call">Gradient call <code>{_e(call.id)}</code>: '
            f"<code>tape.{_e(call.method)}({_e(call.target)})</code>"
            + (f" at {_e(at)}" if at else "") + zero
            + "<table><thead><tr><th>weight</th><th>result</th><th>verdict</th><th>findings"
              f"</th></tr></thead><tbody>{''.join(rows)}</tbody></table>{error}</div>")


def _error(kind: str, err: ErrorInfo, where: Place) -> str:
    parts = [f"<strong>{_e(kind)}: {_e(err.type)}</strong>", f"<pre>{_e(err.message)}</pre>"]
    if err.explanation:
        parts.append(f"<div>{code_spans(err.explanation)}</div>")
    if err.location is not None:
        parts.append(f"<div>at {_e(where(err.location))}</div>")
        if err.location.source_line.strip():
            parts.append(f'<pre class="tm-source"><span class="tm-lineno">'
                         f"{_e(err.location.line)}</span>"
                         f"{_e(err.location.source_line.rstrip())}</pre>")
    return f'<div class="tm-exception">{"".join(parts)}</div>'
