"""Graph mode: a ``tf.py_function`` body that leaves TensorFlow, seen when the graph runs.

Traced, the py_function is one ``EagerPyFunc`` op with a registered gradient; its body runs on
a thread of TensorFlow's when the graph runs, and its own tape gives None for an input it
converted to NumPy (TensorFlow puts a scalar zero in its place: the step then fails on a shape,
far from the line, or trains nothing). The check must name the conversion of the input on the
weights' path (TM304), as ``--eager`` does, and say nothing when the body keeps the path.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

#: a traced step whose loss is ``body(model(x), y)`` in a py_function (append to its ``def``)
BODY_STEP = """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.py_function(body, [model(x), y], tf.float32)
            return tape.gradient(loss, model.trainable_weights)
        step()
        """

STEP = """
    import numpy as np
    def np_loss(pred, target):
        return np.mean((pred.numpy() - target.numpy()) ** 2).astype(np.float32)
    opt = tf.keras.optimizers.SGD(0.1)
    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.py_function(np_loss, [model(x), y], tf.float32)
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        return loss
    step()
    """

FIT = """
    import numpy as np
    def np_mse(y_true, y_pred):
        return np.mean((y_true.numpy() - y_pred.numpy()) ** 2, axis=-1).astype(np.float32)
    def custom_loss(y_true, y_pred):
        out = tf.py_function(np_mse, [y_true, y_pred], tf.float32)
        out.set_shape(y_true.shape[:-1])
        return out
    net = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                               tf.keras.layers.Dense(1)])
    net.compile(optimizer="sgd", loss=custom_loss)
    net.fit(np.random.rand(16, 3).astype("float32"), np.random.rand(16, 1).astype("float32"),
            epochs=1, verbose=0)
    """


def _tm304(result: object, path: Path) -> list[tuple[int, int | None]]:
    return [(f.location.line, f.location.col) for f in result.report.findings  # type: ignore[attr-defined]
            if f.rule == "TM304" and f.location and Path(f.location.file).name == path.name]


def test_a_traced_step_names_the_conversion_in_the_body(tmp_path: Path) -> None:
    """The step's backward pass fails on the zero's shape; the report says why, at the line."""
    path = _write(tmp_path, STEP)
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert type(graph.error) is type(plain.error)  # the user's exception, as without the check
    line = line_of(path, "pred.numpy()")
    col = path.read_text().splitlines()[line - 1].index("pred.numpy()")
    assert _tm304(graph, path) == [(line, col)]
    call = graph.report.gradient_calls[0]
    assert {s.verdict for s in call.sources} == {"severed"}
    assert {s.result for s in call.sources} == {"zero"}


@pytest.mark.parametrize("force_eager", [False, True], ids=["graph", "eager"])
def test_fit_with_a_numpy_loss_names_the_prediction_not_the_labels(
        tmp_path: Path, force_eager: bool) -> None:
    """`compile(loss=...)` with a py_function: the conversion of ``y_pred`` is the cut.

    The body converts ``y_true`` first: the input on the weights' path decides, in both modes.
    """
    path = _write(tmp_path, FIT)
    graph = run(path, force_eager=force_eager)
    line = line_of(path, "y_pred.numpy()")
    col = path.read_text().splitlines()[line - 1].index("y_pred.numpy()")
    assert _tm304(graph, path) == [(line, col)]
    fix = next(f.fix for f in graph.report.findings if f.rule == "TM304")
    assert fix is not None and fix.edits[0].text == "y_pred"  # then NumPy's mean, for TF's


@pytest.mark.parametrize("force_eager", [False, True], ids=["graph", "eager"])
def test_a_body_read_through_numpys_buffer_is_found_at_its_return(
        tmp_path: Path, force_eager: bool) -> None:
    """`np.asarray(tensor)` (SciPy, scikit-learn) reads the buffer: no hook sees it.

    The body hands back a NumPy value, which is the evidence: its ``return`` is the line.
    """
    path = _write(tmp_path, FIT.replace("y_true.numpy() - y_pred.numpy()",
                                        "np.asarray(y_true) - np.asarray(y_pred)"))
    graph = run(path, force_eager=force_eager)
    line = line_of(path, "np.asarray(y_true)")
    col = path.read_text().splitlines()[line - 1].index("return")
    assert _tm304(graph, path) == [(line, col)]  # the `return` statement
    assert {s.verdict for c in graph.report.gradient_calls for s in c.sources} == {"severed"}


def test_a_step_that_returns_its_zero_gradient_names_the_body(tmp_path: Path) -> None:
    """The gradient's value is known (zeros): the cause is still the body's conversion."""
    path = _write(tmp_path, """
        def root(s):
            return np.float32(np.sqrt(s.numpy()))
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.py_function(root, [tf.reduce_sum((model(x) - y) ** 2)], tf.float32)
            return tape.gradient(loss, model.trainable_weights)
        grads = step()
        """)
    graph = run(path, force_eager=False)
    line = line_of(path, "s.numpy()")
    assert _tm304(graph, path) == [(line, path.read_text().splitlines()[line - 1].index("s."))]


def test_numpy_ufunc_in_a_body_is_seen_on_tensorflows_thread(tmp_path: Path) -> None:
    """`np.tanh(tensor)` in a body runs NumPy's ufunc protocol off the recorded thread."""
    path = _write(tmp_path, """
        def body(pred, target):
            return tf.reduce_mean(tf.square(np.tanh(pred) - target))
        """ + BODY_STEP)
    graph = run(path, force_eager=False)
    line = line_of(path, "np.tanh(pred)")
    col = path.read_text().splitlines()[line - 1].index("np.tanh(pred)")
    assert _tm304(graph, path) == [(line, col)]


