"""Ops the recorder leaves out: an eager backward pass recorded as one op, Keras initialisers.

``tracing/summary.py`` records an eager ``tape.gradient`` whose backward pass can run no user
code as one ``Gradient`` op, and ``tracing/initializers.py`` records only the variable ops of a
Keras weight initialiser. Both exist for speed (bench/overhead.py, eager ResNet50 cold): they
must change no finding. The tests check when each applies, when it must not (user code or a
recording tape in the backward pass), and that the reports of broken and correct programs are
the same with both switched off.
"""

from __future__ import annotations

import textwrap
from typing import Any, NamedTuple
from unittest import mock

import pytest

import tapemagic
from tapemagic.tracing import initializers, summary

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


class Checked(NamedTuple):
    report: Any
    trace: Any


def check_of(cell: str) -> Checked:
    """Run ``cell`` under a check (as file ``<summary-cell>``): its report and its trace."""
    import linecache

    from tapemagic.tracing.session import TraceSession

    source = textwrap.dedent(cell)
    name = "<summary-cell>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace: dict[str, Any] = {"tf": tf, "keras": keras, "np": __import__("numpy")}
    keras.backend.clear_session()  # the same layer names in every run
    traces = []
    exit_session = TraceSession.__exit__

    def keep(session: TraceSession, *exc: Any) -> None:
        exit_session(session, *exc)
        traces.append(session.trace)

    with mock.patch.object(TraceSession, "__exit__", keep), tapemagic.gradcheck() as check:
        exec(compile(source, name, "exec"), namespace)  # noqa: S102 - the test's own cell
    assert check.report is not None
    # the first check of a process also runs the self-test's own small session
    return Checked(check.report, max(traces, key=lambda trace: len(trace.ops)))


def backward_ops(check: Checked) -> list[Any]:
    return [op for op in check.trace.ops if op.in_gradient]


def findings(check: Checked) -> list[tuple[Any, ...]]:
    """What a user reads: each finding's rule, message, place, weights, op and rank."""
    return [(f.rule, f.message, f.location, f.variables, f.primary, f.op_type, f.api)
            for f in check.report.findings]


def results(check: Checked) -> list[tuple[str, str]]:
    return [(s.name, s.result) for c in check.trace.gradient_calls for s in c.sources]


def exactly_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch both off: every backward op and every initialiser op recorded."""
    monkeypatch.setattr(summary, "begin", lambda *args: None)
    monkeypatch.setattr(initializers.InitializerHooks, "install", lambda self: None)


# -- when the backward pass is one op ------------------------------------------------------------

DENSE_STEP = """
keras.utils.set_random_seed(3)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="tanh"),
                          keras.layers.Dense(1)])
