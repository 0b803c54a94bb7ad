"""``tf.function``, ``Model.fit``, top-level ``await`` and IPython's cell options, checked.

Every behaviour test runs the same cell twice in the one shared shell, once plain and once under
``%%gradcheck``, and compares what the user sees. The ``run_cell`` fixture (tests/conftest.py)
also checks after each test that every patch tapemagic installs was undone.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.report.model import MIME_TYPE
from tests.cells import magic, single_report

pytestmark = pytest.mark.tf


def test_tf_function_returns_the_same_values(run_cell, shell) -> None:
    body = textwrap.dedent("""\
        @tf.function
        def step(x, k):
            y = tf.zeros_like(x)
            for i in tf.range(k):
                y += x * tf.cast(i, tf.float32)
            return tf.reduce_sum(y), y
        out = step(tf.constant([1.0, 2.0]), tf.constant(4))
        """)
    run_cell(body)
    expected = shell.user_ns["out"]
    assert run_cell(magic(body)).error is None
    got = shell.user_ns["out"]
    assert repr(got) == repr(expected)


TRACE_SIDE_EFFECT = textwrap.dedent("""\
    @tf.function
    def f(x):
        print("python side effect")
        return x + 1.0
    values = [float(f(tf.constant(v))) for v in (1.0, 2.0, 3.0)]
    """)


def test_tf_function_python_side_effects_unchanged(run_cell, shell) -> None:
    plain = run_cell(TRACE_SIDE_EFFECT)
    traced = run_cell(magic(TRACE_SIDE_EFFECT))
    assert shell.user_ns["values"] == [2.0, 3.0, 4.0]
    assert traced.normalized_stdout() == plain.normalized_stdout()


def test_graph_mode_keeps_tf_function_side_effects(run_cell, shell) -> None:
    plain = run_cell(TRACE_SIDE_EFFECT)
    traced = run_cell(magic(TRACE_SIDE_EFFECT, "--graph-mode"))
    assert plain.stdout.count("python side effect") == 1
    assert traced.normalized_stdout() == plain.normalized_stdout()
    assert shell.user_ns["values"] == [2.0, 3.0, 4.0]


def test_model_fit_trains_under_the_magic(run_cell, shell) -> None:
    body = textwrap.dedent("""\
        keras.utils.set_random_seed(0)
        x = np.random.rand(64, 3).astype("float32")
        y = x @ np.array([[1.0], [2.0], [3.0]], dtype="float32")
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        history = model.fit(x, y, epochs=3, batch_size=16, verbose=0).history["loss"]
        """)
    plain = run_cell(body)
    expected = shell.user_ns["history"]
    traced = run_cell(magic(body, "rep"))
    assert traced.error is None, traced.stdout
    losses = shell.user_ns["history"]
    assert losses[-1] < losses[0]
    assert losses == pytest.approx(expected, rel=1e-5)
    assert "run_functions_eagerly" not in traced.stderr
    assert set(traced.stderr.splitlines()) <= set(plain.stderr.splitlines())
    rep = shell.user_ns["rep"]
    assert rep.codes == [] and rep.gradient_calls and rep.gradient_calls[0].keras_fit


def test_numpy_function_works(run_cell, shell) -> None:
    body = ("v = tf.constant([1.0, 2.0])\n"
            "out = tf.numpy_function(lambda a: np.sort(a)[::-1] * 2, [v], tf.float32)\n")
    run_cell(body)
    expected = repr(shell.user_ns["out"])
    assert run_cell(magic(body)).error is None
    assert repr(shell.user_ns["out"]) == expected


def test_top_level_await_works(run_cell) -> None:
    body = "import asyncio\nawait asyncio.sleep(0)\n'done'\n"
    assert run_cell(body).value == "done"
    traced = run_cell(magic(body))
    assert traced.error is None and traced.value == "done"


def test_top_level_await_with_a_tape_gives_the_report(run_cell, shell) -> None:
    body = ("import asyncio\nw = tf.Variable([1.0, 2.0])\nawait asyncio.sleep(0)\n"
            "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(tf.round(w))\n"
            "await asyncio.sleep(0)\ngrads = tape.gradient(loss, [w])\ngrads\n")
    plain = run_cell(body)
    traced = run_cell(magic(body, "rep"))
    assert plain.error is None and traced.error is None, traced.stdout
    assert traced.value == plain.value == [None]
    rep = single_report(traced)
    assert rep.codes == ["TM201"] and shell.user_ns["rep"].codes == ["TM201"]
    assert [f.location.line for f in rep.findings] == [6]  # the tf.round line, %%gradcheck is 1


def test_top_level_await_error_and_semicolon(run_cell) -> None:
    body = "import asyncio\nawait asyncio.sleep(0)\nraise ValueError('late')\n"
    plain, traced = run_cell(body), run_cell(magic(body))
    assert type(traced.error) is type(plain.error) is ValueError
    assert traced.events == ["traceback", "display"]
    quiet = "import asyncio\nawait asyncio.sleep(0)\n41 + 1;\n"
    plain, traced = run_cell(quiet), run_cell(magic(quiet))
    assert plain.value is None and traced.value is None
    assert traced.normalized_stdout() == plain.normalized_stdout()


def test_await_transformer_leaves_other_cells_alone(shell) -> None:
    assert shell.transform_cell("%%gradcheck\nx = 1\n").startswith(
        "get_ipython().run_cell_magic('gradcheck'")
    assert shell.transform_cell("%%gradcheck rep\nawait f()\n").startswith("await ")
    assert shell.transform_cell("%%time\nawait f()\n").startswith(
        "get_ipython().run_cell_magic('time'")
    shell.autoawait = False
    try:
        assert not shell.transform_cell("%%gradcheck\nawait f()\n").startswith("await ")
    finally:
        shell.autoawait = True


@pytest.mark.parametrize("mode", ["all", "last_expr_or_assign", "none", "last"])
def test_ast_node_interactivity_modes_and_semicolon(run_cell, shell, mode: str) -> None:
    shell.ast_node_interactivity = mode
    try:
        for body in ("1\nx = 2\nx + 1\n", "1\n2;\n", "y = 5\n", "print('p')\n3\n"):
            plain = run_cell(body)
            traced = run_cell(magic(body))
            assert traced.normalized_stdout() == plain.normalized_stdout(), (mode, body)
            assert traced.value == plain.value, (mode, body)
    finally:
        shell.ast_node_interactivity = "last_expr"


def test_eager_flag_forces_eager_mode(run_cell, shell) -> None:
    body = ("w = tf.Variable([1.0, 2.0])\n@tf.function\ndef step():\n"
            "    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(tf.round(w))\n"
            "    return tape.gradient(loss, [w])\nout = step()\n")
    assert run_cell(magic(body, "rep --eager")).error is None
    eager = shell.user_ns["rep"]
    assert eager.mode == "forced-eager" and eager.codes == ["TM201"]
    assert run_cell(magic(body, "rep --graph-mode")).error is None
    assert shell.user_ns["rep"].mode == "graph"


def test_ast_node_interactivity_is_honoured(run_cell, shell) -> None:
    shell.ast_node_interactivity = "all"
    try:
        plain = run_cell("1\n2\n")
        traced = run_cell(magic("1\n2\n"))
    finally:
        shell.ast_node_interactivity = "last_expr"
    assert traced.normalized_stdout() == plain.normalized_stdout()


def test_ast_transformers_are_applied(run_cell, shell) -> None:
    import ast

    class IntToFloat(ast.NodeTransformer):
        def visit_Constant(self, node: ast.Constant) -> ast.AST:
            if type(node.value) is int:
                return ast.copy_location(ast.Constant(float(node.value)), node)
            return node

    transformer = IntToFloat()
    shell.ast_transformers.append(transformer)
    try:
        plain = run_cell("7")
        traced = run_cell(magic("7"))
    finally:
        shell.ast_transformers.remove(transformer)
    assert repr(plain.value) == "7.0"
    assert repr(traced.value) == repr(plain.value)


@pytest.mark.slow
def test_top_level_await_in_a_real_kernel(tmp_path) -> None:
    # ipykernel runs an awaiting cell on its own running loop (not IPython's loop_runner): the
    # input transformer must make the %%gradcheck cell awaitable there too.
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("%load_ext tapemagic\nimport asyncio\nimport tensorflow as tf"),
        nbformat.v4.new_code_cell(
            "%%gradcheck rep\nw = tf.Variable([1.0, 2.0])\nawait asyncio.sleep(0.01)\n"
            "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(tf.round(w))\n"
            "grads = tape.gradient(loss, [w])\n'done'"),
        nbformat.v4.new_code_cell("rep.codes"),
    ]
    nbclient.NotebookClient(notebook, timeout=240, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = notebook.cells[1].outputs
    assert [o["output_type"] for o in outputs] == ["execute_result", "display_data"]
    assert outputs[0]["data"]["text/plain"] == "'done'"
    assert MIME_TYPE in outputs[1]["data"]
    assert notebook.cells[2].outputs[0]["data"]["text/plain"] == "['TM201']"
