"""Graph mode across calls and failures: retraces, run-time branches, host round-trips, seeds.

Each cell is a real file run through ``tapemagic.gradcheck`` as written and forced eager (or
plainly): a function traced once serves every call, a branch cut at run time is seen in the
gradient returned, a function traced before the check is opaque, and a host round-trip on a
symbolic tensor fails at trace time with the error and traceback it has without tapemagic.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import DEMO, line_of, run
from graph_runs import error_frames as _frames
from graph_runs import error_message as _message
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf


def test_traced_once_serves_every_call_and_a_retrace_is_noted(tmp_path: Path) -> None:
    path = _write(tmp_path, """
        @tf.function
        def step(inputs):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.round(model(inputs)))
            return tape.gradient(loss, model.trainable_weights)
        for _ in range(3):
            step(x)
        step(tf.random.normal((2, 4)))  # another shape: TensorFlow traces it again
        """)
    graph = run(path, force_eager=False)
    assert set(graph.report.codes) == {"TM201"}
    (call,) = graph.report.gradient_calls
    assert call.calls == 2  # two traces of the one call site; the first was analysed
    assert any("traced 2 times" in note for note in graph.report.notes)
    # the step computed its own gradients' facts (probes.py): nothing was left unseen
    assert not any("symbolic when it is traced" in note for note in graph.report.notes)


def test_a_branch_cut_zero_at_run_time_is_seen_in_the_returned_gradient(tmp_path: Path) -> None:
    path = _write(tmp_path, """
        v = tf.Variable([1.0, 2.0], name="v")
        @tf.function
        def step(inputs):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(v * inputs)
                if loss > 0:  # autograph: tf.cond; the branch taken rounds
                    loss = tf.round(loss)
                else:
                    loss = loss * 2.0
            return tape.gradient(loss, v)
        g = step(tf.constant([1.0, 1.0]))
        """)
    graph = run(path, force_eager=False)
    assert graph.error is None and graph.ns["g"].numpy().tolist() == [0.0, 0.0]
    (call,) = graph.report.gradient_calls
    # the trace has a differentiable branch: connected, and its first run returned zeros
    assert [(s.result, s.verdict) for s in call.sources] == [("zero", "zero")]
    assert graph.report.codes == []


def test_cuts_in_both_branches_of_a_traced_if_are_named(tmp_path: Path) -> None:
    path = _write(tmp_path, """
        v = tf.Variable([1.0, 2.0], name="v")
        @tf.function
        def step(inputs):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(v * inputs)
                if loss > 0:
                    loss = tf.round(loss)
                else:
                    loss = tf.floor(loss)
            return tape.gradient(loss, v)
        g = step(tf.constant([1.0, 1.0]))
        """)
    graph = run(path, force_eager=False)
    assert graph.ns["g"] is None
    assert {(f.rule, f.location.line, f.api) for f in graph.report.findings} == {
        ("TM201", line_of(path, "tf.round("), "tf.round"),
        ("TM201", line_of(path, "tf.floor("), "tf.floor")}
    eager = run(path, force_eager=True)  # eagerly only the branch taken is seen (and the if)
    assert ("TM201", line_of(path, "tf.round("), True) in eager.found


def test_function_traced_before_the_check_is_opaque_not_guessed(tmp_path: Path) -> None:
    path = _write(tmp_path, """
        import tapemagic
        @tf.function
        def loss_fn(inputs):
            return tf.reduce_sum(tf.round(model(inputs)))
        loss_fn(x)  # traced here, before the check
        with tapemagic.gradcheck(force_eager=False) as inner:
            with tf.GradientTape() as tape:
                loss = loss_fn(x)
            g = tape.gradient(loss, model.trainable_weights)
        """)
    plain = run(path, force_eager=False, traced=False)
    report = plain.ns["inner"].report
    assert plain.error is None
    assert report.codes == ["TM106"]  # None with no cut seen: unexplained, never a guess
    assert any("traced before this check" in note for note in report.notes)


# -- host round-trips on symbolic tensors fail at trace time -------------------------------------

@pytest.mark.parametrize("conversion, error_type", [
    ("pred.numpy()", AttributeError),
    ("np.sqrt(pred)", NotImplementedError),
    ("tf.keras.backend.eval(pred)", AttributeError),
])
def test_round_trip_in_a_function_is_named_and_the_error_is_unchanged(
        tmp_path: Path, conversion: str, error_type: type) -> None:
    path = _write(tmp_path, f"""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
                host = {conversion}
                loss = tf.reduce_mean((tf.constant(host) - y) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert type(graph.error) is type(plain.error) is error_type
    assert _message(graph.error) == _message(plain.error)
    assert _frames(graph.error) == _frames(plain.error)
    (finding,) = graph.report.findings
    assert (finding.rule, finding.primary) == ("TM301", True)
    assert finding.location.line == line_of(path, "host = ")
    assert finding.api == {"pred.numpy()": ".numpy()", "np.sqrt(pred)": "np.sqrt",
                           "tf.keras.backend.eval(pred)": "tf.keras.backend.eval"}[conversion]
    assert {v.split("/", 1)[1] for v in finding.variables} == {
        "a/kernel", "a/bias", "b/kernel", "b/bias"}
    (call,) = graph.report.gradient_calls
    assert {s.verdict for s in call.sources} == {"severed"}
    assert graph.report.exception is not None and graph.report.exception.explanation
    assert any("Tracing stopped at" in note for note in graph.report.notes)


def test_float_of_a_tensor_in_a_keras_loss_is_named_and_the_error_is_unchanged(
        tmp_path: Path) -> None:
    path = _write(tmp_path, """
        def scaled_loss(y_true, y_pred):
            mean = tf.reduce_mean(y_pred)
            scale = float(mean)
            return tf.reduce_mean(y_true) * scale
        model.compile(optimizer="sgd", loss=scaled_loss)
        model.fit(x, y, epochs=1, batch_size=4, verbose=0)
        """)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert type(graph.error) is type(plain.error) is TypeError
    assert str(graph.error) == str(plain.error)
    assert _frames(graph.error) == _frames(plain.error)
    (finding,) = graph.report.findings
    assert (finding.rule, finding.api) == ("TM301", "float()")
    assert finding.location.line == line_of(path, "scale = float(mean)")
    assert graph.report.exception.explanation  # type: ignore[union-attr]
    eager = run(path, force_eager=True)
    assert ("TM301", finding.location.line, True) in eager.found


# -- the seeds -----------------------------------------------------------------------------------

@pytest.mark.parametrize("script", ["seed000_numpy_in_loss.py", "seed002_hypernetwork_assign.py"])
def test_eager_seeds_give_the_same_findings_in_both_modes(script: str) -> None:
    graph = run(DEMO / script, force_eager=False)
    eager = run(DEMO / script, force_eager=True)
    assert graph.found == eager.found and graph.found
    assert graph.report.mode == eager.report.mode == "eager"  # no function in these seeds


def test_seed004_fit_in_graph_mode(tmp_path: Path) -> None:
    """fit as written stops at the eval line; the cuts behind it are still found, as eagerly."""
    script = DEMO / "seed004_fit_argsort_sets.py"
    plain = run(script, force_eager=False, traced=False)
    graph = run(script, force_eager=False)
    assert isinstance(graph.error, AttributeError)  # what the user's fit raises, unchanged
    assert str(graph.error) == str(plain.error)
    assert _frames(graph.error) == _frames(plain.error)
    report = graph.report
    assert report.mode == "graph"
    primary = [f for f in report.findings if f.primary]
    assert [(f.rule, f.api) for f in primary] == [("TM301", "tf.keras.backend.eval")]
    assert primary[0].location.line == line_of(script, "tf.keras.backend.eval(bt)")
    (call,) = report.gradient_calls
    assert call.keras_fit and len(call.sources) == 4
    assert {s.verdict for s in call.sources} == {"severed"}
    assert {s.variable.split("/", 1)[1] for s in call.sources} == {
        "features/kernel", "features/bias", "scores/kernel", "scores/bias"}
    assert report.exception is not None and report.exception.type == "AttributeError"
    assert report.exception.explanation
    assert report.headline.startswith("The fit train step at"), report.headline
    # argsort and sets come after the failing line: traced on past it in a scratch graph
    assert any("Tracing stopped at" in note and "scratch graph" in note for note in report.notes)
    eager = run(script, force_eager=True)
    assert set(eager.report.codes) == {"TM301", "TM202", "TM201"}
    assert graph.found == eager.found
    ops = {(f.rule, f.op_type, f.location.line) for f in report.findings}
    assert ops == {(f.rule, f.op_type, f.location.line) for f in eager.report.findings}
