"""The recorder's fast path for an eager backward pass records what the slow path does.

``tracing/backward.py`` records the backward ops of an eager ``tape.gradient`` that can run no
user code from its first op's location, API and layer (no walk to the user's frame). The tests
check that the fast path's records are the slow path's, and when it must not be taken.
"""

from __future__ import annotations

from typing import Any

import pytest

from tapemagic.tracing import backward, recorder
from tests.fast_path_checks import DENSE_STEP, Checked, check_of

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


def backward_ops(check: Checked) -> list[Any]:
    return [op for op in check.trace.ops if op.in_gradient]


# -- the backward pass on the fast path -----------------------------------------------------------

def op_records(check: Checked) -> list[tuple[Any, ...]]:
    """Every op as the analysis reads it (serials, place, API, layer, flags, call site)."""
    return [(op.seq, op.op_type, op.inputs, op.outputs, op.loc, op.api_module, op.api_function,
             op.layer, op.in_gradient, op.in_function, op.outer_loc) for op in check.trace.ops]


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the ops the fast path records (their op types, in order)."""
    taken: list[str] = []
    fast = recorder.record_backward

    def record(rec: Any, name: str, inputs: Any, outputs: Any) -> None:
        taken.append(name)
        fast(rec, name, inputs, outputs)

    monkeypatch.setattr(recorder, "record_backward", record)
    return taken


def test_the_fast_path_records_what_the_slow_path_does(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = counted(monkeypatch)
    fast = check_of(DENSE_STEP)
    assert len(taken) > 10  # all but the pass's first op
    with monkeypatch.context() as patch:
        patch.setattr(backward, "begin", lambda *args: None)
        slow = check_of(DENSE_STEP)
    assert op_records(fast) == op_records(slow)
    assert fast.trace.tensors == slow.trace.tensors  # serials, dtypes, shapes, producers
    loc = fast.trace.gradient_calls[0].loc
    assert {op.loc.line for op in backward_ops(fast)} == {loc.line}


def test_an_input_given_twice_is_one_leaf() -> None:
    """``x * x`` on a tensor not seen yet: the second input finds the leaf the first one made."""
    rec = recorder.Recorder()
    x = tf.constant([1.0, 2.0])
    y = tf.identity(x)
    rec.on_op(b"Mul", [x, x], (), [y])
    (op,) = rec.trace.ops
    assert op.inputs[0] == op.inputs[1] and len(rec.trace.tensors) == 2
    assert not rec.trace.recorder_error


def test_records_made_after_the_pass_keep_seq_order_with_the_slow_paths() -> None:
    """An op the slow path records during the pass (a variable op) lands between its
    neighbours, and the op cap counts the ops not yet made into records."""
    from tapemagic.trace import OpRecord

    rec = recorder.Recorder()
    rec.backward.current = backward.BackwardPass(rec.thread)
    rec.backward.current.template = (None, None, None, "dense", None)
    x = tf.constant([1.0, 2.0])
    first = tf.identity(x)
    backward.record(rec, "Mul", [x], [first])
    assert rec.backward.deferred == 1 and rec.trace.ops == []
    rec.trace.ops.append(OpRecord(rec.next_seq(), "ReadVariableOp", (), (), None))
    second = tf.identity(first)
    backward.record(rec, "Neg", [first], [second])
    backward.flush(rec)
    assert [op.op_type for op in rec.trace.ops] == ["Mul", "ReadVariableOp", "Neg"]
    assert [op.seq for op in rec.trace.ops] == sorted(op.seq for op in rec.trace.ops)
    mul, _, neg = rec.trace.ops
    assert neg.inputs == mul.outputs and rec.ids.serial_of(second) == neg.outputs[0]
    made = rec.trace.tensors[neg.outputs[0]]
    assert (made.dtype, made.shape, made.trainable, made.producer) == (
        "float32", (2,), True, (neg.seq, 0))
    assert rec.backward.deferred == 0 and not rec.backward.current.pending
    assert not rec.trace.recorder_error


# -- when it must stay on the slow path ----------------------------------------------------------

@pytest.mark.parametrize("cell", [
    pytest.param("""
        @tf.custom_gradient
        def clip(x):
            def grad(dy):
                return tf.clip_by_norm(dy, 1.0)
            return tf.identity(x), grad

        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(clip(w * 3.0))
        tape.gradient(loss, [w])
        """, id="custom gradient"),
    pytest.param("""
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = tf.py_function(lambda t: t * 2.0, [w * 1.0], tf.float32)
            loss = tf.reduce_sum(y)
        tape.gradient(loss, [w])
        """, id="py_function"),
    pytest.param("""
        @tf.function
        def f(x):
            return tf.reduce_sum(x * x)

        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            loss = f(w)
        tape.gradient(loss, [w])
        """, id="tf.function call"),
])
def test_a_backward_pass_that_may_run_user_code_stays_on_the_slow_path(
        cell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = counted(monkeypatch)
    check = check_of(cell)
    assert backward_ops(check) and taken == []
