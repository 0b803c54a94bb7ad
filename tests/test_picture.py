"""The loss→weights picture and the path text read right on a model of custom layers.

Two instances of one custom layer (a quantised Dense whose `call` rounds its kernel) share one
`call`: the picture keeps one chain per instance (no shared "line 16" node that looks like a
cycle), a healthy Dense → loss edge is drawn as a gradient flow, and a finding's path names
each layer once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checked import run_program

from tapemagic.report.model import Report

pytestmark = pytest.mark.tf

QUANTISED = """
import numpy as np
import tensorflow as tf
from tensorflow import keras


class QuantizedDense(keras.layers.Layer):
    def __init__(self, units, **kw):
        super().__init__(**kw)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def call(self, x):
        w_q = tf.round(self.kernel * 127.0) / 127.0
        return tf.matmul(x, w_q) + self.bias


rng = np.random.default_rng(0)
x = rng.normal(size=(32, 8)).astype("float32")
y = (x.sum(axis=1) > 0).astype("float32")[:, None]
model = keras.Sequential([keras.Input((8,)), QuantizedDense(4, name="q1"),
                          keras.layers.ReLU(name="act"), QuantizedDense(2, name="q2"),
                          keras.layers.Dense(1, activation="sigmoid", name="head")],
                         name="net")
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, epochs=1, verbose=0)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return run_program(tmp_path_factory.mktemp("picture"), QUANTISED, name="quantised.py").report


def _reaches(edges: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(edges.get(node, ()))
    return False


def test_each_layer_instance_keeps_its_own_chain(report: Report) -> None:
    graph = report.graph
    assert graph is not None
    out: dict[str, set[str]] = {}
    for edge in graph.edges:
        out.setdefault(edge.source, set()).add(edge.target)
    # no cycle: no node reaches itself
    assert not any(_reaches(out, b, a) for a, targets in out.items() for b in targets)
    lines = [n for n in graph.nodes if n.kind == "op" and "tf.round" in n.label]
    assert len(lines) == 2  # one rounding line node per layer instance, each in its layer
    assert {n.group for n in lines} == {"net/q1", "net/q2"}
    cuts = [e for e in graph.edges if e.finding is not None]
    assert {e.target for e in cuts} == {n.id for n in lines}


def test_a_healthy_edge_into_the_loss_is_a_gradient_flow(report: Report) -> None:
    graph = report.graph
    assert graph is not None
    dense = next(e for e in graph.edges if e.source == "layer:net/head")
    assert dense.state == "connected"
    # an edge no finding names is never a cut unless no gradient passes it at all
    assert all(e.state == "connected" for e in graph.edges if e.finding is None)


def test_the_path_names_each_layer_once(report: Report) -> None:
    (finding,) = report.findings
    labels = [step.label for step in finding.chain]
    assert labels.count("net/q1") == 0  # the cut inside it stands for it
    assert labels.count("net/q2") == 1
    assert len(labels) == len(set(labels))
    cut = next(step for step in finding.chain if step.cut)
    line = next(i for i, text in enumerate(QUANTISED.splitlines(), 1) if "tf.round" in text)
    assert cut.label == "tf.round (Round)" and cut.line == line


ONE_LINE = """
import numpy as np
import tensorflow as tf
import keras

x = np.random.default_rng(0).normal(size=(16, 4)).astype("float32")
y = np.random.default_rng(1).normal(size=(16, 1)).astype("float32")
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4, name="h"),
                          keras.layers.Dense(1, name="out")], name="net")


@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        pred = model(a)
        err = tf.cast(tf.abs(pred - b) > 0.5, tf.float32)
        loss = tf.reduce_mean(err)
    return tape.gradient(loss, model.trainable_weights)


step(x, y)
"""


def test_a_cut_between_two_ops_of_one_line_is_drawn(tmp_path: Path) -> None:
    # the comparison and the subtraction before it share the line's node: the cut has no
    # edge of its own, so the edge entering that node carries it (it was drawn as a flow)
    report = run_program(tmp_path, ONE_LINE, name="one_line.py").report
    (finding,) = report.findings
    graph = report.graph
    assert graph is not None
    line = next(n for n in graph.nodes if n.kind == "op" and "> 0.5" in n.label)
    cuts = [(e.source, e.target, e.finding) for e in graph.edges if e.state != "connected"]
    assert cuts == [("layer:net/out", line.id, finding.id)]
