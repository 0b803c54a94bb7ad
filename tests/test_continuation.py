"""Graph mode: the cuts behind a host round-trip that raised at trace time are still found.

A ``.numpy()`` on a symbolic tensor stops the trace at its line; the statements after it are
traced in a scratch graph that never runs (``tapemagic.tracing.continuation``), so graph mode
names the same cuts at the same lines as forced eager. The user's error, output and state are
those of the plain run: the continuation runs only code that cannot change anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import error_frames as _frames
from graph_runs import error_message as _message
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf


def test_cuts_behind_a_numpy_call_in_a_train_step_are_found(tmp_path: Path) -> None:
    path = _write(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = pred.numpy()
                picked = tf.argmax(host, axis=1)
                loss = tf.reduce_sum(tf.cast(picked, tf.float32) * y[:, 0])
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert type(graph.error) is type(plain.error) is AttributeError
    assert _message(graph.error) == _message(plain.error)
    assert _frames(graph.error) == _frames(plain.error)
    eager = run(path, force_eager=True)
    assert ("TM301", line_of(path, "host = pred.numpy()"), True) in graph.found
    assert any(rule != "TM301" and line == line_of(path, "picked = tf.argmax")
               for rule, line, _ in graph.found)
    assert graph.found == eager.found
    assert any("scratch graph" in note for note in graph.report.notes)


@pytest.mark.parametrize("effect", [
    'log.append("after")',
    'print("after the conversion")',
    "model.layers[0].kernel.assign(model.layers[0].kernel * 2.0)",
    "picked = helper(host)",
])
def test_code_with_effects_after_the_failing_line_is_never_run(tmp_path: Path,
                                                                effect: str) -> None:
    """Anything but assignments of TensorFlow calls ends the continuation, before it runs."""
    path = _write(tmp_path, f"""
        log = []
        def helper(value):
            log.append("helper")
            return tf.argmax(value, axis=1)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = pred.numpy()
                {effect}
                picked = tf.argmax(host, axis=1)
                loss = tf.reduce_sum(tf.cast(picked, tf.float32) * y[:, 0])
            return tape.gradient(loss, model.trainable_weights)
        try:
            g = step()
        except AttributeError:
            pass
        print("log:", log)
        kernel = model.layers[0].kernel.numpy()
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert graph.error is None and plain.error is None
    assert graph.stdout == plain.stdout == "log: []\n"
    assert (graph.ns["kernel"] == plain.ns["kernel"]).all()
    assert {(rule, line) for rule, line, _ in graph.found} == {
        ("TM301", line_of(path, "host = pred.numpy()"))}
    assert any("was not analysed" in note for note in graph.report.notes)


def test_a_caught_error_leaves_the_users_graph_and_random_numbers_alone(tmp_path: Path) -> None:
    """The scratch graph is not part of the function the user goes on to run."""
    path = _write(tmp_path, """
        def inner():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = pred.numpy()
                noisy = tf.random.normal((3,)) * tf.reduce_mean(host)
                loss = tf.reduce_sum(noisy)
            return tape.gradient(loss, model.trainable_weights)
        @tf.function
        def step():
            try:
                return inner()
            except AttributeError:
                return [tf.random.normal((2,))]
        tf.random.set_seed(7)
        first = step()[0].numpy()
        second = step()[0].numpy()
        ops = len(step.get_concrete_function().graph.get_operations())
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert graph.error is None and plain.error is None
    for name in ("first", "second"):
        assert (graph.ns[name] == plain.ns[name]).all()
    assert graph.ns["ops"] == plain.ns["ops"]
    assert ("TM301", line_of(path, "host = pred.numpy()"), True) in graph.found


def test_a_function_with_no_loss_after_the_failing_line_keeps_the_round_trip_alone(
        tmp_path: Path) -> None:
    path = _write(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = pred.numpy()
            return host
        step()
        """)
    graph = run(path, force_eager=False)
    assert isinstance(graph.error, AttributeError)
    assert {(rule, line) for rule, line, _ in graph.found} <= {
        ("TM301", line_of(path, "host = pred.numpy()"))}


