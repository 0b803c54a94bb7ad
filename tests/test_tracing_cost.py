"""What tracing costs and keeps: no tensor outlives the check, other threads stay out, detach.

No timings here (those are in bench/overhead.py): the tests check the mechanisms the speed rests
on. After a check nothing TensorFlow made is kept alive; ops, conversions and tapes of another
thread never reach the report; once every gradient call site was analysed the op callback is
removed (later steps run as without tapemagic) and a new site, or a later run that gets None
where the analysed one did not, is still analysed; op locations are resolved lazily but read
exactly like eager ones.
"""

from __future__ import annotations

import copy
import gc
import sys
import textwrap
import threading
import weakref
from typing import Any

import pytest

import tapemagic
from tapemagic.trace import RawLocation

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")


def run(cell: str, namespace: dict[str, Any] | None = None, filename: str = "<cost-cell>",
        **options: Any) -> tapemagic.Check:
    """Run ``cell`` under a check, as a cell of its own file, and return the check."""
    import linecache

    source = textwrap.dedent(cell)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"tf": tf} if namespace is None else namespace
    with tapemagic.gradcheck(**options) as check:
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the test's own cell
    assert check.report is not None
    return check


def trace_of(cell: str, namespace: dict[str, Any] | None = None) -> Any:
    """Run ``cell`` under a bare TraceSession and return its Trace."""
    from tapemagic.tracing.session import TraceSession

    namespace = {"tf": tf} if namespace is None else namespace
    session = TraceSession()
    with session:
        exec(compile(textwrap.dedent(cell), "<cost-trace>", "exec"), namespace)  # noqa: S102
    assert session.trace is not None
    return session.trace


# -- nothing kept alive -----------------------------------------------------------------------

def test_no_tensor_or_variable_alive_after_the_check() -> None:
    namespace: dict[str, Any] = {"tf": tf, "np": __import__("numpy")}
    check = run("""
        w = tf.Variable(tf.ones((3, 3)), name="w")
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            h = tf.matmul(x, w)
            host = h.numpy()               # a host round-trip (its value is kept as NumPy)
            back = tf.constant(np.sqrt(np.abs(host)))
            loss = tf.reduce_sum(h * h) + tf.reduce_sum(back)
        grads = tape.gradient(loss, [w])
        """, namespace)
    assert check.report is not None and check.report.gradient_calls
    refs = {name: weakref.ref(namespace[name]) for name in ("w", "x", "h", "back", "loss")}
    refs["grad"] = weakref.ref(namespace["grads"][0])
    refs["tape"] = weakref.ref(namespace["tape"])
    namespace.clear()
    gc.collect()
    alive = [name for name, ref in refs.items() if ref() is not None]
    assert not alive, f"still alive after the check: {alive}"


# -- threads ------------------------------------------------------------------------------------

BACKGROUND = """
import threading
import numpy as np

def background_work(started, release):
    v = tf.Variable([2.0, 3.0], name="bg_v")
    with tf.GradientTape() as bg_tape:
        t = tf.round(v * 1.5)                 # a cut, but in another thread
    bg_tape.gradient(t, [v])
    started.set()
    release.wait(600)
    for _ in range(50):
        h = (v * 2.0).numpy()                 # host round-trips in the other thread
        np.sqrt(tf.constant([1.0, 4.0]))
        float(tf.reduce_sum(v))

w = tf.Variable([1.0, 2.0], name="w")
started, release = threading.Event(), threading.Event()
worker = threading.Thread(target=background_work, args=(started, release))

@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
        release.set()                          # the other thread converts while we record
        for _ in range(50):
            loss = loss + 0.0 * tf.reduce_sum(w)
    return tape.gradient(loss, [w])

worker.start()
started.wait(600)
grads = step()
worker.join(600)
"""


def test_another_threads_ops_conversions_and_tapes_stay_out_of_the_report() -> None:
    check = run(BACKGROUND)
    report = check.report
    assert report is not None
    assert [s.variable for c in report.gradient_calls for s in c.sources] == ["w"]
    assert report.findings == ()
    # the other thread's .numpy() inside our tf.function call was the false note of issue 7
    assert not any("graph mode fails earlier" in note for note in report.notes), report.notes


def test_another_thread_touches_no_recorder_state() -> None:
    namespace: dict[str, Any] = {"tf": tf}
    trace = trace_of(BACKGROUND, namespace)
    assert not namespace["worker"].is_alive()
    assert trace.host_events == []
    assert {op.op_type for op in trace.ops}.isdisjoint({"Round"})
    assert len(trace.tapes) == 1 and len(trace.gradient_calls) == 1
    for op in trace.ops:  # every serial an op uses was registered (no interleaved writes)
        assert all(s in trace.tensors for s in (*op.inputs, *op.outputs))