x = tf.random.normal((16, 4))
opt = keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x)))
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
"""


def test_an_eager_backward_pass_of_registered_gradients_is_one_op() -> None:
    check = check_of(DENSE_STEP)
    ops = backward_ops(check)
    assert [op.op_type for op in ops] == [summary.SUMMARY_OP]
    call = check.trace.gradient_calls[0]
    op = ops[0]
    assert op.loc is not None and op.loc.line == call.loc.line
    assert set(call.targets) <= set(op.inputs)
    # its outputs are the gradients the optimizer then applies: each has the op as producer
    assert len(op.outputs) == 4
    assert all(check.trace.tensors[s].producer == (op.seq, i) for i, s in enumerate(op.outputs))
    assert [result for _, result in results(check)] == ["ok"] * 4
    assert check.report.findings == ()


def test_a_call_inside_the_tape_block_is_one_op_once_tensorflow_stops_the_tape() -> None:
    check = check_of("""
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
            grads = tape.gradient(loss, [w])
        """)
    assert [op.op_type for op in backward_ops(check)] == [summary.SUMMARY_OP]


def test_a_result_tensorflow_passes_through_keeps_its_own_origin() -> None:
    # the gradient of y by y is the output gradient itself, the very tensor object
    check = check_of("""
        w = tf.Variable([1.0, 2.0])
        dy = tf.constant([3.0, 4.0])
        with tf.GradientTape() as tape:
            y = w * 2.0
        g_y, g_w = tape.gradient(y, [y, w], output_gradients=dy)
        assert g_y is dy
        """)
    (op,) = backward_ops(check)
    dy = op.inputs[-1]
    assert check.trace.tensors[dy].producer is None
    assert len(op.outputs) == 1 and dy not in op.outputs  # only w's gradient is new


def test_keras_initialisers_leave_only_the_variable_ops() -> None:
    check = check_of("""
        layer = keras.layers.Dense(3, kernel_initializer="glorot_uniform", bias_initializer="ones")
        layer.build((None, 2))
        """)
    types = {op.op_type for op in check.trace.ops}
    assert types <= {"VarHandleOp", "AssignVariableOp", "ReadVariableOp"}, types
    assert sum(op.op_type == "VarHandleOp" for op in check.trace.ops) == 2
    assert len(check.trace.handle_created) == 2


def test_the_initialiser_patch_is_undone() -> None:
    cls = next(c for c in keras.Variable.__mro__
               if "_initialize_with_initializer" in c.__dict__)
    before = cls.__dict__["_initialize_with_initializer"]
    check_of("keras.layers.Dense(2).build((None, 2))\n")
    assert cls.__dict__["_initialize_with_initializer"] is before


# -- when it must stay op by op ------------------------------------------------------------------

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
    pytest.param("""
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.reduce_sum(w * w * w)
            g = inner.gradient(y, w)
            penalty = tf.reduce_sum(g * g)
        outer.gradient(penalty, [w])
        """, id="higher order: the outer tape records the inner call"),
    pytest.param("""
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape(persistent=True) as tape:
            y = tf.reduce_sum(w * w)
            g = tape.gradient(y, w)
            z = tf.reduce_sum(g * w)
        tape.gradient(z, [w])
        del tape
        """, id="persistent tape recording its own gradient"),
])
def test_a_backward_pass_that_may_run_user_code_or_be_recorded_stays_op_by_op(cell: str) -> None:
    check = check_of(cell)
    calls = sorted(c.seq for c in check.trace.gradient_calls)
    end = calls[1] if len(calls) > 1 else 1 << 62
    ops = [op.op_type for op in backward_ops(check) if calls[0] < op.seq < end]
    assert ops and summary.SUMMARY_OP not in ops, ops  # the first call's backward ops


# -- no finding changes --------------------------------------------------------------------------

SAME_FINDINGS = {
    "clean dense step": DENSE_STEP,
    "gradients through NumPy, then applied": """
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        x = tf.random.normal((8, 3))
        opt = keras.optimizers.Adam(0.01)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
        grads = [g.numpy() * 0.5 for g in tape.gradient(loss, model.trainable_variables)]
        opt.apply_gradients(zip(grads, model.trainable_variables))
        """,
    "loss through NumPy (a cut)": """
        keras.utils.set_random_seed(2)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        x = tf.random.normal((8, 3))
        with tf.GradientTape() as tape:
            out = model(x).numpy()
            loss = tf.reduce_mean(tf.constant(out) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "forward pass before the tape (a cut)": """
        keras.utils.set_random_seed(4)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                                  keras.layers.Dense(1)])
        x = tf.random.normal((8, 3))
        y = model(x)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(y ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "argmax on the path, two steps, manual SGD": """
        w = tf.Variable(tf.ones((3, 4)))
        x = tf.random.stateless_normal((5, 3), seed=(1, 2))
        for step in range(2):
            with tf.GradientTape() as tape:
                logits = x @ w
                loss = tf.reduce_sum(tf.cast(tf.argmax(logits, axis=1), tf.float32))
            (g,) = tape.gradient(loss, [w])
            if g is not None:
                w.assign_sub(0.1 * g)
        """,
    "a frozen layer left out of the sources": """
        keras.utils.set_random_seed(5)
        base = keras.layers.Dense(4)
        head = keras.layers.Dense(1)
        model = keras.Sequential([keras.Input((3,)), base, head])
        base.trainable = False
        x = tf.random.normal((8, 3))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x) ** 2)
        grads = tape.gradient(loss, head.trainable_variables + base.weights)
        """,
}


@pytest.mark.parametrize("cell", list(SAME_FINDINGS.values()), ids=list(SAME_FINDINGS))
def test_leaving_the_ops_out_changes_no_finding(cell: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fast = check_of(cell)
    with monkeypatch.context() as patch:
        exactly_as_before(patch)
        slow = check_of(cell)
    assert findings(fast) == findings(slow)
    assert results(fast) == results(slow)