@pytest.mark.parametrize("effect", [
    "mapped = tf.nest.map_structure(helper, host)",  # a callback: the user's code
    "mapped = tf.map_fn(helper, host)",
    "scaled = host * tracker.scale",  # a property of the user's
    "history += [tf.reduce_mean(host)]",  # the caller's list, extended in place
])
def test_callbacks_properties_and_in_place_updates_are_never_run(tmp_path: Path,
                                                                 effect: str) -> None:
    """Reading a user object or passing a callable runs the user's code: the line is not run."""
    path = _write(tmp_path, f"""
        log = []
        class Tracker:
            @property
            def scale(self):
                log.append("scale")
                return 2.0
        tracker = Tracker()
        def helper(value):
            log.append("helper")
            return value * 2.0
        def loss_of(pred, history):
            host = pred.numpy()
            {effect}
            picked = tf.argmax(host, axis=1)
            return tf.reduce_sum(tf.cast(picked, tf.float32) * y[:, 0])
        history = []
        @tf.function(autograph=False)
        def step():
            with tf.GradientTape() as tape:
                loss = loss_of(model(x), history)
            return tape.gradient(loss, model.trainable_weights)
        try:
            g = step()
        except AttributeError:
            pass
        print("log:", log, len(history))
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert graph.error is None and plain.error is None
    assert graph.stdout == plain.stdout == "log: [] 0\n"
    assert {(rule, line) for rule, line, _ in graph.found} == {
        ("TM301", line_of(path, "host = pred.numpy()"))}


@pytest.mark.parametrize("effect", [
    "noisy = host + keras.random.normal((8, 1))",  # creates Keras' global seed generator
    "generator = tf.random.get_global_generator()",
    "floatx = keras.config.set_floatx('float64')",
])
def test_tensorflow_and_keras_calls_with_global_state_are_never_run(tmp_path: Path,
                                                                    effect: str) -> None:
    """Only op functions run in the scratch graph: later random draws and settings are kept."""
    path = _write(tmp_path, f"""
        from tensorflow.python.ops import stateful_random_ops
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = pred.numpy()
                {effect}
                loss = tf.reduce_sum(host)
            return tape.gradient(loss, model.trainable_weights)
        try:
            step()
        except AttributeError:
            pass
        after = keras.random.normal((3,)).numpy()
        state = (keras.config.floatx(), stateful_random_ops.global_generator is None)
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert graph.error is None and plain.error is None
    assert (graph.ns["after"] == plain.ns["after"]).all()
    assert graph.ns["state"] == plain.ns["state"] == ("float32", True)


@pytest.mark.parametrize("before", ["pred = model(x)", "pred = model(x) * temp"])
def test_a_variable_read_after_the_failing_line_gets_no_false_warning(tmp_path: Path,
                                                                      before: str) -> None:
    """Forced eager gives ``temp`` a gradient (``host * temp``): graph mode must not call it cut."""
    path = _write(tmp_path, f"""
        temp = tf.Variable(1.5, name="temp")
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                {before}
                host = pred.numpy()
                loss = tf.reduce_sum(host * temp)
            return tape.gradient(loss, model.trainable_weights + [temp])
        try:
            step()
        except AttributeError:
            pass
        """)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    assert {(rule, line) for rule, line, _ in graph.found} == {
        (rule, line) for rule, line, _ in eager.found} == {
        ("TM301", line_of(path, "host = pred.numpy()"))}


def test_an_objects_own_attribute_is_read_and_the_cuts_behind_are_found(tmp_path: Path) -> None:
    """``self.scale`` stored in the instance is a plain read (a property would end the lines)."""
    path = _write(tmp_path, """
        class Scaler:
            def __init__(self):
                self.scale = 2.0
            def loss(self, pred):
                host = pred.numpy()
                picked = tf.argmax(host, axis=1)
                return tf.reduce_sum(tf.cast(picked, tf.float32)) * self.scale
        scaler = Scaler()
        @tf.function(autograph=False)
        def step():
            with tf.GradientTape() as tape:
                loss = scaler.loss(model(x))
            return tape.gradient(loss, model.trainable_weights)
        try:
            step()
        except AttributeError:
            pass
        """)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    assert graph.found == eager.found
    assert ("TM201", line_of(path, "picked = tf.argmax"), False) in graph.found


def test_a_loss_the_traced_lines_never_reach_is_not_taken_from_before_the_failing_line(
        tmp_path: Path) -> None:
    """The lines end at ``print``; ``loss`` then still holds ``tf.constant(0.0)``: no target."""
    path = _write(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.constant(0.0)
                pred = model(x)
                host = pred.numpy()
                picked = tf.argmax(host, axis=1)
                print("picked")
                loss = loss + tf.reduce_sum(tf.cast(picked, tf.float32))
            return tape.gradient(loss, model.trainable_weights)
        try:
            step()
        except AttributeError:
            pass
        """)
    graph = run(path, force_eager=False)
    assert {(rule, line) for rule, line, _ in graph.found} == {
        ("TM301", line_of(path, "host = pred.numpy()"))}
    assert any("was not analysed" in note for note in graph.report.notes)
    assert not any("scratch graph" in note for note in graph.report.notes)


@pytest.mark.parametrize("loss", [
    "tf.reduce_mean((pred - y) ** 2)",  # the host value is not used
    "tf.reduce_mean((pred - y) ** 2) + tf.reduce_mean(host)",  # used, next to a connected path
])
def test_a_loss_that_reaches_the_weights_another_way_is_not_continued(tmp_path: Path,
                                                                      loss: str) -> None:
    """Only the raised round-trip is reported: nothing behind it is cut, nothing unexplained."""
    path = _write(tmp_path, f"""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = pred.numpy()
                loss = {loss}
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """)
    graph = run(path, force_eager=False)
    assert isinstance(graph.error, AttributeError)
    assert {(rule, line) for rule, line, _ in graph.found} == {
        ("TM301", line_of(path, "host = pred.numpy()"))}
    assert not any("scratch graph" in note for note in graph.report.notes)
