"""Derivative-only losses (graph/derivative_only.py): a weight no derivative depends on.

A false-positive hunt found a TM104 error on a Hamiltonian neural network: its loss is built
from dH/dx, and the last layer's bias shifts H by a constant, so TensorFlow gives it None by
design. Such a weight is silent (verdict ``zero``, a note); a weight the loss really lost in
the same kind of program stays a cut.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write

pytestmark = pytest.mark.tf

HNN = """
    def time_derivative(points):
        with tf.GradientTape() as inner:
            inner.watch(points)
            energy = hnn(points)
        grad = inner.gradient(energy, points)
        return tf.concat([grad[:, 1:2], -grad[:, 0:1]], axis=1)
    hnn = tf.keras.Sequential([tf.keras.layers.Input((2,)),
                               tf.keras.layers.Dense(8, activation="tanh"),
                               tf.keras.layers.Dense(1, name="energy")])
    points = tf.random.normal((16, 2))
    target = tf.concat([points[:, 1:2], -points[:, 0:1]], axis=1)
    opt = tf.keras.optimizers.Adam(1e-3)
    {decorator}
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(time_derivative(points) - target))
        grads = tape.gradient(loss, hnn.trainable_variables)
        opt.apply_gradients(zip(grads, hnn.trainable_variables))
        return loss
    step()
    """


@pytest.mark.parametrize("decorator", ["", "@tf.function"], ids=["eager", "function"])
def test_a_hamiltonian_networks_last_bias_is_no_cut(tmp_path: Path, decorator: str) -> None:
    """No finding; the bias's verdict says no gradient by design, and a note says why."""
    path = _write(tmp_path, HNN.format(decorator=decorator))
    plain = run(path, force_eager=False, traced=False)
    result = run(path, force_eager=False)
    assert plain.error is None and result.error is None
    assert [f.rule for f in result.report.findings if f.severity != "info"] == []
    outer = result.report.gradient_calls[-1]
    verdicts = {s.variable.split("/", 1)[1]: (s.result, s.verdict) for s in outer.sources}
    assert verdicts.pop("energy/bias") == ("none", "zero")
    assert set(verdicts.values()) == {("ok", "connected")}
    assert any("no derivative depends on them" in note for note in result.report.notes)
    assert "by design" in result.report.headline


def test_a_weight_the_derivative_loss_never_reads_stays_a_cut(tmp_path: Path) -> None:
    """A second model whose output the loss drops is no constant shift: TM104 as before."""
    path = _write(tmp_path, HNN.format(decorator="").replace(
        "loss = tf.reduce_mean(tf.square(time_derivative(points) - target))",
        "side = model(x)\n"
        "            loss = tf.reduce_mean(tf.square(time_derivative(points) - target))"
    ).replace("hnn.trainable_variables)\n        opt", "hnn.trainable_variables + "
              "model.trainable_variables)\n        opt").replace(
        "zip(grads, hnn.trainable_variables)",
        "[(g, v) for g, v in zip(grads, hnn.trainable_variables)]"))
    result = run(path, force_eager=False)
    found = {(f.rule, tuple(f.variables)) for f in result.report.findings}
    assert any(rule == "TM104" and "a/kernel" in " ".join(names) for rule, names in found), found


def test_a_network_cut_by_tf_round_inside_a_derivative_loss_stays_a_cut(tmp_path: Path) -> None:
    """A weight behind a matmul (here after `tf.round`) does not shift the target by a constant.

    A breaker found the first version forgave it ("by design") because the loss was built
    from derivatives: only a weight added in (a bias) is forgiven.
    """
    path = _write(tmp_path, """
        fine = tf.keras.Sequential([tf.keras.layers.Input((2,)),
                                    tf.keras.layers.Dense(4, activation="tanh", name="f1"),
                                    tf.keras.layers.Dense(1, name="f2")])
        points = tf.random.normal((16, 2))
        with tf.GradientTape() as tape:
            with tf.GradientTape() as inner:
                inner.watch(points)
                energy = model(tf.concat([points, points], 1)) + fine(tf.round(points * 8) / 8)
            grad = inner.gradient(energy, points)
            loss = tf.reduce_mean(tf.square(grad))
        grads = tape.gradient(loss, model.trainable_weights + fine.trainable_weights)
        """)
    result = run(path, force_eager=False)
    named = {v.split("/", 1)[1] for f in result.report.findings if f.severity == "error"
             for v in f.variables}
    assert {"f1/kernel", "f1/bias", "f2/kernel"} <= named
