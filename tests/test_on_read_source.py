"""TM121: a ``tf.Variable`` made with ``synchronization=ON_READ``, then asked for a gradient.

Real TensorFlow: such a variable is non-trainable unless ``trainable=True`` is passed, so the
tape never watches it and its gradient is None; the finding sits where it was made and says
``not-watched``. A replica-local value that is never a source, the same variable made with
``trainable=True``, and a plain ``trainable=False`` variable (TM107) are the look-alikes.
Shape from a public report (https://github.com/google-research/seed_rl/issues/21); own code.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checked import loud, run_program

pytestmark = pytest.mark.tf

STEP = """
import tensorflow as tf
x = tf.constant([[1.0, 2.0], [0.5, -1.0]])
w = tf.Variable([[0.3], [0.2]], name="w")
ON_READ = tf.VariableSynchronization.ON_READ
gate = tf.Variable(0.5, name="gate", synchronization=ON_READ{extra})  # MADE
running = tf.Variable(0.0, name="running", synchronization=ON_READ,
                      aggregation=tf.VariableAggregation.SUM)
{decorator}
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(gate * (x @ w))
    grads = tape.gradient(loss, {sources})
    running.assign_add(loss)
    return grads
step()
"""


def _run(tmp_path: Path, extra: str = "", sources: str = "[w, gate]",
         decorator: str = "") -> tuple[list[tuple[str, int]], list[object], object]:
    done = run_program(tmp_path, STEP.format(extra=extra, sources=sources, decorator=decorator))
    findings = [f for f in done.report.findings if f.severity != "info"]
    return loud(done.report), findings, done


@pytest.mark.parametrize("decorator", ["", "@tf.function"], ids=["eager", "traced"])
def test_an_on_read_source_is_not_watched_where_it_was_made(tmp_path: Path,
                                                            decorator: str) -> None:
    found, findings, done = _run(tmp_path, decorator=decorator)
    assert found == [("TM121", done.line("# MADE"))]
    assert findings[0].cause == "not-watched" and findings[0].variables == ("gate",)


def test_trainable_true_or_a_replica_local_value_never_asked_stay_silent(tmp_path: Path) -> None:
    assert _run(tmp_path, extra=", trainable=True")[0] == []
    assert _run(tmp_path, sources="[w]")[0] == []


def test_on_read_frozen_by_flag_too_is_tm121_and_a_plain_frozen_one_tm107(tmp_path: Path) -> None:
    found, _, done = _run(tmp_path, extra=", trainable=False")
    assert found == [("TM121", done.line("# MADE"))]  # ON_READ made it frozen either way
    plain = STEP.replace(", synchronization=ON_READ{extra}",
                         ", trainable=False")
    done = run_program(tmp_path, plain.format(sources="[w, gate]", decorator=""), name="plain.py")
    assert [rule for rule, _ in loud(done.report)] == ["TM107"]
