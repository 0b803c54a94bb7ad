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
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the helpers beside this file, when it is loaded by path
    sys.path.insert(0, str(HERE))

from accuracy_corpus import CASES, CAUSES, ROOT, Program, discover, parse_program  # noqa: E402
from accuracy_score import lint_score, score  # noqa: E402
from accuracy_table import lint_rows, result_line, summary, write_results  # noqa: E402

__all__ = ["CAUSES", "discover", "lint_score", "main", "parse_program", "score", "write_results"]


def _fix_check() -> Any:
    """Return ``bench/fix_check.py`` (the verified-fix column), imported from beside this file."""
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
                print(result_line(results[-1]), flush=True)
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


if __name__ == "__main__":
    sys.exit(main())
