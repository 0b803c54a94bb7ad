"""The graph-mode test harness: a cell written to a real file, run with or without gradcheck.

Autograph reads the source of the functions it converts, so each cell is a file (as a notebook
cell is to IPython). ``run`` executes it as written or forced eager and keeps what happened.
"""

from __future__ import annotations

import textwrap
import traceback
from pathlib import Path
from typing import Any

import tapemagic
from tapemagic.report.model import Report
from tapemagic.report.validate import validate_report

TESTS = Path(__file__).resolve().parent
DEMO = TESTS.parent / "demo"

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
"""


class Run:
    """One run of a cell file: its report, namespace, exception and printed output."""

    def __init__(self, report: Report, namespace: dict[str, Any], error: BaseException | None,
                 stdout: str) -> None:
        self.report = report
        self.ns = namespace
        self.error = error
        self.stdout = stdout

    @property
    def found(self) -> set[tuple[str, int, bool]]:
        """(rule, line, primary) of every finding."""
        return {(f.rule, f.location.line if f.location else 0, f.primary)
                for f in self.report.findings}

    @property
    def exact(self) -> list[tuple[object, ...]]:
        """Every finding's rule, span, API, op and quick-fix edits, in report order.

        (A traced tf.numpy_function is a PyFunc op; run eagerly it runs no op: no op type.)
        """
        return [(f.rule, f.primary, f.api, f.op_type if f.rule != "TM302" else None,
                 (f.location.line, f.location.col, f.location.end_line, f.location.end_col)
                 if f.location else None,
                 tuple((e.line, e.col, e.end_line, e.end_col, e.text)
                       for e in (f.fix.edits if f.fix else ())))
                for f in self.report.findings]


def write_cell(tmp_path: Path, cell: str, name: str = "cell.py") -> Path:
    """Write SETUP (a seeded two-layer model and its data) then ``cell`` to a file; return it."""
    path = tmp_path / name
    path.write_text(SETUP + textwrap.dedent(cell))
    return path


def run(path: Path, force_eager: bool, traced: bool = True) -> Run:
    """Execute ``path`` (optionally under gradcheck) and capture what happened."""
    import contextlib
    import io

    namespace: dict[str, Any] = {"__name__": "__main__"}
    code = compile(path.read_text(), str(path), "exec")
    out = io.StringIO()
    error = None
    check = None
    with contextlib.redirect_stdout(out):
        try:
            if traced:
                with tapemagic.gradcheck(force_eager=force_eager) as check:
                    exec(code, namespace)  # noqa: S102
            else:
                exec(code, namespace)  # noqa: S102
        except Exception as raised:  # noqa: BLE001 - what the cell raises is compared
            error = raised
    report = check.report if check is not None else None
    if traced:
        assert report is not None
        validate_report(report.to_json())
    return Run(report, namespace, error, out.getvalue())  # type: ignore[arg-type]


def line_of(path: Path, needle: str) -> int:
    """Return the 1-based line of the file that contains ``needle``."""
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def error_message(error: BaseException | None) -> str:
    """The error's message without Keras's model numbers (each run builds a new model)."""
    import re

    return re.sub(r"sequential_\d+", "sequential_N", str(error))


def error_frames(error: BaseException | None) -> list[tuple[str, int, str]]:
    """The traceback's (file, line, function), the tests' own frames left out.

    The runner's frame (``run`` here) is at another line with and without gradcheck; the
    user's, TensorFlow's and Keras's frames are what must be the same.
    """
    assert error is not None
    return [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(
        error.__traceback__) if Path(f.filename).parent != TESTS]
