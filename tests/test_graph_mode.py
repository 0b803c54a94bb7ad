"""Graph mode: tf.function and Keras fit run as written and are analysed from their traces.

Each cell is written to a real file (autograph reads the source of the functions it converts,
as it does for notebook cells) and run twice through ``tapemagic.gradcheck``: as written
(``force_eager=False``) and forced eager. The findings must be the same rules at the same
lines; the cell must behave as without tapemagic (values, prints, exceptions, tracebacks).
"""

from __future__ import annotations

import textwrap
import traceback
from pathlib import Path
from typing import Any

import pytest

import tapemagic
from tapemagic.report.model import Report
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf
DEMO = Path(__file__).resolve().parent.parent / "demo"

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
"""


class Run:
    """One run of a cell file: its report, namespace, exception and printed output."""

    def __init__(self, report: Report, namespace: dict[str, Any], error: BaseException | None,
                 stdout: str) -> None:
        self.report = report
        self.ns = namespace
        self.error = error
        self.stdout = stdout

    @property
    def found(self) -> set[tuple[str, int, bool]]:
        """(rule, line, primary) of every finding."""
        return {(f.rule, f.location.line if f.location else 0, f.primary)
                for f in self.report.findings}

    @property
    def exact(self) -> list[tuple[object, ...]]:
        """Every finding's rule, span, API, op and quick-fix edits, in report order.

        (A traced tf.numpy_function is a PyFunc op; run eagerly it runs no op: no op type.)
        """
        return [(f.rule, f.primary, f.api, f.op_type if f.rule != "TM302" else None,
                 (f.location.line, f.location.col, f.location.end_line, f.location.end_col)
                 if f.location else None,
                 tuple((e.line, e.col, e.end_line, e.end_col, e.text)
                       for e in (f.fix.edits if f.fix else ())))
                for f in self.report.findings]


def _write(tmp_path: Path, cell: str, name: str = "cell.py") -> Path:
    path = tmp_path / name
    path.write_text(SETUP + textwrap.dedent(cell))
    return path


def run(path: Path, force_eager: bool, traced: bool = True) -> Run:
    """Execute ``path`` (optionally under gradcheck) and capture what happened."""
    import contextlib
    import io

    namespace: dict[str, Any] = {"__name__": "__main__"}
    code = compile(path.read_text(), str(path), "exec")
    out = io.StringIO()
    error = None
    check = None
    with contextlib.redirect_stdout(out):
        try:
            if traced:
                with tapemagic.gradcheck(force_eager=force_eager) as check:
                    exec(code, namespace)  # noqa: S102
            else:
                exec(code, namespace)  # noqa: S102
        except Exception as raised:  # noqa: BLE001 - what the cell raises is compared
            error = raised
    report = check.report if check is not None else None
    if traced:
        assert report is not None
        validate_report(report.to_json())
    return Run(report, namespace, error, out.getvalue())  # type: ignore[arg-type]


def line_of(path: Path, needle: str) -> int:
    """Return the 1-based line of the file that contains ``needle``."""
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


# -- the same findings at the same lines as forced eager -------------------------------------

IN_FUNCTION = {
    "round": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.round(model(x)) - y) ** 2
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM201"}, "tf.round("),
    "argmax": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                idx = tf.argmax(model(x), axis=0)
                loss = tf.reduce_sum(tf.cast(idx, tf.float32))
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM201"}, "tf.argmax("),
    "int cast": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.cast(tf.cast(model(x) * 10, tf.int32), tf.float32))
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM202"}, "tf.int32"),
    "stop_gradient": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((tf.stop_gradient(model(x)) - y) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM401"}, "tf.stop_gradient("),
    "loss after the with block": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)
            loss = tf.reduce_mean((pred - y) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM103"}, "loss = tf.reduce_mean"),
    "forward pass before the with block": ("""
        @tf.function
        def step(inputs):
            pred = model(inputs, training=True)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((pred - y) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        g = step(x)
        """, {"TM103"}, "pred = model(inputs"),
    "weight never used": ("""
        unused = tf.Variable(1.0, name="unused")
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            return tape.gradient(loss, model.trainable_weights + [unused])
        g = step()
        """, {"TM104"}, "unused = tf.Variable"),
    "numpy_function": ("""
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                z = tf.numpy_function(lambda a: a * 2, [model(x)], tf.float32)
                loss = tf.reduce_sum(z)
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM302"}, "tf.numpy_function("),
    "sets in a nested function": ("""
        @tf.function
        def overlap(pred):
            top = tf.argsort(pred, axis=0, direction="DESCENDING")[:3]
            common = tf.sets.intersection(tf.transpose(top), tf.constant([[0, 1, 2]]))
            return tf.cast(tf.sets.size(common), tf.float32)
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(overlap(model(x)))
            return tape.gradient(loss, model.trainable_weights)
        g = step()
        """, {"TM202", "TM201"}, "tf.argsort("),
    "assign into a second network, ZERO mode": ("""
        net2 = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2)])
        inputs = tf.random.normal((5, 4))
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                pred = model(x)[:, 0]
                net2.layers[0].kernel.assign(tf.reshape(pred, (4, 2)))
                loss = tf.reduce_sum(tf.abs(net2(inputs)))
            return tape.gradient(loss, [v.value for v in model.trainable_variables],
                                 unconnected_gradients=tf.UnconnectedGradients.ZERO)
        g = step()
        """, {"TM402"}, ".kernel.assign("),
    "kernel computed in build, captured by value": ("""
        class Noisy(tf.keras.layers.Layer):
            def build(self, shape):
                self.mu = self.add_weight(name="mu", shape=(shape[-1], 2))
                self.kernel = self.mu * 1.5
            def call(self, inputs):
                return tf.matmul(inputs, self.kernel)
        noisy = Noisy()
        noisy.build((8, 4))
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(noisy(x))
            return tape.gradient(loss, [noisy.mu])
        g = step()
        """, {"TM103"}, "self.kernel = self.mu"),
    "function called under an eager tape": ("""
        @tf.function
        def loss_fn(inputs):
            return tf.reduce_sum(tf.round(model(inputs)))
        with tf.GradientTape() as tape:
            loss = loss_fn(x)
        g = tape.gradient(loss, model.trainable_weights)
        """, {"TM201"}, "tf.round("),
}


@pytest.mark.parametrize("name", sorted(IN_FUNCTION))
def test_cut_inside_a_function_is_named_at_the_same_line(tmp_path: Path, name: str) -> None:
    cell, codes, needle = IN_FUNCTION[name]
    path = _write(tmp_path, cell)
    graph = run(path, force_eager=False)
    eager = run(path, force_eager=True)
    assert graph.error is None and eager.error is None
    assert graph.report.mode == "graph" and eager.report.mode == "forced-eager"
    assert set(graph.report.codes) == codes
    assert graph.exact == eager.exact  # same lines, columns, APIs and quick fixes
    primary = [f for f in graph.report.findings if f.primary]
    assert primary and primary[0].location.line == line_of(path, needle)
    assert _verdicts(graph.report) == _verdicts(eager.report)
    # the op is named by what the user wrote, never by an op inside a Keras layer
    assert all("ReadVariableOp" not in (f.api or "") for f in graph.report.findings)


def _verdicts(report: Report) -> list[tuple[str, str]]:
    """(weight without the model's auto-numbered name, verdict) for every source."""
    return [(s.variable.split("/", 1)[-1], s.verdict) for c in report.gradient_calls
            for s in c.sources]


# -- correct code stays silent and behaves as written ------------------------------------------

CLEAN = {
    "tf.function train step": """
        opt = tf.keras.optimizers.SGD(0.1)
        @tf.function
        def train_step(inputs, targets):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(inputs) - targets) ** 2)
            grads = tape.gradient(loss, model.trainable_weights)
            opt.apply_gradients(zip(grads, model.trainable_weights))
            return loss
        losses = [float(train_step(x, y)) for _ in range(4)]
        """,
    "fit": """
        model.compile(optimizer="sgd", loss="mse")
        losses = model.fit(x, y, epochs=2, batch_size=4, verbose=0).history["loss"]
        """,
    "nested functions and a Python side effect": """
        @tf.function
        def forward(inputs):
            print("tracing forward")
            return model(inputs)
        @tf.function
        def step(inputs):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((forward(inputs) - y) ** 2)
            return tape.gradient(loss, model.trainable_weights)
        losses = [float(tf.reduce_sum(step(x)[0])) for _ in range(3)]
        """,
    "accuracy metric with argmax inside the step": """
        clf = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3)])
        labels = tf.constant([0, 1, 2, 0, 1, 2, 0, 1])
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                logits = clf(x)
                loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
                    labels, logits, from_logits=True))
                acc = tf.reduce_mean(tf.cast(tf.equal(
                    tf.argmax(logits, 1, output_type=tf.int32), labels), tf.float32))
            return tape.gradient(loss, clf.trainable_weights), acc
        losses = [float(tf.reduce_sum(step()[0][0]))]
        """,
    "tf.data map and a Python branch converted by autograph": """
        ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a * 2.0, b)).batch(4)
        @tf.function
        def step(inputs, targets):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(inputs) - targets) ** 2)
                if loss > 100.0:
                    loss = loss / 10.0
            return tape.gradient(loss, model.trainable_weights)
        losses = [float(tf.reduce_sum(step(a, b)[0])) for a, b in ds]
        """,
}


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_code_is_silent_and_unchanged(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, CLEAN[name])
    plain = run(path, force_eager=False, traced=False)
    graph = run(path, force_eager=False)
    assert plain.error is None and graph.error is None, graph.error
    assert graph.report.codes == [], [f.message for f in graph.report.findings]
    assert graph.report.mode == "graph"
    assert graph.report.gradient_calls
    assert {s.verdict for c in graph.report.gradient_calls for s in c.sources} == {"connected"}
    assert graph.ns["losses"] == plain.ns["losses"]  # seeded: the same numbers as plain
    assert graph.stdout == plain.stdout  # a print at tracing runs once, as without tapemagic
    assert not any(name.startswith("Dataset_") for name in graph.report.to_json()["notes"])


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

def _message(error: BaseException | None) -> str:
    """The error's message without Keras's model numbers (each run builds a new model)."""
    import re

    return re.sub(r"sequential_\d+", "sequential_N", str(error))


def _frames(error: BaseException | None) -> list[tuple[str, int, str]]:
    assert error is not None
    return [(f.filename, f.lineno or 0, f.name) for f in traceback.extract_tb(
        error.__traceback__) if "test_graph_mode" not in f.filename]


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
