"""The recorder's fast paths: an eager backward pass, a Keras initialiser's own ops.

``tracing/backward.py`` records the backward ops of an eager ``tape.gradient`` that can run no
user code from its first op's location, API and layer (no walk to the user's frame), and
``tracing/initializers.py`` leaves out a Keras weight initialiser's ops on nothing recorded.
Both exist for speed (bench/overhead.py, eager ResNet50 cold) and must change no finding: the
tests check that the fast path's records are the slow path's, when it must not be taken, and
that the reports of broken and correct programs (some from a breaker pass that found a
one-op summary of the backward pass and a blunter initialiser skip wrong) are the same with
both switched off.
"""

from __future__ import annotations

import textwrap
from typing import Any, NamedTuple
from unittest import mock

import pytest

import tapemagic
from tapemagic.tracing import backward, initializers, recorder

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


class Checked(NamedTuple):
    report: Any
    trace: Any


def check_of(cell: str) -> Checked:
    """Run ``cell`` under a check (as file ``<fast-path-cell>``): its report and its trace."""
    import linecache

    from tapemagic.tracing.session import TraceSession

    source = textwrap.dedent(cell)
    name = "<fast-path-cell>"
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
    monkeypatch.setattr(backward, "begin", lambda *args: None)
    monkeypatch.setattr(initializers.InitializerHooks, "install", lambda self: None)


# -- the backward pass on the fast path -----------------------------------------------------------

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


def test_keras_initialisers_leave_only_the_variable_ops() -> None:
    check = check_of("""
        layer = keras.layers.Dense(3, kernel_initializer="glorot_uniform", bias_initializer="ones")
        layer.build((None, 2))
        """)
    types = {op.op_type for op in check.trace.ops}
    assert types <= {"VarHandleOp", "AssignVariableOp", "ReadVariableOp"}, types
    assert sum(op.op_type == "VarHandleOp" for op in check.trace.ops) == 2
    assert len(check.trace.handle_created) == 2


@pytest.mark.parametrize(("make", "expected"), [
    pytest.param(lambda: keras.initializers.GlorotUniform(seed=3), True, id="glorot int seed"),
    pytest.param(lambda: keras.initializers.get("he_normal"), True, id="he_normal default"),
    pytest.param(lambda: keras.initializers.Zeros(), True, id="zeros"),
    pytest.param(lambda: keras.initializers.Constant(0.1), True, id="constant float"),
    pytest.param(lambda: keras.initializers.Constant(tf.ones((2, 2))), False,
                 id="constant of a tensor"),
    pytest.param(lambda: keras.initializers.Constant(__import__("numpy").ones((2, 2))), False,
                 id="constant of an array"),
    pytest.param(lambda: keras.initializers.RandomNormal(seed=keras.random.SeedGenerator(1)),
                 False, id="seed generator (a variable)"),
    pytest.param(lambda: (lambda shape, dtype=None: tf.ones(shape)), False, id="a lambda"),
    pytest.param(lambda: type("Mine", (keras.initializers.Initializer,), {
        "__call__": lambda self, shape, dtype=None: tf.ones(shape)})(), False,
        id="the user's subclass"),
])
def test_which_initialisers_run_without_the_op_callback(make: Any, expected: bool) -> None:
    assert initializers.self_contained(make()) is expected


