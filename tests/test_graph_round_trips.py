"""Graph mode: a host round-trip one call deeper than the tf.function is named at its line.

Both cells below raise at trace time in graph mode; forced eager names the ``.numpy()`` line.
Graph mode must name the same rule at the same line of the user's file (not of autograph's
generated copy) and say where tracing stopped, not that nothing ran.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf


@pytest.mark.parametrize("decorator", ["", "@tf.function"])
def test_a_round_trip_in_a_function_called_by_the_traced_one_is_named_at_its_line(
        tmp_path: Path, decorator: str) -> None:
    """A helper autograph converts, or a nested tf.function, holds the ``.numpy()``."""
    path = _write(tmp_path, f"""
        {decorator}
        def loss_of(pred):
            host = pred.numpy()
            return tf.reduce_sum(host)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = loss_of(model(x))
            return tape.gradient(loss, model.trainable_weights)
        try:
            step()
        except AttributeError:
            pass
        """)
    eager = run(path, force_eager=True)
    graph = run(path, force_eager=False)
    where = (path.name, line_of(path, "host = pred.numpy()"))
    assert any("`.numpy()` on a symbolic tensor raises AttributeError" in note
               for note in eager.report.notes)
    assert [(Path(f.location.file).name, f.location.line) for f in eager.report.findings
            if f.rule == "TM301" and f.location] == [where]
    assert [(Path(f.location.file).name, f.location.line) for f in graph.report.findings
            if f.rule == "TM301" and f.location] == [where]


@pytest.mark.parametrize("decorator", ["", "@tf.function"])
def test_the_exception_is_placed_at_the_users_line_not_autographs_copy(
        tmp_path: Path, decorator: str) -> None:
    """The report's exception points where the code failed, as the finding does."""
    path = _write(tmp_path, f"""
        {decorator}
        def loss_of(pred):
            host = pred.numpy()
            return tf.reduce_sum(host)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = loss_of(model(x))
            return tape.gradient(loss, model.trainable_weights)
        step()
        """)
    graph = run(path, force_eager=False)
    assert isinstance(graph.error, AttributeError)
    where = graph.report.exception.location  # type: ignore[union-attr]
    assert where is not None
    assert (Path(where.file).name, where.line) == (path.name, line_of(path, "host = pred.numpy()"))


@pytest.mark.parametrize("loss", [
    "ops.mean(ops.convert_to_tensor(np.abs(ops.convert_to_numpy(y_pred) - y_true)))",
    "ops.mean(ops.minimum(ops.abs(y_true - y_pred), "
    "np.percentile(ops.convert_to_numpy(ops.abs(y_true - y_pred)), 90)))",
], ids=["numpy-loss", "percentile-threshold"])
def test_keras_convert_to_numpy_in_a_compiled_loss_is_named_in_graph_mode(
        tmp_path: Path, loss: str) -> None:
    """Keras 3 issues: a loss calls ``keras.ops.convert_to_numpy`` and ``fit`` fails tracing.

    Its ``np.array(x)`` runs in Keras' backend, not in the user's frame: the API the user
    called is named, at the line that called it, as forced eager names it.
    """
    path = _write(tmp_path, f"""
        from keras import ops
        def robust_loss(y_true, y_pred):
            return {loss}
        model.compile(optimizer="sgd", loss=robust_loss)
        try:
            model.fit(x, y, epochs=1, verbose=0)
        except NotImplementedError:
            pass
        """)
    graph = run(path, force_eager=False)
    found = [(f.rule, f.api, f.location.line) for f in graph.report.findings if f.location]
    assert found == [("TM301", "keras.ops.convert_to_numpy", line_of(path, "return "))]
    # forced eager says how graph mode fails there: not with `.numpy()`'s AttributeError
    (note,) = [n for n in run(path, force_eager=True).report.notes if "fails earlier" in n]
    assert f"`keras.ops.convert_to_numpy` at {path}:{line_of(path, 'return ')}" in note
    assert "AttributeError" not in note


@pytest.mark.parametrize("force_eager", [False, True], ids=["graph", "eager"])
def test_a_new_variable_from_a_computed_value_is_named_as_written(tmp_path: Path,
                                                                   force_eager: bool) -> None:
    """`tf.Variable(model(x))` cuts at the constructor, and the finding says so.

    It said `Variable.assign`, which the user never wrote (the variable's metaclass ran it).
    """
    path = _write(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                held = tf.Variable(model(x))
                loss = tf.reduce_mean((held - y) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        step()
        """ if not force_eager else """
        with tf.GradientTape() as tape:
            held = tf.Variable(model(x))
            loss = tf.reduce_mean((held - y) ** 2)
        grads = tape.gradient(loss, model.trainable_weights)
        """)
    result = run(path, force_eager=force_eager)
    found = [(f.rule, f.api, f.location.line) for f in result.report.findings if f.location]
    assert found == [("TM402", "tf.Variable", line_of(path, "held = tf.Variable("))]
