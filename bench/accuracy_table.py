"""The printed and written results of ``bench/accuracy.py``: one line per program, the summary
table (Markdown) and ``bench/RESULTS.md``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from accuracy_corpus import CASES, HERE, ROOT


def _mark(value: bool | None) -> str:
    return "-" if value is None else ("y" if value else "n")


def result_line(result: dict[str, Any]) -> str:
    program = result["program"]
    head = f"{program.name:<44} {result['seconds']:5.1f}s "
    if program.kind == "bad" and "cause" in result:
        cols = (f"cause {_mark(result['cause'])} line {_mark(result['line'])} "
                f"weights {_mark(result['weights'])} primary {_mark(result['primary'])} "
                f"noise {result['noise']}")
    elif program.kind != "bad" and result.get("serious") is not None:
        cols = f"findings {result['serious']}"
    else:
        cols = ""
    if "verified" in result:
        cols += f" fix {_mark(result['verified'])}" + ("!" if result["false"] else "")
    verdict = "ok" if result["ok"] else f"WRONG: {result['reason']}"
    if "lint_ok" in result:
        verdict += "; lint " + ("ok" if result["lint_ok"] else f"WRONG: {result['lint_reason']}")
    return f"{head}{cols:<58} {verdict}"


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f} % ({part}/{whole})" if whole else "n/a"


def summary(results: list[dict[str, Any]]) -> list[str]:
    """The summary table (Markdown) of a run."""
    bad = [r for r in results if r["program"].kind == "bad"]
    twins = [r for r in results if r["program"].kind == "fixed"]
    clean = [r for r in results if r["program"].kind == "clean"]
    weighed = [r for r in bad if r.get("weights") is not None]
    rows = [
        ("broken cases: right cause", _pct(sum(bool(r.get("cause")) for r in bad), len(bad))),
        ("broken cases: right line", _pct(sum(bool(r.get("line")) for r in bad), len(bad))),
        ("broken cases: all weights named",
         _pct(sum(bool(r.get("weights")) for r in weighed), len(weighed))),
        ("broken cases: primary right",
         _pct(sum(bool(r.get("primary")) for r in bad), len(bad))),
        ("broken cases: no noise finding",
         _pct(sum(r.get("noise") == 0 for r in bad), len(bad))),
        ("broken cases: all of the above", _pct(sum(r["ok"] for r in bad), len(bad))),
        ("fixed twins with 0 warning/error findings",
         _pct(sum(r["ok"] for r in twins), len(twins))),
        ("clean programs with 0 warning/error findings",
         _pct(sum(r["ok"] for r in clean), len(clean))),
    ]
    if all("lint_ok" in r for r in results):
        rows += lint_rows(results)
    checked = [r for r in bad if "verified" in r]
    if checked:
        rows += [("broken cases: a verified fix",
                  _pct(sum(bool(r["verified"]) for r in checked), len(checked))),
                 ("verified fixes whose cut remains (independent check)",
                  str(sum(len(r["false"]) for r in checked)))]
    return ["| measure | result |", "| --- | --- |"] + [f"| {a} | {b} |" for a, b in rows]


def lint_rows(results: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The ``lint`` column's rows of the summary table."""
    bad = [r for r in results if r["program"].kind == "bad"]
    visible = [r for r in bad if r["program"].lint_visible]
    twins = [r for r in results if r["program"].kind == "fixed"]
    clean = [r for r in results if r["program"].kind == "clean"]
    return [
        ("lint: visible cuts hinted at the right line (no stray hint)",
         _pct(sum(r["lint_ok"] for r in visible), len(visible))),
        ("lint: broken cases with no hint off the marked lines",
         _pct(sum(r["lint_noise"] == 0 for r in bad), len(bad))),
        ("lint: fixed twins with 0 hints", _pct(sum(r["lint_ok"] for r in twins), len(twins))),
        ("lint: clean programs with 0 hints", _pct(sum(r["lint_ok"] for r in clean), len(clean))),
    ]


def write_results(results: list[dict[str, Any]], table: list[str],
                  path: Path = HERE / "RESULTS.md", cases: Path = CASES) -> None:
    """Write the latest full run to ``path`` (``bench/RESULTS.md`` for the seen corpus)."""
    wrong = [r for r in results if not r["ok"]]
    corpus = "" if cases.resolve() == CASES else f" --cases {_shown(cases)}"
    lines = ["# Accuracy corpus: latest full run", "",
             f"`python bench/accuracy.py{corpus}` on {time.strftime('%Y-%m-%d %H:%M')}, "
             f"{len(results)} programs.", "", *table, "", "## Still wrong", ""]
    lines += [f"- `{r['program'].name}`: {r['reason']}" for r in wrong] or ["(none)"]
    lines += ["", "## Every program", "", "```", *(result_line(r) for r in results), "```", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it lies inside it (as a user would type it)."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


