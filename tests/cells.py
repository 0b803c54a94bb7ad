"""Cells and helpers shared by the tests of the two notebook doors (``%%gradcheck``, auto mode)."""

from __future__ import annotations

from typing import Any

from tapemagic.report.model import MIME_TYPE

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