def test_a_check_in_another_thread_is_its_own_session() -> None:
    results: dict[str, Any] = {}

    def worker() -> None:
        results["check"] = run("""
            v = tf.Variable([1.0], name="v_thread")
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.round(v))
            tape.gradient(loss, [v])
            """, filename="<cost-thread-cell>")

    before = tf.config.functions_run_eagerly()
    with tapemagic.gradcheck() as outer:
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join(600)
        w = tf.Variable([1.0, 2.0], name="w_main")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        tape.gradient(loss, [w])
    # the worker's session forced eager mode too; each restores what it found, so the process
    # setting is back to what it was (the worker must not have called the outer's stand-in)
    assert tf.config.functions_run_eagerly() == before
    inner = results["check"].report
    assert inner.codes == ["TM201"]
    assert [s.variable for c in inner.gradient_calls for s in c.sources] == ["v_thread"]
    assert outer.report is not None and outer.report.codes == []
    assert [s.variable for c in outer.report.gradient_calls for s in c.sources] == ["w_main"]


# -- detach -------------------------------------------------------------------------------------

LOOP = """
from tensorflow.python.eager import context
callbacks = []
w = tf.Variable(tf.ones((4, 4)), name="w")
opt = tf.keras.optimizers.SGD(0.1)
x = tf.random.normal((8, 4), seed=1)
for step in range({steps}):
    callbacks.append(len(context.context().op_callbacks))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.tanh(x @ w) ** 2)
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
"""


def test_later_steps_record_no_ops_and_run_without_the_op_callback() -> None:
    one: dict[str, Any] = {"tf": tf}
    five: dict[str, Any] = {"tf": tf}
    trace_one = trace_of(LOOP.format(steps=1), one)
    trace_five = trace_of(LOOP.format(steps=5), five)
    assert five["callbacks"] == [1, 0, 0, 0, 0]
    # later steps add no op; only the first step's forward, backward and optimizer ops are kept
    assert len(trace_five.ops) == len(trace_one.ops)
    assert trace_five.gradient_calls[0].calls == 5
    assert len(trace_five.gradient_calls) == 1


def test_a_new_call_site_after_detaching_is_analysed() -> None:
    cell = LOOP.format(steps=3) + """
v = tf.Variable([1.0, 2.0], name="v")
with tf.GradientTape() as tape2:
    loss2 = tf.reduce_sum(tf.round(v * 3.0))
g2 = tape2.gradient(loss2, [v])
"""
    check = run(cell)
    report = check.report
    assert report is not None
    assert report.codes == ["TM201"]
    finding = report.findings[0]
    line = cell.splitlines().index("    loss2 = tf.reduce_sum(tf.round(v * 3.0))") + 1
    assert finding.location is not None and finding.location.line == line
    assert finding.variables == ("v",)


def test_a_later_run_that_gets_none_is_analysed_too() -> None:
    check = run("""
        x = tf.Variable(1.0, name="x")
        for i in range(3):
            with tf.GradientTape() as tape:
                y = x * x
            g = tape.gradient(y, x)
            x = x + 1.0   # x is a Tensor from here on: the next gradient is None
        """)
    report = check.report
    assert report is not None
    results = [s.result for c in report.gradient_calls for s in c.sources]
    assert results == ["ok", "none"], results  # run 1 analysed; run 2 None -> run 3 analysed
    assert report.findings, "the None of the later run is explained"


def test_max_steps_runs_are_analysed_before_detaching() -> None:
    namespace: dict[str, Any] = {"tf": tf}
    from tapemagic.tracing.session import TraceSession

    session = TraceSession(max_steps=2)
    with session:
        exec(compile(LOOP.format(steps=4), "<cost-steps>", "exec"), namespace)  # noqa: S102
    assert namespace["callbacks"] == [1, 1, 0, 0]
    assert session.trace is not None and len(session.trace.gradient_calls) == 2


# -- lazy locations and names -------------------------------------------------------------------

def test_lazy_locations_read_like_resolved_ones() -> None:
    from tapemagic import frames

    def here() -> tuple[Any, int]:
        frame = sys._getframe(1)
        return frames.location_of(frame), frame.f_lineno

    loc, line = here(); other, _ = here()  # noqa: E702 - two calls on one line on purpose
    assert isinstance(loc, RawLocation)
    assert loc.line == line and loc.end_line == line
    assert loc.file == __file__ and loc.function == "test_lazy_locations_read_like_resolved_ones"
    assert loc.col is not None and loc.end_col is not None and loc.col < loc.end_col
    assert loc != other and loc.col < other.col  # the second call is further right
    plain = copy.copy(loc)
    assert type(plain) is RawLocation
    assert (plain.file, plain.line, plain.col, plain.end_col) == (loc.file, loc.line, loc.col,
                                                                 loc.end_col)


