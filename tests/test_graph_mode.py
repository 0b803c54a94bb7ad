"""Graph mode: tf.function and Keras fit run as written and are analysed from their traces.

Each cell is written to a real file (autograph reads the source of the functions it converts,
as it does for notebook cells) and run twice through ``tapemagic.gradcheck``: as written
(``force_eager=False``) and forced eager. The findings must be the same rules at the same
lines; the cell must behave as without tapemagic (values, prints, exceptions, tracebacks).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import line_of, run
from graph_runs import write_cell as _write

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf


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
