"""The second blind split (bench/blind2) is well formed, and bench/accuracy.py runs it apart.

The same checks as tests/test_bench_blind.py, for the second split, plus: none of its reports or
case names is shared with the seen corpus or the first blind split. No TensorFlow here: the
programs are parsed, not run. Test ids are numbers, not case names, so that a run of the suite
shows engine authors nothing of the held-out cases (bench/blind2/README.md).
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
BLIND2 = ROOT / "bench" / "blind2"


def _load_accuracy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_accuracy_blind2",
                                                  ROOT / "bench/accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy()
PROGRAMS = accuracy.discover(BLIND2)
BROKEN = [p for p in PROGRAMS if p.kind == "bad"]
CLEAN = [p for p in PROGRAMS if p.kind == "clean"]
OTHERS = accuracy.discover() + accuracy.discover(ROOT / "bench" / "blind")


def test_the_split_is_big_enough_and_mostly_graph_mode() -> None:
    assert len(BROKEN) >= 22
    assert len(CLEAN) >= 10
    graph = [p for p in BROKEN if p.header.get("mode") in ("function", "fit")]
    assert len(graph) * 3 >= len(BROKEN) * 2


@pytest.mark.parametrize("index", range(len(BROKEN)), ids=str)
def test_every_broken_case_states_its_expectation(index: int) -> None:
    program = BROKEN[index]
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


def test_fixed_and_clean_programs_carry_a_summary_and_no_markers() -> None:
    others = [p for p in PROGRAMS if p.kind != "bad"]
    assert len(others) == len(BROKEN) + len(CLEAN)
    assert all(p.header.get("summary") and not p.markers for p in others)
    for program in others:
        ast.parse(program.path.read_text(encoding="utf-8"), filename=str(program.path))
    assert all(p.header.get("source", "").startswith("https://") for p in CLEAN)


def test_every_report_is_cited_once_and_none_is_in_another_corpus() -> None:
    urls = [p.header.get("source") for p in BROKEN + CLEAN]
    assert all(urls) and len(set(urls)) == len(urls)
    cited = {p.header.get("source") for p in OTHERS}
    assert not cited & set(urls)


def test_no_case_name_is_shared_with_another_corpus() -> None:
    def names(programs: list[Any]) -> set[str]:
        return {p.name.split("/")[0] if p.kind != "clean" else p.name for p in programs}

    assert not names(PROGRAMS) & names(OTHERS)


def test_a_run_of_this_corpus_writes_its_own_results(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    accuracy.write_results([], ["| measure | result |"], out, BLIND2)
    text = out.read_text(encoding="utf-8")
    assert "--cases bench/blind2" in text and "| measure | result |" in text
