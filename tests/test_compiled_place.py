"""A built-in loss that saturates inside ``fit`` is reported at the ``compile`` that chose it.

Keras runs a loss given to ``compile`` by name in its own code inside ``fit``; when its clip
passes no gradient (``binary_crossentropy`` on raw scores: every score outside [0, 1]), the
``fit`` line is only where it bites, and the loss chosen is the line to change
(``from_logits=True``, or a sigmoid head). The recorder notes each ``compile`` call's place
(``Trace.compiles``). A sigmoid head with the default ``from_logits=False``, and raw scores
with ``from_logits=True``, stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_runs import run
from graph_runs import write_cell as _write
from line_checks import blocking, line

pytestmark = pytest.mark.tf

CLASSIFIER = """
    rng = np.random.default_rng(1)
    features = rng.uniform(60.0, 160.0, size=(32, 3)).astype("float32")
    labels = (features[:, :1] > 110.0).astype("float32")
    net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu", name="h"),
                            keras.layers.Dense(1, {activation}name="out")], name="net")
    net.compile(optimizer=keras.optimizers.SGD(1e-3), loss={loss})  # COMPILE
    net.fit(features, labels, epochs=1, batch_size=8, verbose=0)  # FIT
    """


def test_binary_crossentropy_on_raw_scores_is_reported_at_compile(tmp_path: Path) -> None:
    path = _write(tmp_path, CLASSIFIER.format(activation="", loss='"binary_crossentropy"'))
    result = run(path, force_eager=False)
    found = blocking(result)
    assert [(rule, at) for rule, at, _ in found] == [("TM501", line(path, "# COMPILE"))], found
    assert set(found[0][2]) == {"net/h/kernel", "net/h/bias", "net/out/kernel", "net/out/bias"}
    assert f"at line {line(path, '# FIT')}" in result.report.findings[0].message


@pytest.mark.parametrize(("activation", "loss"), [
    ('activation="sigmoid", ', '"binary_crossentropy"'),
    ("", "keras.losses.BinaryCrossentropy(from_logits=True)"),
], ids=["sigmoid-head", "from-logits"])
def test_a_matching_head_and_loss_are_silent(tmp_path: Path, activation: str, loss: str) -> None:
    result = run(_write(tmp_path, CLASSIFIER.format(activation=activation, loss=loss)),
                 force_eager=False)
    assert result.error is None
    assert blocking(result) == []