def test_ops_at_one_instruction_share_a_location_and_keep_their_own_call_site() -> None:
    # consecutive ops at one user instruction share a location (values.SiteMemo); a helper
    # called from two lines in turn, whose frame CPython puts at the same address each time,
    # still gets each caller's line as its call site, and two functions of the same text in two
    # files (equal code objects) each keep their own file
    import linecache

    # one op per call: the last op of one call and the first of the next run at the same
    # instruction of the helper, so only the caller's line tells them apart
    helper = "def loss_of(x):\n    return tf.reduce_sum(x)\n\ndef spread(x):\n" \
        "    return tf.reduce_sum(tf.square(x) * 2.0 + 1.0)\n"
    namespace: dict[str, Any] = {"tf": tf}
    for name in ("<helper-a>", "<helper-b>"):
        linecache.cache[name] = (len(helper), None, helper.splitlines(True), name)
        exec(compile(helper, name, "exec"), namespace)  # noqa: S102 - the test's own code
        namespace[name.strip("<>").replace("-", "_")] = namespace["loss_of"]
    trace = trace_of("""
        x = tf.ones((3,))
        for _ in range(2):
            a = helper_a(x)
            b = helper_a(x)
        c = helper_b(x)
        d = spread(x)
        """, namespace)
    ops = [op for op in trace.ops if op.loc is not None and op.loc.file.startswith("<helper")]
    sites = [(op.loc.file, op.loc.line, op.outer_loc.line if op.outer_loc else None)
             for op in ops if op.loc.line == 2]
    assert sites == [("<helper-a>", 2, 4), ("<helper-a>", 2, 5), ("<helper-a>", 2, 4),
                     ("<helper-a>", 2, 5), ("<helper-b>", 2, 6)]
    assert {op.op_type for op in ops if op.loc.line == 5} == {"Square", "Mul", "AddV2", "Sum"}
    square = [op.loc for op in ops if op.op_type == "Square"]
    add = [op.loc for op in ops if op.op_type == "AddV2"]
    assert square[0].end_col is not None and add[0].end_col is not None
    assert square[0].end_col < add[0].end_col  # each op its own instruction's span


def test_variables_are_named_without_a_heap_scan() -> None:
    trace = trace_of("""
        model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                     tf.keras.layers.Dense(2, name="dense_named")])
        counter = tf.Variable(0.0, name="step_counter")
        x = tf.ones((4, 3))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x))
        tape.gradient(loss, model.trainable_variables)
        counter.assign_add(1.0)   # only written, never read nor a source
        """)
    names = set(trace.handle_names.values())
    assert {"sequential/dense_named/kernel", "sequential/dense_named/bias"} <= names or any(
        n.endswith("dense_named/kernel") for n in names), names
    assert "step_counter" in names
    assert not any(n.startswith("variable#") for n in names), names



@pytest.mark.parametrize("values", [
    [-1.0] * 5000,                          # dead, longer than the peek
    [-1.0] * 5000 + [0.5],                  # live only past the peek
    [float("nan")] * 300 + [-1.0],          # NaNs then no positive: dead (fmax skips NaNs)
    [float("nan")] * 300 + [2.0],           # NaNs then a positive: live
    [float("nan")] * 10,                    # only NaNs: dead
    [0.0, -0.0] * 400,                      # zeros of both signs: dead
    [3.0] + [-1.0] * 1000,                  # live at the first element
    [],                                     # empty: dead
], ids=["dead", "live-late", "nan-dead", "nan-live", "nan-only", "zeros", "live-first",
        "empty"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])  # an int ReLU has no gradient
def test_a_relu_is_dead_exactly_when_no_input_is_positive(values: list[float],
                                                         dtype: str) -> None:
    """The ReLU asked of its registered gradient (saturation.zero_flag) on its eager values.

    Dead exactly when no element of the input is positive (a NaN passes no gradient); an
    integer ReLU has no gradient and is never asked.
    """
    import numpy as np

    from tapemagic.tracing import _tf_private as tfp
    from tapemagic.tracing.saturation import zero_flag

    for shape in ((len(values),), (1, len(values), 1)):
        x = tf.constant(np.asarray(values, dtype=dtype).reshape(shape))
        expected = x.shape.num_elements() == 0 or not np.fmax.reduce(x.numpy(), axis=None) > 0
        y = tf.nn.relu(x)
        op = tfp.MockOp(("T", x.dtype.as_datatype_enum), [x], [y], "Relu", None)
        assert bool(zero_flag("Relu", op, [y])) is bool(expected)