def callbacks_seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the op type of every op the recorder's callback is called for."""
    seen: list[str] = []
    on_op = recorder.Recorder.on_op

    def counting(self: Any, op_type: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(op_type.decode() if isinstance(op_type, bytes) else str(op_type))
        return on_op(self, op_type, *args, **kwargs)

    monkeypatch.setattr(recorder.Recorder, "on_op", counting)
    return seen


def test_a_self_contained_initialiser_runs_on_the_fast_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its ops never reach the callback; the ones of an initialiser on a tensor still do."""
    seen = callbacks_seen(monkeypatch)
    check_of("""
        layer = keras.layers.Dense(3, kernel_initializer=keras.initializers.GlorotUniform(seed=1))
        layer.build((None, 2))
        """)
    assert "StatelessRandomUniformV2" not in seen and "VarHandleOp" in seen, seen
    seen.clear()
    check_of("""
        w = tf.Variable(tf.ones((2, 3)))
        layer = keras.layers.Dense(3, kernel_initializer=keras.initializers.Constant(w * 2.0))
        layer.build((None, 2))
        """)
    assert "Mul" in seen  # w * 2.0, recorded before the layer: the constant's value
    assert "Fill" in seen  # the bias' zeros: a self-contained initialiser of `seen`'s own


def test_the_op_callback_is_back_after_an_initialiser_raises() -> None:
    """An initialiser that raises (Orthogonal on one dimension) leaves the callback in place:
    the gradient call after it is checked, its weights connected."""
    check = check_of("""
        try:
            keras.Variable(initializer="orthogonal", shape=(3,))
        except ValueError:
            pass
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        tape.gradient(loss, [w])
        """)
    assert results(check) == [("w", "ok")]
    assert not check.trace.recorder_error
    from tensorflow.python.eager import context

    assert context.context().op_callbacks == []  # and off after the check


def test_weights_are_named_as_the_stack_walk_named_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The VarHandleOp of a Keras weight takes its owner from the initialiser hook: the
    names of every handle are the ones the walk to the owner found."""
    cell = DENSE_STEP + textwrap.dedent("""
        bn = keras.layers.BatchNormalization()
        bn(tf.ones((2, 3)))
        with keras.name_scope("block"):  # in no layer: its Keras path is not its TF name
            free = keras.Variable(initializer="ones", shape=(3,), name="free")
        w = tf.Variable([1.0, 2.0, 3.0], name="w")
        with tf.GradientTape() as tape:
            total = tf.reduce_sum(free * w)  # `free` is no source: only its ops name it
        tape.gradient(total, [w])
        """)
    fast = check_of(cell)
    with monkeypatch.context() as patch:
        patch.setattr(initializers.InitializerHooks, "install", lambda self: None)
        slow = check_of(cell)
    # (serials differ: with the hook off, the initialisers' own ops are recorded too)
    assert sorted(fast.trace.handle_names.values()) == sorted(slow.trace.handle_names.values())
    assert not any(name.startswith("variable#") for name in fast.trace.handle_names.values())
    assert {"sequential/dense/kernel", "block/free"} <= set(fast.trace.handle_names.values())


def test_the_initialiser_patch_is_undone() -> None:
    cls = next(c for c in keras.Variable.__mro__
               if "_initialize_with_initializer" in c.__dict__)
    before = cls.__dict__["_initialize_with_initializer"]
    check_of("keras.layers.Dense(2).build((None, 2))\n")
    assert cls.__dict__["_initialize_with_initializer"] is before


# -- no finding changes --------------------------------------------------------------------------

SAME_FINDINGS = {
    "clean dense step": DENSE_STEP,
    "higher order: the outer tape records the inner call": """
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.reduce_sum(w * w * w)
            g = inner.gradient(y, w)
            penalty = tf.reduce_sum(g * g)
        outer.gradient(penalty, [w])
        """,
    "a persistent tape recording its own gradient": """
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape(persistent=True) as tape:
            y = tf.reduce_sum(w * w)
            g = tape.gradient(y, w)
            z = tf.reduce_sum(g * w)
        tape.gradient(z, [w])
        del tape
        """,
    # from the breaker pass: a gradient taken with no tape recording, then used in a later tape
    # (the later loss depends on what the backward pass read, not on all of the first target)
    "WGAN-GP penalty computed before the outer tape": """
        D = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="tanh"),
                              keras.layers.Dense(1)])
        real = tf.random.normal((8, 3))
        fake = tf.random.normal((8, 3))
        eps = tf.random.uniform((8, 1))
        xhat = eps * real + (1 - eps) * fake
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(xhat)
            d_hat = D(xhat)
        g = gp_tape.gradient(d_hat, xhat)
        with tf.GradientTape() as tape:
            loss = 10.0 * tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
        grads = tape.gradient(loss, D.trainable_variables)
        """,
    "MAML step with an additive alpha": """
        w = tf.Variable(tf.random.normal((3, 1)), name="w")
        alpha = tf.Variable(0.5, name="alpha")
        x = tf.random.normal((8, 3))
        y = tf.random.normal((8, 1))
        with tf.GradientTape() as inner:
            inner_loss = tf.reduce_mean(tf.square(x @ w - y)) + alpha
        g = inner.gradient(inner_loss, w)
        with tf.GradientTape() as outer:
            outer_loss = tf.reduce_mean(tf.square(x @ (w - 0.1 * g) - y))
        gw, galpha = outer.gradient(outer_loss, [w, alpha])
        """,
    # an initial value computed from a recorded variable or tensor: a TM402 cut at the assign
    "a kernel initialised from another variable": """
        alpha = tf.Variable(2.0, name="alpha")

        class Scaled(keras.layers.Layer):
            def build(self, shape):
                self.k = self.add_weight(
                    shape=(shape[-1], 2), name="k",
                    initializer=lambda shape, dtype=None: alpha * tf.ones(shape))

            def call(self, x):
                return x @ self.k

        layer = Scaled()
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        gk, galpha = tape.gradient(loss, [layer.k, alpha])
        """,
    "a Constant initialiser of a tensor from the tape": """
        w = tf.Variable(tf.ones((3, 2)), name="w")
        x = tf.random.normal((4, 3))
        with tf.GradientTape() as tape:
            w2 = w * 0.5
            dec = keras.layers.Dense(2, use_bias=False,
                                     kernel_initializer=keras.initializers.Constant(w2))
            loss = tf.reduce_sum(dec(x) ** 2)
        gw = tape.gradient(loss, w)
        """,
    "a tied decoder initialised from the encoder's kernel": """
        class Tied(keras.layers.Layer):
            def __init__(self, enc):
                super().__init__()
                self.enc = enc

            def build(self, shape):
                self.kernel = self.add_weight(
                    shape=(4, 3), name="dec_kernel",
                    initializer=lambda shape, dtype=None: tf.transpose(self.enc.kernel))

            def call(self, h):
                return h @ self.kernel

        enc = keras.layers.Dense(4, use_bias=False)
        x = tf.random.normal((4, 3))
        enc.build((None, 3))
        dec = Tied(enc)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((dec(tf.stop_gradient(enc(x))) - x) ** 2)
        g = tape.gradient(loss, [enc.kernel, dec.kernel])
        """,
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
    # from the breaker pass: a user variable creator runs between the initialiser hook and the
    # VarHandleOp (the walk to the owner stops at its frame: no Keras variable, no TM110)
    "a variable made under a user's variable creator": """
        def logging_creator(next_creator, **kwargs):
            return next_creator(**kwargs)

        with tf.variable_creator_scope(logging_creator):
            model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)], name="clf")
            with tf.name_scope("calib"):
                temperature = keras.Variable(initializer=keras.initializers.Constant(1.5),
                                             shape=(), name="temperature")
        x = tf.random.normal((8, 4))
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) / temperature))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    # from the breaker pass: a user op callback that removes itself at its first op (which
    # an initialiser runs); the run-time check of a later tf.function call must still happen
    "a user's op callback that removes itself": """
        from tensorflow.python.framework import op_callbacks

        def once(op_type, inputs, attrs, outputs, op_name=None, graph=None):
            op_callbacks.remove_op_callback(once)

        op_callbacks.add_op_callback(once)
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(
            3, kernel_initializer=keras.initializers.GlorotUniform(seed=1))])
        gate = keras.layers.Dense(1, name="gate")
        gate.build((None, 5))
        x = tf.random.normal((8, 5))
        params = model.trainable_variables + gate.trainable_variables

        @tf.function
        def step(xb):
            with tf.GradientTape() as tape:
                penalty = tf.reduce_mean(tf.nn.relu(gate(xb) - 100.0))
                loss = tf.reduce_mean(tf.square(model(xb))) + penalty
            return tape.gradient(loss, params)

        grads = step(x)
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
