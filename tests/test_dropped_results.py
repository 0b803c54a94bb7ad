"""A call whose result the code dropped, where the weights' value went: TM104's line.

APIs that return a new value instead of changing their argument (``TensorArray.write`` in a
traced function, ``tf.tensor_scatter_nd_update``, ``tf.concat``) called as a statement leave
the argument unchanged, and the loss reads it: the line to change is that statement
(``rules/dropped_results.py``), not the loop or the line that read the argument. A dropped
call that only passes its input on (``tf.debugging.check_numerics``) or writes a variable
(a metric update) is not that line; correct code with such calls stays silent.
"""

from __future__ import annotations

from typing import Any

import pytest
from checked import loud

pytestmark = pytest.mark.tf

HEAD = """
import numpy as np
import tensorflow as tf
x = tf.constant(np.random.default_rng(0).normal(size=(8, 3)), tf.float32)
dense = tf.keras.layers.Dense(3, name="d")
dense.build((None, 3))
"""


def _finding(checked: Any) -> tuple[str, str]:
    found = loud(checked.report)
    assert len(found) == 1, found
    rule, line = found[0]
    return rule, checked.path.read_text().splitlines()[line - 1].strip()


def test_a_dropped_tensorarray_write_in_a_traced_loop(run_checked: Any) -> None:
    checked = run_checked("""
    @tf.function
    def step():
        with tf.GradientTape() as tape:
            ta = tf.TensorArray(tf.float32, size=2, element_shape=(8, 3))
            h = x
            for t in tf.range(2):
                h = dense(h)
                ta.write(t, h)
            loss = tf.reduce_sum(ta.stack() ** 2)
        return tape.gradient(loss, dense.trainable_variables)

    step()
    """, prefix=HEAD)
    assert _finding(checked) == ("TM104", "ta.write(t, h)")


@pytest.mark.parametrize("call", [
    "tf.tensor_scatter_nd_update(base, [[0], [2]], out[:2])",
    "tf.concat([base, out], axis=0)",
])
def test_a_dropped_new_value_eagerly(run_checked: Any, call: str) -> None:
    checked = run_checked(f"""
    base = tf.ones((8, 3))
    with tf.GradientTape() as tape:
        out = dense(x)
        {call}
        largest = tf.reduce_max(out)  # logged: nothing reads it either
        loss = tf.reduce_sum(base * 2.0)
    grads = tape.gradient(loss, dense.trainable_variables)
    """, prefix=HEAD)
    assert _finding(checked) == ("TM104", call)


def test_a_dropped_pass_through_check_is_not_the_line(run_checked: Any) -> None:
    checked = run_checked("""
    y = tf.ones((8, 3))
    with tf.GradientTape() as tape:
        out = dense(x)
        tf.debugging.check_numerics(out, "out")
        loss = tf.reduce_sum(tf.square(y - 1.0))
    grads = tape.gradient(loss, dense.trainable_variables)
    """, prefix=HEAD)
    rule, line = _finding(checked)
    assert rule == "TM104" and "check_numerics" not in line


def test_dropped_side_effects_in_correct_code_stay_silent(run_checked: Any) -> None:
    checked = run_checked("""
    metric = tf.keras.metrics.Mean()
    ta = tf.TensorArray(tf.float32, size=1, element_shape=(8, 3))

    @tf.function
    def step(ta):
        with tf.GradientTape() as tape:
            out = dense(x)
            tf.debugging.check_numerics(out, "out")
            ta = ta.write(0, out)
            loss = tf.reduce_sum(ta.stack() ** 2)
            metric.update_state(loss)
        return tape.gradient(loss, dense.trainable_variables)

    grads = step(ta)
    assert all(g is not None for g in grads)
    """, prefix=HEAD)
    assert loud(checked.report) == []
