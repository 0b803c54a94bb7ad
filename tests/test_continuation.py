"""Graph mode: the cuts behind a host round-trip that raised at trace time are still found.

A ``.numpy()`` on a symbolic tensor stops the trace at its line; the statements after it are
traced in a scratch graph that never runs (``tapemagic.tracing.continuation``), so graph mode
names the same cuts at the same lines as forced eager. The user's error, output and state are
those of the plain run: the continuation runs only code that cannot change anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_graph_mode import _frames, _message, _write, line_of, run

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
