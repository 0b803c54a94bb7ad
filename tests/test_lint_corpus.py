"""The static checker on the accuracy corpus: hints where the cut is visible, silence elsewhere.

TF-free: the programs of bench/cases are read, never run. Each broken case says in its header
whether its cut is visible in the source (`# lint: yes`, or `no (why)`); bench/accuracy.py's
lint column scores exactly what these tests assert.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tapemagic.lint import check_source
from tapemagic.rules import load_catalog

ROOT = Path(__file__).resolve().parent.parent


def _load_accuracy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_accuracy_lint", ROOT / "bench/accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


accuracy = _load_accuracy()
PROGRAMS = accuracy.discover()
BROKEN = [p for p in PROGRAMS if p.kind == "bad"]
CORRECT = [p for p in PROGRAMS if p.kind != "bad"]


@pytest.mark.parametrize("program", CORRECT, ids=lambda p: p.name)
def test_correct_programs_get_no_hint(program: Any) -> None:
    hints = check_source(program.path.read_text(encoding="utf-8"), str(program.path))
    assert [(h.code, h.line) for h in hints] == []


@pytest.mark.parametrize("program", BROKEN, ids=lambda p: p.name)
def test_broken_programs_are_hinted_where_the_cut_is_visible(program: Any) -> None:
    scored = accuracy.lint_score(program)
    assert scored["lint_ok"], scored["lint_reason"]


def test_every_broken_case_says_whether_lint_can_see_it() -> None:
    for program in BROKEN:
        value = program.header.get("lint", "")
        assert value == "yes" or (value.startswith("no (") and value.endswith(")")), \
            f"{program.name}: `# lint: yes` or `# lint: no (why)`"
    visible = [p for p in BROKEN if p.lint_visible]
    assert len(visible) >= 40  # the cuts the issue lists are all visible ones


def test_the_scorer_fails_a_missing_or_stray_hint(tmp_path: Path) -> None:
    case = tmp_path / "bad.py"
    case.write_text("# summary: s\n# lint: yes\nimport tensorflow as tf\n"
                    "m = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
                    "with tf.GradientTape() as tape:\n"
                    "    loss = float(tf.reduce_sum(m(tf.ones((1, 2)))))"
                    "  # expect: host-round-trip\n"
                    "g = tape.gradient(loss, m.trainable_variables)\n")
    program = accuracy.parse_program(case, "x/bad", "bad")
    assert accuracy.lint_score(program)["lint_ok"]
    moved = tmp_path / "moved.py"
    moved.write_text(case.read_text().replace("  # expect: host-round-trip", "")
                     .replace("g = tape", "g = tape  # expect: host-round-trip\ng2 = tape", 1))
    scored = accuracy.lint_score(accuracy.parse_program(moved, "x/bad", "bad"))
    assert not scored["lint_ok"] and scored["lint_noise"] == 1


@pytest.mark.parametrize("rule", [r for r in load_catalog().rules if r.hint],
                         ids=lambda r: r.code)
def test_catalog_examples_of_rules_with_a_hint(rule: Any) -> None:
    assert rule.code in {h.code for h in check_source(rule.example_bad or "")}
    assert check_source(rule.example_good) == []
    assert " may " in f" {rule.hint} "
