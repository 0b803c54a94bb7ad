"""Run a program for the line tests and read its findings by rule and line.

Shared by tests/test_lines_disconnected_sources.py and tests/test_lines_zeroed_values.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checked import run_program

from tapemagic.report.model import Report

MODES = pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])


def check(tmp_path: Path, source: str, eager: bool) -> tuple[Report, Path]:
    """Run ``source`` under gradcheck; return the report and the file (for line lookups)."""
    # the code may raise, as the user's did: the check records it as the magic does
    done = run_program(tmp_path, source, name="prog.py", catch=Exception, caught_inside=True,
                       force_eager=eager, prefix="import numpy as np\nimport tensorflow as tf\n"
                                                 "tf.keras.utils.set_random_seed(0)\n")
    return done.report, done.path


def line(path: Path, needle: str) -> int:
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(needle)


def found(report: Report) -> set[tuple[str, int, bool]]:
    return {(f.rule, f.location.line if f.location else 0, f.primary) for f in report.findings}


def loud(report: Report) -> list[str]:
    return [f"{f.rule}@{f.location.line if f.location else 0}: {f.message}"
            for f in report.findings if f.severity in ("warning", "error")]


def blocking(result: object) -> list[tuple[str, int, tuple[str, ...]]]:
    """The warning and error findings of a run's result as (rule, line, weights)."""
    report = result.report  # type: ignore[attr-defined]
    return [(f.rule, f.location.line if f.location else 0, f.variables)
            for f in report.findings if f.severity != "info"]
