"""Accuracy benchmark (run by hand, never from the test suite): the case corpus through the CLI.

    python bench/accuracy.py [--jobs N] [-k SUBSTRING] [--markdown] [--plain] [--keep DIR]
                             [--cases DIR] [--results PATH]

Runs every program of ``bench/cases/`` (or ``--cases DIR``, e.g. the held-out ``bench/blind/``;
format: ``bench/cases/README.md``) as
``python -m tapemagic run --json OUT SCRIPT`` in subprocesses (``sys.executable``, the
worktree first on ``PYTHONPATH``), reads each JSON report and scores it against the
expectations written in the broken program. One line per program, then a summary; a full
run (no ``-k``) also writes ``bench/RESULTS.md`` (or ``--results PATH``, so that a run of another
corpus never overwrites the seen corpus's results). ``--markdown`` prints only the summary table
(for the README). ``--plain`` runs the programs with plain ``python`` instead and checks that
every fixed twin and clean program exits 0 (they assert that every weight gets a gradient).

Scores of a broken case (all from the report's ``findings[]``):

- cause: some finding has an expected cause (the header's ``cause``);
- line: every ``# expect:`` line carries a finding with one of that marker's causes;
- weights: every weight of the header's ``weights`` is in the variables of those findings;
- primary: the findings marked ``primary`` sit exactly on the ``primary`` marked lines (each
  such line has one, and no primary finding is elsewhere); the warning/error findings, or the
  information findings of a report that has no warning/error (what the report leads with);
- noise: warning/error findings on no marked line (``expect`` or ``accept``).

Fixed twins and clean programs score the number of warning/error findings (target 0).

The ``lint`` column runs the static checker (``tapemagic.lint.check_source``, in this process:
nothing is run) on each program's text. A broken case whose header says ``lint: yes`` (its cut
is visible in the source) scores right when a hint with an expected cause covers every
``# expect:`` line and no hint sits off the marked lines; a ``lint: no (why)`` case only when
no hint sits off the marked lines. Fixed twins and clean programs score right with 0 hints.
``--lint`` runs that column alone (seconds, no TensorFlow).

With ``--verify-fixes`` (the CLI's option) each broken case also scores *verified fix*: some
finding's fix has ``verified: true`` (target: 70 % of the broken cases). Each such fix is then
checked independently here: its edits are applied to a copy of the case, the copy is run under
the CLI again (no verification), and every weight of the header's ``weights`` (the
finding's own weights when the header names none) must get a gradient (result ``ok``). A verified
fix that fails this check is a *false verification* (target: none).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
ROOT = HERE.parent
SERIOUS = ("error", "warning")
#: The cause vocabulary: the report schema's ``cause`` enum (tapemagic/report/model.py).
CAUSES = frozenset({
    "host-round-trip", "numpy-function", "non-differentiable-op", "integer-dtype",
    "variable-assign", "not-watched", "outside-tape", "stop-gradient", "python-control-flow",
    "not-connected", "sources-mismatch", "custom-gradient", "zero-at-runtime", "unexplained",
})
HEADER_KEYS = ("source", "cause", "rule", "weights", "mode", "summary", "lint")
_HEADER = re.compile(r"^#\s*(" + "|".join(HEADER_KEYS) + r"):\s*(.*?)\s*$")
_MARKER = re.compile(r"#\s*(expect|accept)(?::\s*([a-z|-]*))?\s*(primary)?\s*$")


@dataclass(frozen=True)
class Marker:
    """One ``# expect:`` / ``# accept:`` comment: a line the user must (or may) change."""

    line: int  # 1-based, in the script
    kind: str  # "expect" | "accept"
    causes: frozenset[str]  # empty for a bare accept: any cause
    primary: bool


@dataclass(frozen=True)
class Program:
    """One program of the corpus and what it must (or must not) produce."""

    name: str  # "<case>/bad", "<case>/fixed" or "clean/<name>"
    path: Path
    kind: str  # "bad" | "fixed" | "clean"
    header: dict[str, str] = field(default_factory=dict)
    markers: tuple[Marker, ...] = ()

    @property
    def causes(self) -> frozenset[str]:
        return frozenset(c for c in self.header.get("cause", "").split("|") if c)

    @property
    def lint_visible(self) -> bool:
        """Whether the cut is visible in the source (header ``lint: yes``; ``no (why)``)."""
        return self.header.get("lint", "").split(" ", 1)[0] == "yes"

    @property
    def weights(self) -> tuple[str, ...]:
        raw = self.header.get("weights", "").strip()
        return () if raw in ("", "-") else tuple(w.strip() for w in raw.split(",") if w.strip())


