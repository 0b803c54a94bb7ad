"""Applying a fix's edits to a source text, and judging the re-run's report. TF-free.

A fix is *verified* when, in the report of the code re-run with its edits, every weight the
finding named gets a gradient (result ``ok`` in every gradient call that lists it) and no new
error appeared (the re-run raised no exception the original run did not raise, no gradient call
failed that did not fail before). A fix that only takes a non-trainable weight out of the
sources (TM107) is verified when those weights are no longer sources and nothing else broke.
A finding that names no weight (a ``tape.watch`` that raised and ended the run before any
gradient call) is verified when the re-run makes a gradient call and every source connects.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from tapemagic.report.model import Edit, Finding, Fix, Report

#: Rules whose fix takes the named weights out of the sources instead of connecting them.
DROPS_SOURCES = frozenset({"TM107"})


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Return ``text`` with ``edits`` applied (1-based lines, 0-based columns, end exclusive).

    Raises
    ------
    ValueError
        If an edit lies outside the text or two edits overlap.
    """
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if not 1 <= line <= len(starts):
            raise ValueError(f"edit at line {line} is outside the text ({len(starts) - 1} lines)")
        return min(starts[line - 1] + col, len(text))

    spans = sorted(((offset(e.line, e.col), offset(e.end_line, e.end_col), e.text)
                    for e in edits), key=lambda s: (s[0], s[1]))
    for (_, end, _), (start, _, _) in zip(spans, spans[1:], strict=False):
        if start < end:
            raise ValueError("two edits of one fix overlap")
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def judge(original: Report, finding: Finding, rerun: dict[str, Any] | None,
          failure: str | None = None) -> tuple[bool, str]:
    """Return (verified, what the re-run showed) for ``finding``'s fix.

    ``rerun`` is the JSON report of the fixed code (None when none was written; ``failure``
    then says why).
    """
    if rerun is None:
        return False, f"the re-run wrote no report ({failure or 'no reason given'})"
    raised = rerun.get("exception")
    before = original.exception
    if raised and (before is None or before.type != raised.get("type")):
        return False, f"the fixed code raises {raised.get('type')}: {raised.get('message', '')}"
    errors_before = {c.error.type for c in original.gradient_calls if c.error is not None}
    for call in rerun.get("gradient_calls", []):
        error = call.get("error")
        if error and error.get("type") not in errors_before:
            return False, f"a gradient call of the fixed code fails: {error.get('type')}"
    if not finding.variables:  # the run ended before any gradient call: all must connect now
        sources = [s for c in rerun.get("gradient_calls", []) for s in c.get("sources", [])]
        if not sources:
            return False, "the re-run made no gradient call"
        cut = [s["variable"] for s in sources if s.get("result") != "ok"]
        if cut:
            return False, f"still cut: {_list(cut)}{_by(rerun, cut)}"
        names = [s["variable"] for s in sources]
        return True, f"every gradient source now gets a gradient: {_list(names)}"
    results = _results(rerun, finding.variables)
    if finding.rule in DROPS_SOURCES:
        kept = [n for n, r in results.items() if r]
        if kept:
            return False, f"still passed as sources: {_list(kept)}"
        return True, "the non-trainable weights are no longer sources"
    missing = [n for n, r in results.items() if not r]
    if missing:
        return False, f"no gradient call of the re-run lists {_list(missing)}"
    cut = [n for n, r in results.items() if any(v != "ok" for v in r)]
    if cut:
        return False, f"still cut: {_list(cut)}{_by(rerun, cut)}"
    return True, f"every weight it named now gets a gradient: {_list(list(results))}"


def _results(rerun: dict[str, Any], names: Iterable[str]) -> dict[str, list[str]]:
    wanted = {n: [] for n in names}  # type: dict[str, list[str]]
    for call in rerun.get("gradient_calls", []):
        for source in call.get("sources", []):
            if source.get("variable") in wanted:
                wanted[source["variable"]].append(source.get("result", "none"))
    return wanted


def _by(rerun: dict[str, Any], names: list[str]) -> str:
    causes = [f"{f['rule']} at line {(f.get('location') or {}).get('line', '?')}"
              for f in rerun.get("findings", [])
              if f.get("severity") in ("error", "warning")
              and set(f.get("variables", [])) & set(names)]
    return f" ({', '.join(dict.fromkeys(causes))})" if causes else ""


def _list(names: list[str]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:4])
    return shown + (f" and {len(names) - 4} more" if len(names) > 4 else "")


#: How close two losses must be to count as the same (float32 sums in another order).
REL_TOL, ABS_TOL = 1e-4, 1e-6


def loss_of(rerun: dict[str, Any] | None, finding: Finding) -> float | None:
    """Return the loss of the checked step of a re-run's report (None when unknown).

    The target value of the first gradient call that lists one of the finding's weights (of
    any call when the finding names none).
    """
    for call in (rerun or {}).get("gradient_calls", []):
        names = {s.get("variable") for s in call.get("sources", [])}
        if not finding.variables or names & set(finding.variables):
            value = call.get("target_value")
            return float(value) if isinstance(value, (int, float)) else None
    return None


class LossCheck:
    """Compares the checked step's loss of the code as it is with the code fixed.

    Both come from re-runs (:data:`tapemagic.verify.SEED_ENV` fixes their seeds, so they
    start from the same weights); the original run is not one of them (its weights were
    drawn unseeded). The unfixed re-run is made once per file or cell, eager, so the loss of a
    step inside ``fit`` or a ``tf.function`` is a value; a fixed re-run in graph mode is
    repeated eager for its loss.
    """

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self._before: dict[tuple[object, ...], tuple[dict[str, Any] | None, str | None]] = {}

    def check(self, finding: Finding, fix: Fix, rerun: dict[str, Any] | None, verified: bool,
              note: str) -> tuple[bool, str]:
        """Return (verified, note) once the losses are compared for ``fix``."""
        location = finding.location
        assert location is not None
        key = (location.file, location.execution_count)
        if key not in self._before:
            self._before[key] = self.runner.run(location, (), eager=True)
        before = loss_of(self._before[key][0], finding)
        after = loss_of(rerun, finding)
        if after is None and before is not None:
            after = loss_of(self.runner.run(location, fix.edits, eager=True)[0], finding)
        if before is None or after is None:
            return verified, f"{note}; the loss of the checked step could not be compared"
        same = math.isclose(before, after, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        change = f"from {before:.6g} to {after:.6g}"
        if fix.keeps_value is False:
            return verified, (f"{note}; it changes the loss of the checked step on purpose, "
                              f"{change}" if not same else
                              f"{note}; the loss of the checked step stays {before:.6g}")
        if same:
            return verified, f"{note}; the loss of the checked step is unchanged ({before:.6g})"
        return False, (f"not verified: changes the loss {change} on the checked step, which "
                       f"this fix should keep (the gradient now connects: {note})")