CORRECT = {
    # one helper wraps every host function in a py_function: one line, two bodies (Keras runs
    # a later trace than the one analysed, so a body is matched by line *and* function)
    "shared_helper_in_fit": """
        def on_host(fn, *xs):
            out = tf.py_function(fn, list(xs), tf.float32)
            out.set_shape(xs[0].shape)
            return out
        def np_scale(m):  # a loss scale picked on the host: a constant on purpose
            return np.float32(1.0 / max(abs(float(m.numpy())), 0.5))
        def tf_smooth_l1(p, t):
            d = tf.abs(p - t)
            return tf.where(d < 1.0, 0.5 * d * d, d - 0.5)
        def loss_fn(y_true, y_pred):
            s = on_host(np_scale, tf.reduce_mean(y_pred))
            per = on_host(tf_smooth_l1, y_pred, y_true)
            return s * tf.reduce_mean(per, axis=-1)
        net = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4),
                                   tf.keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss=loss_fn)
        net.fit(np.random.rand(64, 3).astype("float32"), np.random.rand(64, 1).astype("float32"),
                epochs=2, batch_size=16, verbose=0)
        """,
    # a py_function called inside a body: its gradient runs inside the outer one, same thread
    "py_function_inside_a_body": """
        def host_scale(m):
            return np.float32(1.0 / max(m.numpy(), 0.1))
        def body(pred, target):
            s = tf.py_function(host_scale, [tf.reduce_mean(tf.abs(target))], tf.float32)
            loss = s * tf.reduce_mean(tf.square(pred - target))
            print("loss", float(loss) > 0)
            return loss
        opt = tf.keras.optimizers.SGD(0.01)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.py_function(body, [model(x), y], tf.float32)
            grads = tape.gradient(loss, model.trainable_weights)
            opt.apply_gradients(zip(grads, model.trainable_weights))
            return loss
        step()
        """,
    # the body computes with TensorFlow: its tape keeps the path
    "tf_ops_body": """
        def body(pred, target):
            print("batch loss", float(tf.reduce_mean(target)))  # a log line, not the path
            return tf.reduce_mean((pred - target) ** 2)
        """ + BODY_STEP,
    # NumPy on the labels only: the prediction's path stays in TensorFlow
    "labels_on_host": """
        import numpy as np
        def smooth(target):
            return (target.numpy() * 0.9 + 0.05).astype(np.float32)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                soft = tf.py_function(smooth, [y], tf.float32)
                soft.set_shape(y.shape)
                loss = tf.reduce_mean((model(x) - soft) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        step()
        """,
    # one body, two inputs: the labels go through NumPy, the prediction stays in TensorFlow
    # (the body's tape gives None for the labels only)
    "labels_converted_in_the_body": """
        def body(pred, target):
            host = target.numpy()
            return tf.reduce_mean((pred - host) ** 2)
        """ + BODY_STEP,
    # a py_function in the input pipeline: no gradient goes through it
    "data_pipeline": """
        import numpy as np
        def scale(a):
            return (a.numpy() / 2).astype(np.float32)
        def prep(a, b):
            out = tf.py_function(scale, [a], tf.float32)
            out.set_shape(a.shape)
            return out, b
        data = tf.data.Dataset.from_tensor_slices(
            (np.random.rand(16, 3).astype("float32"), np.random.rand(16, 1).astype("float32")))
        net = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        net.compile(optimizer="sgd", loss="mse")
        net.fit(data.map(prep).batch(8), epochs=1, verbose=0)
        """,
}


@pytest.mark.parametrize("name", sorted(CORRECT))
def test_a_body_that_keeps_the_path_is_silent(tmp_path: Path, name: str) -> None:
    """No finding, every weight connected, the run's outcome unchanged."""
    path = _write(tmp_path, CORRECT[name])
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert plain.error is None and graph.error is None
    assert [f.rule for f in graph.report.findings if f.severity != "info"] == []
    assert graph.report.gradient_calls
    assert {s.verdict for c in graph.report.gradient_calls for s in c.sources} == {"connected"}


def test_the_patches_are_undone(tmp_path: Path) -> None:
    """The registry's call and the gradient's None-to-zero conversion are TensorFlow's again."""
    from tensorflow.python.ops import script_ops

    before = (script_ops.FuncRegistry.__dict__["__call__"],
              script_ops.EagerFunc.__dict__["_convert"])
    run(_write(tmp_path, STEP), force_eager=False)
    assert (script_ops.FuncRegistry.__dict__["__call__"],
            script_ops.EagerFunc.__dict__["_convert"]) == before
