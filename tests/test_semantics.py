"""A corpus of correct training cells: ``%%gradcheck`` must not change what any of them does.

Each cell runs twice in the one shared IPython shell (tests/conftest.py), plain and under the
magic, and everything the user can observe is compared exactly: stdout, stderr, the displayed
value, the exception, and a fingerprint of every value the cell leaves behind (variable
values, losses, predictions as raw bytes). The traced run must also stay silent: no error or
warning finding on correct code. Each cell seeds everything it draws (``keras.utils.
set_random_seed``) and starts from a fresh Keras session, so both runs draw the same numbers.

Cells that differ today only because the magic forces eager mode are marked
``xfail(strict=True)`` with the reason; analysing graph mode as written (issue 7) makes them
pass, and then the mark goes.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tapemagic.report.model import MIME_TYPE, Report
from tests import semantics_cells_tf, semantics_cells_training  # noqa: F401  (they fill CELLS)
from tests.semantics_cells import CELLS, PRELUDE

pytestmark = pytest.mark.tf


def _magic(body: str) -> str:
    return "%%gradcheck\n" + body


def _report(run: Any) -> Report | None:
    bundles = [o for o in run.outputs if MIME_TYPE in o]
    return Report.from_json(bundles[0][MIME_TYPE]) if bundles else None


_RULE = "-" * 75


def _without_traceback(stdout: str) -> tuple[str, str]:
    """Split IPython's traceback off: (what came before it, its last line).

    Under any cell magic IPython shows its ``run_cell_magic`` frame, and the user's lines are
    numbered as the editor shows the cell (the ``%%gradcheck`` line is line 1): the exception
    itself is compared exactly, by :func:`_error` and the traceback's last line.
    """
    head, sep, tail = stdout.partition(_RULE)
    return head, tail.rstrip("\n").rsplit("\n", 1)[-1] if sep else ""


def _error(run: Any) -> tuple[str, str] | None:
    error = run.error
    return None if error is None else (type(error).__name__, str(error))


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[tuple[str, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append((record.name, record.levelname, record.getMessage()))


@contextlib.contextmanager
def _observed() -> Iterator[list[Any]]:
    """Collect what bypasses IPython's capture: log records and warnings, in order.

    TensorFlow's logger writes through a handler bound to the process's stderr ("It looks like
    tf.function behavior was disabled", "Using MirroredStrategy eagerly"), and pytest records
    warnings itself: both are compared here.
    """
    seen: list[Any] = []
    handler = _Records()
    loggers = [logging.getLogger(), logging.getLogger("tensorflow")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield seen
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    seen.extend(handler.seen)
    seen.extend((w.category.__name__, str(w.message)) for w in caught)


def _params() -> list[Any]:
    return [pytest.param(name, marks=[mark] if mark else [], id=name)
            for name, (_, mark) in CELLS.items()]


def test_the_corpus_is_big_enough() -> None:
    assert len(CELLS) >= 30


@pytest.mark.parametrize("name", _params())
def test_correct_cell_behaves_as_without_the_magic(run_cell, shell, name: str) -> None:
    body = PRELUDE + CELLS[name][0]
    with _observed() as plain_logged:
        plain = run_cell(body)
    plain_out = shell.user_ns.get("_out")
    shell.user_ns.pop("_out", None)
    with _observed() as traced_logged:
        traced = run_cell(_magic(body))
    traced_out = shell.user_ns.get("_out")
    assert plain_out is not None, plain.stdout + plain.stderr
    assert _error(traced) == _error(plain)
    assert _without_traceback(traced.normalized_stdout()) == _without_traceback(
        plain.normalized_stdout())
    assert traced.stderr == plain.stderr
    assert traced_logged == plain_logged
    assert repr(traced.value) == repr(plain.value)
    assert traced_out == plain_out
    report = _report(traced)
    assert report is not None
    loud = [(f.rule, f.severity, f.message) for f in report.findings
            if f.severity in ("error", "warning")]
    assert not loud, f"correct code got findings: {loud}"