def parse_program(path: Path, name: str, kind: str) -> Program:
    """Read a program's header block (leading ``# key: value`` lines) and its line markers."""
    header: dict[str, str] = {}
    markers: list[Marker] = []
    in_header = True
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if in_header:
            found = _HEADER.match(text)
            if found:
                header[found.group(1)] = found.group(2)
                continue
            if not text.startswith("#"):
                in_header = False
        found = _MARKER.search(text)
        if found and not text.lstrip().startswith("#"):
            causes = frozenset(c for c in (found.group(2) or "").split("|") if c)
            markers.append(Marker(number, found.group(1), causes, bool(found.group(3))))
    return Program(name, path, kind, header, tuple(markers))


def discover(root: Path = CASES) -> list[Program]:
    """Every program of the corpus, sorted: each case folder's bad/fixed pair, then clean/."""
    programs: list[Program] = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "clean"):
        for kind in ("bad", "fixed"):
            path = folder / f"{kind}.py"
            if path.exists():
                programs.append(parse_program(path, f"{folder.name}/{kind}", kind))
    clean = root / "clean"
    if clean.is_dir():
        for path in sorted(clean.glob("*.py")):
            programs.append(parse_program(path, f"clean/{path.stem}", "clean"))
    return programs


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


def _fix_check() -> Any:
    """Return ``bench/fix_check.py`` (the verified-fix column), imported from beside this file."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import fix_check

    return fix_check


def _env() -> dict[str, str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def run_one(program: Program, plain: bool = False, timeout: float = 180.0,
            keep: Path | None = None, verify: bool = False) -> dict[str, Any]:
    """Run one program in a subprocess (through the CLI unless ``plain``) and score it.

    With ``keep``, the JSON report is also copied to ``keep/<case>__<kind>.json``; with
    ``verify``, a broken case runs with ``--verify-fixes`` and its verified fixes are checked.
    """
    env = _env()
    if verify and program.kind == "bad":
        timeout *= 6
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        argv = [sys.executable, str(program.path)] if plain else [
            sys.executable, "-m", "tapemagic", "run", "--json", str(out),
            *(["--verify-fixes"] if verify and program.kind == "bad" else []),
            str(program.path)]
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=timeout)
            status, tail = done.returncode, (done.stderr.strip().splitlines() or [""])[-1]
        except subprocess.TimeoutExpired:
            status, tail = -1, f"timed out after {timeout:.0f} s"
        seconds = time.perf_counter() - start
        report = json.loads(out.read_text()) if out.exists() else None
        if keep is not None and out.exists():
            keep.mkdir(parents=True, exist_ok=True)
            (keep / (program.name.replace("/", "__") + ".json")).write_text(out.read_text())
    if plain:
        ok = status == 0 or program.kind == "bad"
        return {"program": program, "ok": ok, "status": status, "seconds": seconds,
                "reason": "" if ok else f"exit {status}: {tail}"}
    result = score(program, report)
    result.update(program=program, status=status, seconds=seconds)
    if verify and program.kind == "bad" and report is not None:
        fixes = [f for f in report["findings"] if f.get("fix") and f["fix"]["verified"]]
        result["verified"] = bool(fixes)
        result["unverified"] = [
            f"{f['rule']}: {f['fix'].get('verification') or 'no edits'}"
            for f in report["findings"] if f.get("fix") and f["fix"]["verified"] is False]
        check_fix = _fix_check().check_fix
        result["false"] = [why for why in (check_fix(program.path, program.weights, fix, _env())
                                           for fix in fixes) if why]
    if report is not None and program.kind != "bad" and report.get("exception"):
        result["ok"] = False
        result["reason"] = (result["reason"] + "; " if result["reason"] else "") + \
            f"the program raised: {report['exception'].get('type', '?')}"
    return result


def _mark(value: bool | None) -> str:
    return "-" if value is None else ("y" if value else "n")


def _line(result: dict[str, Any]) -> str:
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


def main(argv: list[str] | None = None) -> int:
    """Run the corpus; return 0 when every program scored right, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="programs run at once (default 2)")
    parser.add_argument("-k", dest="patterns", action="append", default=[], metavar="SUBSTRING",
                        help="only programs whose name has it (repeatable: any of them)")
    parser.add_argument("--markdown", action="store_true", help="print the summary table only")
    parser.add_argument("--plain", action="store_true",
                        help="run with plain python: fixed and clean programs must exit 0")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="also keep the JSON reports")
    parser.add_argument("--lint", action="store_true",
                        help="only the static checker's column (nothing is run)")
    parser.add_argument("--verify-fixes", action="store_true",
                        help="run broken cases with --verify-fixes; score and check the fixes")
    parser.add_argument("--cases", type=Path, default=CASES, metavar="DIR",
                        help="the corpus folder (default bench/cases; bench/blind and "
                             "bench/blind2 are held out)")
    parser.add_argument("--results", type=Path, default=HERE / "RESULTS.md", metavar="PATH",
                        help="where a full run writes its results (default bench/RESULTS.md)")
    args = parser.parse_args(argv)
    programs = [p for p in discover(args.cases.resolve())
                if not args.patterns or any(k in p.name for k in args.patterns)]
    if args.lint:
        return lint_main(programs, args.markdown)
    results: list[dict[str, Any]] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, p, args.plain, keep=args.keep,
                               verify=args.verify_fixes) for p in programs]
        for future in futures:  # in corpus order, printed as each one is done
            results.append(future.result())
            if not args.plain:
                results[-1].update(lint_score(results[-1]["program"]))
            if not args.markdown:
                print(_line(results[-1]), flush=True)
    wrong = [r for r in results if not r["ok"]]
    if args.plain:
        print(f"\n{len(results) - len(wrong)} of {len(results)} programs ran as expected")
        return 1 if wrong else 0
    table = summary(results)
    print("\n".join([""] + table if not args.markdown else table))
    if not args.markdown:
        print("\nstill wrong:" if wrong else "\nnothing wrong")
        for r in wrong:
            print(f"- {r['program'].name}: {r['reason']}")
        _fix_check().print_fixes(results)
    if not args.patterns:
        write_results(results, table, args.results, args.cases)
    return 1 if wrong else 0


