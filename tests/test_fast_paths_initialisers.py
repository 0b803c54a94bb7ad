"""The recorder's fast path for a Keras initialiser: its own ops are left out, nothing else.

``tracing/initializers.py`` leaves out a Keras weight initialiser's ops on nothing recorded, for
speed. The tests check which initialisers take that path, that the op callback and the patch are
back afterwards, and that the weights keep the names the stack walk gave them.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from tapemagic.tracing import initializers, recorder
from tests.fast_path_checks import DENSE_STEP, check_of, results

pytestmark = pytest.mark.tf

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")


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
