"""A difference of two equal values fed from one input, walked back to where it was given.

A siamese model's distance ``a - b`` is all zero when both branches were given the same
array (``fit([left, left], ...)``): the same ops on two inputs of equal values. Its square
passes no gradient, and every tower weight gets zeros in every checked step. The zero factor
walk (graph/zero_factors.py) ends at that difference; both terms walked back in step reach
two inputs of the run, so the finding sits at the call that was given them (TM501 at
``fit``), not silent. The same model fed two different arrays stays silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import blocking, line

pytestmark = pytest.mark.tf

SIAMESE = """
    rng = np.random.default_rng(2)
    left = rng.normal(size=(32, 6)).astype("float32")
    right = (left + rng.normal(size=(32, 6))).astype("float32")
    same = np.zeros((32, 1), "float32")
    tower = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="tanh", name="h"),
                              keras.layers.Dense(3, name="emb")], name="tower")
    a, b = keras.Input((6,)), keras.Input((6,))
    gap = keras.layers.Lambda(lambda t: tf.reduce_sum(tf.square(t[0] - t[1]), axis=1,
                                                      keepdims=True), name="gap")(
        [tower(a), tower(b)])
    pair = keras.Model([a, b], gap, name="pair")
    pair.compile(optimizer=keras.optimizers.SGD(1e-2),
                 loss=lambda y, d: tf.reduce_mean(tf.square(tf.maximum(1.0 - d, 0.0))))
    pair.fit([left, {second}], same, epochs=1, batch_size=8, verbose=0)  # FIT
    """


def test_a_pair_fed_one_input_twice_is_reported_at_fit(tmp_path: Path) -> None:
    path = _write(tmp_path, SIAMESE.format(second="left"))
    result = run(path, force_eager=False)
    found = blocking(result)
    fit = line(path, "# FIT")
    assert [(rule, at) for rule, at, _ in found] == [("TM501", fit)], found
    assert set(found[0][2]) == {"tower/h/kernel", "tower/h/bias", "tower/emb/kernel",
                                "tower/emb/bias"}
    assert "one input fed twice" in result.report.findings[0].message


def test_a_pair_fed_two_inputs_is_silent(tmp_path: Path) -> None:
    result = run(_write(tmp_path, SIAMESE.format(second="right")), force_eager=False)
    assert result.error is None
    assert blocking(result) == []
