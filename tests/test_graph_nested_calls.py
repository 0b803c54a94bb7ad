"""Graph mode: round-trips in nested tf.functions and in autograph's nested bodies.

Each cell raises at trace time in graph mode (the plain run raises the same). Forced eager
names the ``.numpy()`` line and the weights behind it; graph mode must name no other weights
and no other rule (precision first: it may say less, never something eager contradicts), at
the user's line, never at a line of autograph's generated copy.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

OTHER = """
model2 = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="other")])
"""


def _findings(result: object) -> set[tuple[str, str, int, tuple[str, ...]]]:
    """(rule, file name, line, weights without their model's prefix) of every finding."""
    return {(f.rule, Path(f.location.file).name if f.location else "", f.location.line
             if f.location else 0, tuple(sorted(v.split("/", 1)[-1] for v in f.variables)))
            for f in result.report.findings}  # type: ignore[attr-defined]


CONNECTED_ELSEWHERE = {
    # `model`'s weights were watched before the round-trip and reach the loss after it
    "flat": """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                q = model(x)
                host = model2(x).numpy()
                loss = tf.reduce_sum(host) + tf.reduce_sum(q)
            return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
        step()
        """,
    "helper": """
        def loss_of(p, q):
            host = p.numpy()
            return tf.reduce_sum(host) + tf.reduce_sum(q)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = loss_of(model2(x), model(x))
            return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
        step()
        """,
    "nested tf.function": """
        @tf.function
        def loss_of(p, q):
            host = p.numpy()
            return tf.reduce_sum(host) + tf.reduce_sum(q)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = loss_of(model2(x), model(x))
            return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
        step()
        """,
    "three levels, arguments swapped": """
        @tf.function
        def inner(p, q):
            host = p.numpy()
            return tf.reduce_sum(host) + tf.reduce_sum(q)
        @tf.function
        def middle(a, b):
            return inner(b, a)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = middle(model(x), model2(x))
            return tape.gradient(loss, model.trainable_weights + model2.trainable_weights)
        step()
        """,
}


@pytest.mark.parametrize("case", sorted(CONNECTED_ELSEWHERE))
def test_weights_that_reach_the_loss_another_way_are_not_called_cut(
        tmp_path: Path, case: str) -> None:
    """Only ``model2``'s weights are behind the ``.numpy()``; ``model``'s get gradients."""
    path = _write(tmp_path, OTHER + textwrap.dedent(CONNECTED_ELSEWHERE[case]))
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    assert type(graph.error) is type(plain.error) is AttributeError
    expected = {("TM301", path.name, line_of(path, ".numpy()"),
                 ("other/bias", "other/kernel"))}
    assert _findings(eager) == expected
    assert _findings(graph) == expected


MISALIGNED = {
    # the nested function's inputs do not line up one to one with its tensor arguments
    "ragged first": ("rag = tf.ragged.constant([[1.0, 2.0], [3.0]])", "loss_of(rag, model(x))"),
    "array first": ("rag = np.ones((8, 1), np.float32)", "loss_of(rag, model(x))"),
}


@pytest.mark.parametrize("case", sorted(MISALIGNED))
def test_a_nested_call_whose_arguments_do_not_line_up_names_nothing_wrong(
        tmp_path: Path, case: str) -> None:
    """Tying ``model(x)`` to the first input (the ragged values) made a TM104 of it."""
    setup, call = MISALIGNED[case]
    path = _write(tmp_path, f"""
        {setup}
        @tf.function
        def loss_of(r, pred):
            host = pred.numpy()
            return tf.reduce_sum(host) + tf.reduce_sum(r)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = {call}
            return tape.gradient(loss, model.trainable_weights)
        step()
        """)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    assert isinstance(graph.error, AttributeError)
    assert _findings(graph) <= _findings(eager)
    assert {f.rule for f in eager.report.findings} == {"TM301"}


BODIES = {
    "for": ("""
        def loss_of(pred):
            total = 0.0
            for i in range(2):
                total = total + pred.numpy()
            return tf.reduce_sum(total)
        """, "loss_of"),
    "if": ("""
        def loss_of(pred, host_side=True):
            if host_side:
                pred = pred.numpy()
            return tf.reduce_sum(pred)
        """, "loss_of"),
    "lambda": ("""
        to_host = lambda t: t.numpy()
        """, "lambda p: tf.reduce_sum(to_host(p))"),
}


@pytest.mark.parametrize("case", sorted(BODIES))
def test_a_round_trip_in_autographs_nested_body_is_placed_at_the_users_line(
        tmp_path: Path, case: str) -> None:
    """Loop and ``if`` bodies and lambdas are functions nested in autograph's copy."""
    helper, call = BODIES[case]
    path = _write(tmp_path, helper + f"""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = ({call})(model(x))
            return tape.gradient(loss, model.trainable_weights)
        step()
        """)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    where = (path.name, line_of(path, ".numpy()"))
    assert [(r, f, n) for r, f, n, _ in _findings(eager)] == [("TM301", *where)]
    assert [(r, f, n) for r, f, n, _ in _findings(graph)] == [("TM301", *where)]
    located = graph.report.exception.location  # type: ignore[union-attr]
    assert located is not None
    assert (Path(located.file).name, located.line) == where


def test_a_round_trip_on_a_completed_nested_calls_output_is_named_as_eager_names_it(
        tmp_path: Path) -> None:
    """``forward``'s call output is joined to its graph only when an op consumes it."""
    path = _write(tmp_path, """
        @tf.function
        def forward(inp):
            return model(inp)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = forward(x)
                host = pred.numpy()
                loss = tf.reduce_sum(host)
            return tape.gradient(loss, model.trainable_weights)
        step()
        """)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    assert isinstance(graph.error, AttributeError)
    expected = {("TM301", path.name, line_of(path, "host = pred.numpy()"),
                 ("a/bias", "a/kernel", "b/bias", "b/kernel"))}
    assert _findings(eager) == expected
    assert _findings(graph) == expected


def test_a_later_error_is_not_placed_at_an_earlier_caught_round_trip(tmp_path: Path) -> None:
    """``step``'s round-trip was caught; the cell then fails in ``predict``, not in ``step``."""
    path = _write(tmp_path, """
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(x).numpy())
            return tape.gradient(loss, model.trainable_weights)
        try:
            step()
        except AttributeError:
            pass
        @tf.function
        def predict():
            return model(x).numpy()
        predict()
        """)
    graph = run(path, force_eager=False)
    assert isinstance(graph.error, AttributeError)
    located = graph.report.exception.location  # type: ignore[union-attr]
    assert located is not None
    call = len(path.read_text().splitlines())  # the cell's last line: predict()
    assert located.line in {line_of(path, "return model(x).numpy()"), call}


NESTED_TARGET = """
    @tf.function
    def inner(total):
        return {body}
    @tf.function
    def outer():
        with tf.GradientTape() as tape:
            loss = inner(tf.reduce_sum((model(x) - y) ** 2))
        return tape.gradient(loss, model.trainable_weights)
    grads = outer()
    """


@pytest.mark.parametrize(("body", "rule", "needle"), [
    ("tf.round(total)", "TM201", "tf.round(total)"),
    ("tf.py_function(lambda t: np.float32(t.numpy() ** 0.5), [total], tf.float32)", "TM304",
     "t.numpy()"),
])
def test_a_nested_calls_result_taken_as_the_target_is_linked_to_its_body(
        tmp_path: Path, body: str, rule: str, needle: str) -> None:
    """`loss = inner(...)`: no recorded op consumes the call's result before the gradient.

    The call op is not reported to op callbacks, so the result was a new leaf: TM104 ("the
    target does not depend on") instead of the cut inside the body. Linked as the tape stops
    recording, the graph-mode finding is forced eager's.
    """
    path = _write(tmp_path, NESTED_TARGET.format(body=body))
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    where = (rule, path.name, line_of(path, needle))
    assert {f[:3] for f in _findings(graph)} == {where}
    assert {f[:3] for f in _findings(eager)} == {where}


def test_a_nested_calls_result_taken_as_the_target_of_correct_code_is_connected(
        tmp_path: Path) -> None:
    """The same shape with a differentiable body: every weight connected, no finding."""
    path = _write(tmp_path, NESTED_TARGET.format(body="tf.sqrt(total)"))
    graph = run(path, force_eager=False)
    assert not graph.report.findings
    assert {s.verdict for c in graph.report.gradient_calls for s in c.sources} == {"connected"}
