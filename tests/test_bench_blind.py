"""Each blind split (bench/blind*) is well formed, and bench/accuracy.py runs it apart.

None of a split's reports or case names is shared with the seen corpus or another split. No
TensorFlow here: the programs are parsed, not run. Test ids are numbers, not case names, so that
a run of the suite shows engine authors nothing of the held-out cases (each split's README.md).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: every held-out split on disk: a new one is checked as soon as it lands
SPLITS = sorted(p.name for p in (ROOT / "bench").glob("blind*") if (p / "README.md").exists())


def _load_accuracy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_accuracy_blind",
                                                  ROOT / "bench/accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy()
PROGRAMS = {split: accuracy.discover(ROOT / "bench" / split) for split in SPLITS}
BROKEN = {split: [p for p in PROGRAMS[split] if p.kind == "bad"] for split in SPLITS}
CLEAN = {split: [p for p in PROGRAMS[split] if p.kind == "clean"] for split in SPLITS}
SEEN = accuracy.discover()
CASES = [(split, index) for split in SPLITS for index in range(len(BROKEN[split]))]


def _others(split: str) -> list[Any]:
    """The seen corpus and every other split."""
    return SEEN + [p for other in SPLITS if other != split for p in PROGRAMS[other]]


def test_the_splits_are_found() -> None:
    assert {"blind", "blind2"} <= set(SPLITS)


@pytest.mark.parametrize("split", SPLITS)
def test_the_split_is_big_enough_and_mostly_graph_mode(split: str) -> None:
    broken = BROKEN[split]
    assert len(broken) >= 20
    assert len(CLEAN[split]) >= 8
    graph = [p for p in broken if p.header.get("mode") in ("function", "fit")]
    assert len(graph) * 3 >= len(broken) * 2


@pytest.mark.parametrize(("split", "index"), CASES, ids=[f"{s}-{i}" for s, i in CASES])
def test_every_broken_case_states_its_expectation(split: str, index: int) -> None:
    program = BROKEN[split][index]
    ast.parse(program.path.read_text(encoding="utf-8"), filename=str(program.path))
    header = program.header
    assert header.get("source", "").startswith("https://"), "cite the public report"
    assert header.get("summary")
    assert program.causes and program.causes <= accuracy.CAUSES, program.causes
    assert header.get("mode") in ("eager", "function", "fit")
    assert header.get("weights")
    assert header.get("lint", "").split(" ")[0] in ("yes", "no")
    expects = [m for m in program.markers if m.kind == "expect"]
    assert expects and any(m.primary for m in expects)
    assert all(m.causes <= accuracy.CAUSES for m in program.markers)
    assert (program.path.parent / "fixed.py").exists()


@pytest.mark.parametrize("split", SPLITS)
def test_fixed_and_clean_programs_carry_a_summary_and_no_markers(split: str) -> None:
    others = [p for p in PROGRAMS[split] if p.kind != "bad"]
    assert len(others) == len(BROKEN[split]) + len(CLEAN[split])
    assert all(p.header.get("summary") and not p.markers for p in others)
    assert all(p.header.get("source", "").startswith("https://") for p in CLEAN[split])
    for program in others:
        ast.parse(program.path.read_text(encoding="utf-8"), filename=str(program.path))


@pytest.mark.parametrize("split", SPLITS)
def test_every_report_is_cited_once_and_none_is_in_another_corpus(split: str) -> None:
    urls = [p.header.get("source") for p in BROKEN[split] + CLEAN[split]]
    assert all(urls) and len(set(urls)) == len(urls)
    cited = {p.header.get("source") for p in _others(split)}
    assert not cited & set(urls)


@pytest.mark.parametrize("split", SPLITS)
def test_no_case_name_is_shared_with_another_corpus(split: str) -> None:
    def names(programs: list[Any]) -> set[str]:
        return {p.name.split("/")[0] if p.kind != "clean" else p.name for p in programs}

    assert not names(PROGRAMS[split]) & names(_others(split))


@pytest.mark.parametrize("split", SPLITS)
def test_a_run_of_a_split_writes_its_own_results(split: str, tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    accuracy.write_results([], ["| measure | result |"], out, ROOT / "bench" / split)
    text = out.read_text(encoding="utf-8")
    assert f"--cases bench/{split}" in text and "| measure | result |" in text


def test_the_options_pick_the_corpus_and_the_results_file(tmp_path: Path,
                                                          monkeypatch: Any) -> None:
    case = tmp_path / "corpus" / "one"
    case.mkdir(parents=True)
    (case / "bad.py").write_text("# summary: x\nx = 1  # expect: integer-dtype primary\n")
    (case / "fixed.py").write_text("# summary: y\nx = 1\n")
    seen: dict[str, Any] = {}

    def fake_run(program: Any, plain: bool = False, **_: Any) -> dict[str, Any]:
        seen.setdefault("names", []).append(program.name)
        return {"program": program, "ok": True, "seconds": 0.0, "serious": 0, "cause": True,
                "line": True, "weights": None, "primary": True, "noise": 0, "reason": ""}

    monkeypatch.setattr(accuracy, "run_one", fake_run)
    monkeypatch.setattr(accuracy, "lint_score", lambda p: {"lint_ok": True, "lint_hints": 0,
                                                           "lint_noise": 0, "lint_reason": ""})
    monkeypatch.setattr(accuracy, "_fix_check", lambda: type("F", (), {
        "print_fixes": staticmethod(lambda results: None)}))
    results = tmp_path / "blind.md"
    accuracy.main(["--cases", str(tmp_path / "corpus"), "--results", str(results)])
    assert seen["names"] == ["one/bad", "one/fixed"]
    assert results.exists() and "2 programs" in results.read_text(encoding="utf-8")
