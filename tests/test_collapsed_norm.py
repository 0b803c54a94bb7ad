"""A normalisation over axes of size 1 (real TF and Keras 3, rules/collapsed_norm.py).

BatchNormalization trained on batches of one (modelled on
https://github.com/d2l-ai/d2l-en/issues/1722, on whether each unit is 0 after subtracting the
mean of a minibatch of one, and why conv maps differ; own code): the mean of one sample is
the sample, the layer outputs its offset, and every zero gradient after it has that one
cause, reported at fit's ``batch_size=`` argument with every weight named. A
LayerNormalization over a last axis of size 1 is reported at the layer. Silent:
BatchNormalization over conv maps on batches of one (the mean still averages the positions),
and a frozen one (``trainable = False``: Keras 3 runs it on its moving statistics).
"""

from __future__ import annotations

import pytest
from conftest import RunChecked

pytestmark = pytest.mark.tf

_SETUP = """
    import keras
    import numpy as np
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(12, 4)).astype("float32")
    y = x[:, :1] - x[:, 1:2]
    """


def test_batchnorm_on_batches_of_one_is_the_batch_size(run_checked: RunChecked) -> None:
    report, marked = run_checked(_SETUP + """
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, name="d"),
                              keras.layers.BatchNormalization(name="bn"),
                              keras.layers.ReLU(), keras.layers.Dense(1, name="out")])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1,
              batch_size=1, verbose=0)  # <-
    """)
    serious = [f for f in report.findings if f.severity in ("warning", "error")]
    assert [f.rule for f in serious] == ["TM501"], report.codes
    finding, = serious
    assert finding.location.line == marked[0]  # type: ignore[union-attr]
    assert "batch of one" in finding.message
    assert {"d/kernel", "d/bias", "bn/gamma", "bn/beta", "out/kernel"} <= {
        v.rsplit("/", 2)[-2] + "/" + v.rsplit("/", 1)[-1] for v in finding.variables}


def test_layernorm_over_an_axis_of_size_one_is_the_layer(run_checked: RunChecked) -> None:
    report, marked = run_checked(_SETUP + """
    inputs = keras.Input((4,))
    h = keras.layers.Dense(1, name="d")(inputs)
    h = keras.layers.LayerNormalization(name="ln")(h)  # <-
    model = keras.Model(inputs, keras.layers.Dense(1, name="out")(h))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1, batch_size=4, verbose=0)
    """)
    serious = [f for f in report.findings if f.severity in ("warning", "error")]
    assert [(f.rule, f.location.line) for f in serious] == [  # type: ignore[union-attr]
        ("TM501", marked[0])], report.codes
    assert "axes of size 1" in serious[0].message


def test_batchnorm_over_conv_maps_on_batches_of_one_is_silent(run_checked: RunChecked) -> None:
    report, _ = run_checked("""
    import keras
    import numpy as np
    keras.utils.set_random_seed(0)
    x = np.random.default_rng(2).normal(size=(4, 6, 6, 2)).astype("float32")
    model = keras.Sequential([keras.Input((6, 6, 2)), keras.layers.Conv2D(3, 3, padding="same"),
                              keras.layers.BatchNormalization(), keras.layers.ReLU(),
                              keras.layers.Conv2D(1, 1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, x[..., :1], epochs=1, batch_size=1, verbose=0)
    """)
    assert not [f for f in report.findings if f.severity in ("warning", "error")], report.codes


def test_a_frozen_batchnorm_on_batches_of_one_is_silent(run_checked: RunChecked) -> None:
    report, _ = run_checked(_SETUP + """
    inputs = keras.Input((4,))
    h = keras.layers.Dense(6, name="d")(inputs)
    frozen = keras.layers.BatchNormalization(name="bn")
    frozen.trainable = False
    h = frozen(h)
    model = keras.Model(inputs, keras.layers.Dense(1, name="out")(keras.layers.ReLU()(h)))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1, batch_size=1, verbose=0)
    """)
    assert not [f for f in report.findings if f.severity in ("warning", "error")], report.codes
