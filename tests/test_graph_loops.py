"""Graph mode: loops traced into ``While`` ops (tf.while_loop, tf.scan, Keras RNN layers).

A ``While`` op is joined to its traced body, as an ``If`` op is to its branches: a cut inside
the body is found at its line. TensorFlow hands back zeros (not None) for a weight whose every
path is cut inside a loop body (while_v2 fills the body's missing gradients with zeros), so a
traced gradient cut there is reported as the cut, not as connected. Correct loops stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

WHILE_CUT = """
    optimizer = tf.keras.optimizers.SGD(0.1)
    step_layer = model.layers[1]

    def body(i, state):
        state = state + step_layer(tf.tanh(state))
        return i + 1, tf.floor(state * 4.0) / 4.0

    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            _, out = tf.while_loop(lambda i, s: i < 2, body, [tf.constant(0), model.layers[0](x)])
            loss = tf.reduce_mean(tf.square(out - y))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        return loss

    train_step()
    """

SCAN_CUT = """
    w = tf.Variable(tf.ones((4, 1)) * 0.3, name="w_cell")

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            states = tf.scan(lambda s, x_t: tf.round(tf.tanh(s + tf.reduce_sum(x_t * w))),
                             tf.reshape(x, (8, 1, 4)), initializer=tf.zeros((1,)))
            loss = tf.reduce_sum(states[-1])
        return tape.gradient(loss, [w])

    step()
    """

WHILE_CLEAN = """
    optimizer = tf.keras.optimizers.SGD(0.1)
    step_layer = model.layers[1]

    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            def body(i, state):
                scale = tf.cast(i + 1, tf.float32) * 0.5  # the int counter, off the value path
                return i + 1, state + scale * step_layer(tf.tanh(state))

            _, out = tf.while_loop(lambda i, s: i < 3, body, [tf.constant(0), model.layers[0](x)])
            loss = tf.reduce_mean(tf.square(out - y))
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        return loss

    train_step()
    """

RNN_FIT_CLEAN = """
    tokens = np.random.default_rng(0).integers(1, 9, size=(8, 5))
    tokens[:, 4:] = 0
    rnn = tf.keras.Sequential([tf.keras.layers.Input((5,), dtype="int32"),
                               tf.keras.layers.Embedding(9, 3, mask_zero=True, name="emb"),
                               tf.keras.layers.LSTM(2, name="lstm"),
                               tf.keras.layers.Dense(1, name="out")])
    rnn.compile(optimizer="sgd", loss="mse")
    rnn.fit(tokens, np.ones((8, 1)), epochs=1, batch_size=4, verbose=0)
    """


def _serious(result: object) -> list[tuple[str, int]]:
    return [(f.rule, f.location.line if f.location else 0) for f in result.report.findings
            if f.severity in ("error", "warning")]


def test_cut_inside_a_while_loop_body_is_found_at_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, WHILE_CUT)
    result = run(path, force_eager=False)
    assert result.error is None
    line = line_of(path, "tf.floor(")
    assert _serious(result) == [("TM201", line)]
    call = result.report.gradient_calls[0]
    assert {(s.result, s.verdict) for s in call.sources} == {("zero", "severed")}
    assert result.report.findings[0].primary


def test_cut_inside_a_scan_function_is_found_at_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, SCAN_CUT)
    result = run(path, force_eager=False)
    assert _serious(result) == [("TM201", line_of(path, "tf.round("))]
    assert result.report.findings[0].variables == ("w_cell",)


@pytest.mark.parametrize("cell", [WHILE_CLEAN, RNN_FIT_CLEAN], ids=["while_loop", "lstm_fit"])
def test_correct_loops_stay_silent(tmp_path: Path, cell: str) -> None:
    result = run(_write(tmp_path, cell), force_eager=False)
    assert result.error is None
    assert _serious(result) == []
    assert all(s.verdict == "connected" for c in result.report.gradient_calls
               for s in c.sources)


def test_the_analysis_leaves_the_recorded_results_as_recorded(tmp_path: Path) -> None:
    """The zeros while_v2 hands back for a cut loop body are the analysis' reading only."""
    from tapemagic.graph.analysis import analyse
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.tracing.session import TraceSession

    # traced, never run: no probe and no output shows the gradient's value
    never_run = WHILE_CUT.replace("\n    train_step()", "\n    train_step.get_concrete_function()")
    path = _write(tmp_path, never_run)
    session = TraceSession(force_eager=False)
    with session:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    assert session.trace is not None
    records = [s for call in session.trace.gradient_calls for s in call.sources]
    recorded = [(s.result, s.norm) for s in records]
    analyses = analyse(ProvenanceGraph(session.trace))
    assert [(s.result, s.norm) for s in records] == recorded
    assert {s.result for a in analyses for s in a.sources} == {"zero"}
    assert {r for r, _ in recorded} == {"ok"}  # a traced gradient whose value nothing saw
