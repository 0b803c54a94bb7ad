"""The scores of ``bench/accuracy.py``: a JSON report, or the static checker's hints, against
what a corpus program expects (the scores are described in that file's docstring).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from accuracy_corpus import ROOT, Marker, Program

SERIOUS = ("error", "warning")


def _same_file(reported: str | None, script: Path) -> bool:
    if not reported:
        return False
    return os.path.realpath(reported) == os.path.realpath(script)


def _on_line(finding: dict[str, Any], script: Path, line: int) -> bool:
    loc = finding.get("location")
    if not loc or not _same_file(loc.get("file"), script):
        return False
    start = loc["line"]
    end = loc.get("end_line") or start
    return start <= line <= end


def score(program: Program, report: dict[str, Any] | None) -> dict[str, Any]:
    """Score one JSON report (``tapemagic/schemas/report.schema.json``) against a program.

    Returns a dict with ``ok`` (bool) and ``reason`` (the first thing wrong, or ""), plus, for
    a broken program, ``cause``, ``line``, ``weights`` (None when no weight is expected),
    ``primary`` and ``noise`` (a count); for a fixed or clean program, ``serious`` (the count
    of warning/error findings). A report that places anything outside the user's code (an
    autograph temp file, a library file: ``tapemagic.user_code.misplaced``) is not ok.
    """
    if report is None:
        return {"ok": False, "reason": "no report was written", "serious": None}
    result = _score(program, report)
    wrong = _misplaced(report)
    if wrong and result["ok"]:  # a place the user cannot open is wrong whatever else is right
        result.update(ok=False, reason=f"a place outside the user's code: {wrong[0]}")
    return result


def _misplaced(report: dict[str, Any]) -> list[str]:
    """Return what in ``report`` points outside the user's code (tapemagic.user_code)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tapemagic.user_code import misplaced

    return misplaced(report)


def _score(program: Program, report: dict[str, Any]) -> dict[str, Any]:
    findings = list(report.get("findings", []))
    serious = [f for f in findings if f.get("severity") in SERIOUS]
    if program.kind != "bad":
        where = ", ".join(f"{f['rule']}@L{(f.get('location') or {}).get('line')}"
                          for f in serious)
        return {"ok": not serious, "serious": len(serious),
                "reason": f"{len(serious)} warning/error findings: {where}" if serious else ""}
    path = program.path
    expects = [m for m in program.markers if m.kind == "expect"]
    cause_ok = any(f.get("cause") in program.causes for f in findings)
    matched: list[dict[str, Any]] = []
    missing_lines: list[Marker] = []
    for marker in expects:
        here = [f for f in findings if _on_line(f, path, marker.line)
                and (not marker.causes or f.get("cause") in marker.causes)]
        matched += here
        if not here:
            missing_lines.append(marker)
    line_ok = bool(expects) and not missing_lines
    named = {v for f in matched for v in f.get("variables", [])}
    absent = [w for w in program.weights if w not in named]
    weights_ok = None if not program.weights else not absent
    primary_lines = [m.line for m in program.markers if m.primary]
    # what the report leads with: its primary warning/error findings, or, in a report that has
    # none, its primary information findings (a cause that is information by design)
    primaries = ([f for f in findings if f.get("primary") and f.get("severity") in SERIOUS]
                 or ([] if serious else [f for f in findings if f.get("primary")]))
    stray = [f for f in primaries if not any(_on_line(f, path, ln) for ln in primary_lines)]
    unmet = [ln for ln in primary_lines if not any(_on_line(f, path, ln) for f in primaries)]
    primary_ok = bool(primary_lines) and not stray and not unmet
    marked = [m.line for m in program.markers]
    noise = [f for f in serious if not any(_on_line(f, path, ln) for ln in marked)]

    def _at(fs: list[dict[str, Any]]) -> str:
        return ", ".join(f"{f['rule']} {f.get('cause')}@L{(f.get('location') or {}).get('line')}"
                         for f in fs) or f"no findings ({_verdicts(report)})"

    reason = ""
    if not cause_ok:
        reason = f"no {'|'.join(sorted(program.causes))} finding; got {_at(findings)}"
    elif missing_lines:
        m = missing_lines[0]
        reason = (f"no {'|'.join(sorted(m.causes)) or 'finding'} at L{m.line}; "
                  f"got {_at(findings)}")
    elif absent:
        reason = f"weights not named: {', '.join(absent)}"
    elif not primary_ok:
        reason = (f"primary at {_at(primaries)}; expected L"
                  + ",L".join(str(n) for n in primary_lines))
    elif noise:
        reason = f"{len(noise)} noise findings: {_at(noise)}"
    return {"ok": not reason, "reason": reason, "cause": cause_ok, "line": line_ok,
            "weights": weights_ok, "primary": primary_ok, "noise": len(noise)}


def lint_score(program: Program) -> dict[str, Any]:
    """Score the static checker's hints on one program (see the module docstring).

    Returns ``lint_ok`` (bool), ``lint_hints`` (the count), ``lint_noise`` (hints off the
    marked lines) and ``lint_reason`` ("" when right).
    """
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tapemagic.lint import check_source

    hints = check_source(program.path.read_text(encoding="utf-8"), str(program.path))
    where = ", ".join(f"{h.code}@L{h.line}" for h in hints)
    if program.kind != "bad":
        return {"lint_ok": not hints, "lint_hints": len(hints), "lint_noise": len(hints),
                "lint_reason": f"{len(hints)} hints: {where}" if hints else ""}
    marked = [m.line for m in program.markers]
    noise = [h for h in hints if not any(h.line <= ln <= h.end_line for ln in marked)]
    missing = [m for m in program.markers if m.kind == "expect" and not any(
        h.line <= m.line <= h.end_line and (not m.causes or h.cause in m.causes) for h in hints)]
    reason = ""
    if program.lint_visible and missing:
        reason = f"no hint at L{missing[0].line}; got {where or 'none'}"
    elif noise:
        reason = f"{len(noise)} hints off the marked lines: {where}"
    return {"lint_ok": not reason, "lint_hints": len(hints), "lint_noise": len(noise),
            "lint_reason": reason}


def _verdicts(report: dict[str, Any]) -> str:
    """Count the verdicts of every gradient call's sources, e.g. ``verdicts zero 2, error 1``."""
    counts: dict[str, int] = {}
    for call in report.get("gradient_calls", []):
        for source in call.get("sources", []):
            key = source.get("verdict") or source.get("result") or "?"
            counts[key] = counts.get(key, 0) + 1
    raised = report.get("exception") or {}
    text = ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) or "no gradient call"
    return f"verdicts {text}" + (f"; raised {raised.get('type')}" if raised else "")


