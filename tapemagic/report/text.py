"""Render a report as plain text, for terminal IPython, the CLI and golden files.

TF-free. This module's single job is :func:`render_text`. The layout follows TensorFlow's
check_numerics messages: a headline, then per finding ``TM301 host-round-trip: <message>``, an
indented block of facts (where, the source line, op, api, weights), the cut path and the fix.
Output is deterministic and plain ASCII, apart from the scissors that mark a cut and whatever
non-ASCII text the user's own code or names contain.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the renderers take the model's objects; they need its names for types only
    from tapemagic.report.model import (
        ChainStep,
        ErrorInfo,
        Finding,
        GradientCall,
        Location,
        Report,
    )

__all__ = ["APPLICABILITY_LABEL", "MAX_CHAIN", "MAX_WEIGHTS", "SCISSORS", "format_chain",
           "render_text"]

#: What each applicability means to a reader; the text and HTML renderers say it in these words,
#: because a bare "unsafe" reads as "dangerous" when it means "review before applying".
APPLICABILITY_LABEL: dict[str, str] = {"safe": "safe fix",
                                       "unsafe": "unsafe fix: review before applying",
                                       "display-only": "suggestion only"}

#: Marks a severed edge or step, in the text report, DOT and SVG labels and the HTML.
SCISSORS = "\u2702"

#: Longest chain printed in full; longer ones keep the first step, every cut and the tail.
MAX_CHAIN = 8
#: Tail kept when a chain is shortened.
_CHAIN_TAIL = 4
#: Most weight names listed on one ``weights:`` line.
MAX_WEIGHTS = 8
_INDENT = "    "


def render_text(report: Report) -> str:
    """Return the plain-text rendering of ``report``, ending with a newline.

    Sections, in order: the headline; the analysis mode when it is not plain eager; one verdict
    table per gradient call (weight, result, verdict, rule codes); one block per finding; the
    exception the cell raised, if any; the notes.

    Parameters
    ----------
    report : Report
        The report to render.

    Returns
    -------
    str
        Deterministic text (same report, same text).

    Raises
    ------
    AttributeError
        If ``report`` is not a :class:`Report` (a finding with an unknown rule code is fine: it
        is rendered without the catalog's fallback fix).
    """
    out = [report.headline or fallback_headline(report)]
    if report.mode == "forced-eager":
        out.append("mode: forced-eager (tf.function and model.fit ran eagerly for the analysis)")
    elif report.mode == "graph":
        out.append("mode: graph (tf.function and model.fit ran as written, analysed from their "
                   "traces)")
    rules = {f.id: f.rule for f in report.findings}
    for call in report.gradient_calls:
        out.append("")
        out.extend(_call_block(call, rules, report.exception))
    before: Finding | None = None
    for finding in report.findings:
        out.append("")
        out.extend(_finding_block(finding, before))
        before = finding
    if report.exception is not None:
        out.append("")
        out.extend(_error_block("exception", report.exception))
    if report.notes:
        out.append("")
        for note in report.notes:
            out.extend(_continued(f"note: {note}", _INDENT))
    return "\n".join(_clean(line) for line in out) + "\n"


def _clean(line: str) -> str:
    r"""Escape control and format characters (``\n``, ``\x1b``, bidi overrides) in one line.

    Every element the renderer emits is meant to be one line; a newline or a terminal escape
    sequence inside one comes from report data and is shown, not obeyed.
    """
    if line.isprintable():
        return line
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in ("Cc", "Cf") else c
        for c in line
    )


def _continued(text: str, indent: str) -> list[str]:
    """Split multi-line ``text`` (an exception message) into lines, indenting the rest."""
    first, *rest = text.rstrip().split("\n") or [""]
    return [first, *(indent + line for line in rest)]


def fallback_headline(report: Report) -> str:
    n = len(report.findings)
    if not n:
        return "tapemagic: no findings"
    errors = sum(f.severity == "error" for f in report.findings)
    return f"tapemagic: {n} finding{'s' * (n != 1)} ({errors} error{'s' * (errors != 1)})"


def _call_block(call: GradientCall, rules: dict[str, str],
                exception: ErrorInfo | None) -> list[str]:
    head = f"gradient call {call.id}: tape.{call.method}({call.target})"
    if call.location is not None:
        head += f" at {call.location.label}"
    extras = [f"tape {call.tape}"]
    if call.unconnected_gradients == "zero":
        extras.append("unconnected_gradients=ZERO")
    if call.keras_fit:
        extras.append("model.fit train step")
    if call.calls > 1:  # in a traced function each count is a trace, not a step
        extras.append(f"traced {call.calls} times, first trace analysed" if call.traced
                      else f"ran {call.calls} times, first run analysed")
    lines = [f"{head} ({', '.join(extras)})"]
    rows = [("weight", "result", "verdict", "findings")]
    for s in call.sources:
        codes = ", ".join(dict.fromkeys(rules.get(fid, fid) for fid in s.finding_ids))
        rows.append((_clean(s.variable), s.result, s.verdict, codes or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        cells = [r[i].ljust(widths[i]) for i in range(3)] + [r[3]]
        lines.append(("  " + "  ".join(cells)).rstrip())
    if call.error is not None and exception is not None and (
            (call.error.type, call.error.message) == (exception.type, exception.message)):
        # the error the script raised: printed once, with its meaning, at the report's end
        lines.append(f"{_INDENT}error: {call.error.type} (the exception below)")
    elif call.error is not None:
        lines.extend(_INDENT + line for line in _error_block("error", call.error))
    return lines


def _finding_block(f: Finding, before: Finding | None = None) -> list[str]:
    """Return one finding's lines.

    Weights and a path the finding before showed are not repeated (a cut's secondary findings
    share them), as the HTML report's cards do.
    """
    lines = [f"{f.rule} {f.name}: {f.message}"]
    facts: list[str] = []
    if f.location is not None:
        facts.extend(_location_lines(f.location))
    if f.op_type:
        facts.append(f"op: {f.op_type}")
    if f.api:
        facts.append(f"api: {f.api}")
    if f.variables:
        same = before is not None and tuple(before.variables) == tuple(f.variables)
        facts.append("weights: the same as above" if same else f"weights: {_names(f.variables)}")
    if not f.primary:
        facts.append("order: secondary (the next cut on this path once the first one is fixed)")
    if f.chain:
        same = before is not None and tuple(before.chain) == tuple(f.chain)
        facts.append("path: the same as above" if same else f"path: {format_chain(f.chain)}")
    facts.extend(fix_lines(f))
    facts.append(f"see: %gradcheck --explain {f.rule}")
    lines.extend(_INDENT + fact for fact in facts)
    return lines


def _location_lines(loc: Location) -> list[str]:
    at = f"at: {loc.label}"
    if loc.function and loc.function != "<module>":
        at += f", in {loc.function}()"
    lines = [at]
    if loc.source_line.strip():
        source = loc.source_line.rstrip("\r\n").expandtabs(4)
        lines.append(f"  | {source}")
        single_line = loc.end_line is None or loc.end_line == loc.line
        if loc.col is not None and loc.end_col is not None and single_line:
            raw = loc.source_line
            start = len(raw[: loc.col].expandtabs(4))
            end = max(len(raw[: loc.end_col].expandtabs(4)), start + 1)
            lines.append("  | " + " " * start + "^" * (end - start))
    return lines


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:MAX_WEIGHTS])
    if len(names) > MAX_WEIGHTS:
        shown += f", ... ({len(names) - MAX_WEIGHTS} more)"
    return shown


def _step(step: ChainStep) -> str:
    text = f"{SCISSORS} {step.label}" if step.cut else step.label
    return f"{text} at {step.where}" if step.where else text


def format_chain(chain: Sequence[ChainStep], cell_ec: int | None = None) -> str:
    """Return ``weight -> ... -> ✂ cut -> ... -> loss`` for a finding's chain.

    A chain longer than :data:`MAX_CHAIN` keeps its first step, every cut and its last steps;
    each run of dropped steps becomes ``... (N omitted)``. Each step with a place names it as
    every output does (``tf.round (Round) at In[3], line 2``, :mod:`tapemagic.report.places`),
    in the report's own cell too: one place, one name. ``cell_ec`` is accepted for older
    callers and not used.

    Raises
    ------
    AttributeError
        If an item of ``chain`` is not a :class:`ChainStep` (an empty chain gives ``""``).
    """
    n = len(chain)
    if n <= MAX_CHAIN:
        keep = set(range(n))
    else:
        keep = {0, *range(n - _CHAIN_TAIL, n)} | {i for i, s in enumerate(chain) if s.cut}
    parts: list[str] = []
    omitted = 0
    for i, step in enumerate(chain):
        if i not in keep:
            omitted += 1
            continue
        if omitted:
            parts.append(f"... ({omitted} omitted)")
            omitted = 0
        parts.append(_step(step))
    return " -> ".join(parts)


def fix_lines(f: Finding) -> list[str]:
    fix = f.fix
    if fix is None:
        try:
            from tapemagic.rules import get_rule

            rule = get_rule(f.rule)
        except KeyError:
            return []
        label = APPLICABILITY_LABEL.get(rule.fix_applicability, rule.fix_applicability)
        return [f"fix: {rule.fix_title} ({label})"]
    state = f", {fix.state}" if fix.state else ""
    label = APPLICABILITY_LABEL.get(fix.applicability, fix.applicability)
    lines = [f"fix: {fix.title} ({label}{state})"]
    if fix.verification and not fix.edits and fix.verified is None:
        lines.append(f"  no edit: {fix.verification}")  # why no fix shape can be right
    elif fix.verification:
        lines.append(f"  re-run with this fix: {fix.verification}")
    for e in fix.edits:
        lines.append(f"  edit: L{e.line}:{e.col}-L{e.end_line}:{e.end_col} -> {json.dumps(e.text)}")
    return lines


def _error_block(kind: str, err: ErrorInfo) -> list[str]:
    lines = _continued(f"{kind}: {err.type}: {err.message}", _INDENT + "  ")
    if err.explanation:
        lines.append(f"{_INDENT}means: {err.explanation}")
    if err.location is not None:
        lines.extend(_INDENT + line for line in _location_lines(err.location))
    return lines
