"""Cells and helpers shared by the tests of the two notebook doors (``%%gradcheck``, auto mode).

``magic`` and ``single_report`` serve the ``%%gradcheck`` tests (tests/test_magic_*.py).
"""

from __future__ import annotations

from typing import Any

from tapemagic.report.model import MIME_TYPE, Report
from tapemagic.report.validate import validate_report

#: a cut: `tf.round` has no gradient (TM201 on `w`)
ROUND_CELL = """\
w = tf.Variable([1.0, 2.0], name="w")
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.round(w * 3.0))
grads = tape.gradient(loss, [w])
"""
#: the same cell, correct
CLEAN_CELL = """\
w = tf.Variable([1.0, 2.0], name="w")
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(w * w)
grads = tape.gradient(loss, [w])
"""


def reports_in(run: Any) -> list[dict[str, Any]]:
    """The report bundles a cell displayed."""
    return [o for o in run.outputs if MIME_TYPE in o]


#: what a report display carries
THREE_MIME = {MIME_TYPE, "text/html", "text/plain"}


def magic(body: str, line: str = "") -> str:
    """``body`` as a ``%%gradcheck`` cell, with ``line`` after the magic's name."""
    return f"%%gradcheck{(' ' + line) if line else ''}\n{body}"


def single_report(run: Any) -> Report:
    """The one report a cell displayed, checked against the schema."""
    bundles = reports_in(run)
    assert len(bundles) == 1, f"expected one report display, got {run.outputs}"
    assert set(bundles[0]) == THREE_MIME
    payload = bundles[0][MIME_TYPE]
    validate_report(payload)
    return Report.from_json(payload)
