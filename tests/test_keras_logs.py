"""``gradcheck_cuts`` in a fit's epoch logs: what History, CSVLogger and TensorBoard show.

Real ``fit`` runs in graph mode. A correct fit logs 0 in every epoch; a fit whose branch goes
through ``tf.argmax`` logs its two cut weights (the branch's kernel and bias).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from keras_models import branch_model

import tapemagic

pytestmark = pytest.mark.tf


def _model(cut: bool) -> Any:
    model = branch_model(cut)
    model.compile(optimizer="sgd", loss="mse")
    return model


def _fit(model: Any, tmp_path: Path, epochs: int) -> tuple[Any, list[dict[str, str]]]:
    import keras
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 4)).astype("float32")
    y = rng.normal(size=(16, 1)).astype("float32")
    log = tmp_path / "log.csv"
    history = model.fit(x, y, epochs=epochs, batch_size=8, verbose=0, callbacks=[
        tapemagic.keras.GradientCheck(), keras.callbacks.CSVLogger(str(log))])
    with log.open(newline="") as rows:
        return history, list(csv.DictReader(rows))


def test_a_correct_fit_logs_zero_cuts_every_epoch(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    history, rows = _fit(_model(cut=False), tmp_path, epochs=3)
    assert history.history["gradcheck_cuts"] == [0, 0, 0]
    assert [row["gradcheck_cuts"] for row in rows] == ["0", "0", "0"]
    assert capsys.readouterr().err == ""


def test_a_cut_fit_logs_its_cut_weights(tmp_path: Path) -> None:
    with pytest.warns(UserWarning, match="Gradients do not exist"):  # Keras' own, unchanged
        history, rows = _fit(_model(cut=True), tmp_path, epochs=2)
    assert history.history["gradcheck_cuts"] == [2, 2]  # a/kernel and a/bias
    assert [row["gradcheck_cuts"] for row in rows] == ["2", "2"]


def test_cut_weights_counts_each_weight_once_and_not_info_findings() -> None:
    import dataclasses

    from samples import seed000_report

    from tapemagic.keras import cut_weights

    report = seed000_report()  # 4 weights, each named by 3 findings
    assert cut_weights(report) == 4
    remarks = tuple(dataclasses.replace(f, severity="info") for f in report.findings)
    assert cut_weights(dataclasses.replace(report, findings=remarks)) == 0
