"""The loss→weights picture names a line by its source text, cut with an ellipsis when long.

A line node's label is the user's source line; a long one was cut at 48 characters with no
mark, so ``norm = tf.sqrt(tf.reduce_sum(tf.square(grads), a`` read as the whole (broken) line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

LONG = """
    with tf.GradientTape() as tape:
        out = model(x)
        loss = tf.reduce_mean(tf.square(out - y)) + 0.001 * tf.reduce_mean(tf.square(out))
        short = loss * 2.0
    tape.gradient(short, model.trainable_variables)
    """


def test_a_long_line_is_cut_with_an_ellipsis_a_short_one_is_whole(tmp_path: Path) -> None:
    result = run(_write(tmp_path, LONG), force_eager=True)
    assert result.error is None
    labels = {n.line: n.label for n in result.report.graph.nodes if n.kind == "op"}
    long_line = next(label for label in labels.values() if label.startswith("loss ="))
    assert len(long_line) <= 48 and long_line.endswith("…"), long_line
    assert "short = loss * 2.0" in labels.values(), labels
