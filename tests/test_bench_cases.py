"""The accuracy corpus (bench/cases) is well formed, and bench/accuracy.py scores reports right.

No TensorFlow here: the programs are parsed, not run (bench/accuracy.py runs them by hand).
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


def _load_accuracy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_accuracy", ROOT / "bench/accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy()
PROGRAMS = accuracy.discover()
BROKEN = [p for p in PROGRAMS if p.kind == "bad"]
CLEAN = [p for p in PROGRAMS if p.kind == "clean"]


def test_the_corpus_is_big_enough() -> None:
    assert len(BROKEN) >= 40
    assert len(CLEAN) >= 15
    graph_mode = [p for p in BROKEN if p.header.get("mode") in ("function", "fit")]
    assert len(graph_mode) >= 12


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_every_program_parses(program: Any) -> None:
    ast.parse(program.path.read_text(encoding="utf-8"), filename=str(program.path))
    assert program.header.get("summary"), "every program says what it is in `# summary:`"


@pytest.mark.parametrize("program", BROKEN, ids=lambda p: p.name)
def test_every_broken_case_states_its_expectation(program: Any) -> None:
    header = program.header
    assert header.get("source", "").startswith("https://"), "cite the public report"
    assert program.causes and program.causes <= accuracy.CAUSES, program.causes
    assert header.get("mode") in ("eager", "function", "fit")
    assert header.get("weights"), "name the weights, or `-` for a tensor source"
    expects = [m for m in program.markers if m.kind == "expect"]
    assert expects, "mark the line(s) the user must change with `# expect:`"
    assert any(m.primary for m in expects), "say which marked line is the primary cut"
    for marker in program.markers:
        assert marker.causes <= accuracy.CAUSES, marker.causes
    assert (program.path.parent / "fixed.py").exists(), "every broken case has a fixed twin"


def test_sources_are_distinct() -> None:
    urls = [p.header["source"] for p in BROKEN]
    assert len(set(urls)) == len(urls), sorted(u for u in urls if urls.count(u) > 1)


def test_fixed_and_clean_programs_carry_no_markers() -> None:
    marked = [p.name for p in PROGRAMS if p.kind != "bad" and p.markers]
    assert not marked


# --- the scorer, on hand-made reports -------------------------------------------------------

CASE = '''# source: https://example.org/q/1
# cause: host-round-trip
# weights: m/d/kernel, m/d/bias
# mode: eager
# summary: a hand-made case
import tensorflow as tf
x = tf.constant(1.0)
y = x.numpy()  # expect: host-round-trip primary
z = y + 1  # accept
'''


def _finding(line: int | None, cause: str = "host-round-trip", severity: str = "error",
             primary: bool = True, variables: tuple[str, ...] = ("m/d/kernel", "m/d/bias"),
             file: str = "") -> dict[str, Any]:
    location = None if line is None else {"file": file, "line": line, "end_line": line}
    return {"rule": "TM301", "cause": cause, "severity": severity, "primary": primary,
            "location": location, "variables": list(variables)}


@pytest.fixture
def case(tmp_path: Path) -> Any:
    path = tmp_path / "bad.py"
    path.write_text(CASE, encoding="utf-8")
    return accuracy.parse_program(path, "hand/bad", "bad")


def test_the_parser_reads_header_and_markers(case: Any) -> None:
    assert case.causes == {"host-round-trip"}
    assert case.weights == ("m/d/kernel", "m/d/bias")
    assert [(m.line, m.kind, m.primary) for m in case.markers] == [
        (8, "expect", True), (9, "accept", False)]


def test_a_finding_on_the_marked_line_scores_right(case: Any) -> None:
    got = accuracy.score(case, {"findings": [_finding(8, file=str(case.path))]})
    assert got["ok"] and got["cause"] and got["line"] and got["weights"] and got["primary"]
    assert got["noise"] == 0


def test_the_right_cause_on_the_wrong_line_is_not_the_right_line(case: Any) -> None:
    got = accuracy.score(case, {"findings": [_finding(7, file=str(case.path))]})
    assert got["cause"] and not got["line"] and not got["primary"]
    assert got["noise"] == 1 and not got["ok"]
    assert "L8" in got["reason"]


def test_a_wrong_cause_on_the_right_line_is_not_right(case: Any) -> None:
    got = accuracy.score(case, {"findings": [_finding(8, cause="stop-gradient",
                                                      file=str(case.path))]})
    assert not got["cause"] and not got["line"] and not got["ok"]


def test_noise_counts_serious_findings_off_the_marked_lines(case: Any) -> None:
    findings = [_finding(8, file=str(case.path)),
                _finding(9, cause="unexplained", primary=False, file=str(case.path)),
                _finding(7, severity="warning", primary=False, file=str(case.path)),
                _finding(6, severity="info", primary=False, file=str(case.path)),
                _finding(None, severity="error", primary=False),
                _finding(8, primary=False, file="/elsewhere/other.py")]
    got = accuracy.score(case, {"findings": findings})
    assert got["line"] and got["primary"]
    assert got["noise"] == 3  # line 7, the one without a location, the one in another file
    assert not got["ok"]


def test_missing_weights_and_stray_primaries_are_reported(case: Any) -> None:
    got = accuracy.score(case, {"findings": [_finding(8, variables=("m/d/kernel",),
                                                      file=str(case.path))]})
    assert got["line"] and got["weights"] is False and "m/d/bias" in got["reason"]
    stray = [_finding(8, file=str(case.path)), _finding(9, file=str(case.path))]
    got = accuracy.score(case, {"findings": stray})
    assert not got["primary"] and got["noise"] == 0


def test_fixed_and_clean_programs_count_serious_findings(tmp_path: Path) -> None:
    path = tmp_path / "fixed.py"
    path.write_text("# summary: fine\nx = 1\n", encoding="utf-8")
    twin = accuracy.parse_program(path, "hand/fixed", "fixed")
    quiet = accuracy.score(twin, {"findings": [_finding(2, severity="info", file=str(path))]})
    assert quiet["ok"] and quiet["serious"] == 0
    loud = accuracy.score(twin, {"findings": [_finding(2, severity="warning", file=str(path))]})
    assert not loud["ok"] and loud["serious"] == 1
    assert not accuracy.score(twin, None)["ok"]