def lint_main(programs: list[Program], markdown: bool) -> int:
    """Run the ``lint`` column alone; return 0 when every program scored right, else 1."""
    results = [{"program": p, **lint_score(p)} for p in programs]
    wrong = [r for r in results if not r["lint_ok"]]
    table = ["| measure | result |", "| --- | --- |"] + [
        f"| {a} | {b} |" for a, b in lint_rows(results)]
    if not markdown:
        for r in results:
            program = r["program"]
            seen = "visible" if program.kind != "bad" or program.lint_visible else "not visible"
            verdict = "ok" if r["lint_ok"] else f"WRONG: {r['lint_reason']}"
            print(f"{program.name:<44} {seen:<12} hints {r['lint_hints']:<3} {verdict}")
        print()
    print("\n".join(table))
    if not markdown:
        hidden = [p for p in programs if p.kind == "bad" and not p.lint_visible]
        print("\nnot visible in the source (lint: no):")
        for p in hidden:
            print(f"- {p.name}: {p.header.get('lint', '')[3:].strip(' ()')}")
    return 1 if wrong else 0


def write_results(results: list[dict[str, Any]], table: list[str],
                  path: Path = HERE / "RESULTS.md", cases: Path = CASES) -> None:
    """Write the latest full run to ``path`` (``bench/RESULTS.md`` for the seen corpus)."""
    wrong = [r for r in results if not r["ok"]]
    corpus = "" if cases.resolve() == CASES else f" --cases {_shown(cases)}"
    lines = ["# Accuracy corpus: latest full run", "",
             f"`python bench/accuracy.py{corpus}` on {time.strftime('%Y-%m-%d %H:%M')}, "
             f"{len(results)} programs.", "", *table, "", "## Still wrong", ""]
    lines += [f"- `{r['program'].name}`: {r['reason']}" for r in wrong] or ["(none)"]
    lines += ["", "## Every program", "", "```", *(_line(r) for r in results), "```", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it lies inside it (as a user would type it)."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
