"""Fix verification checks values as well as connectivity.

A fix that promises to keep what the code computes (a straight-through estimator, a TensorFlow
copy of a NumPy body, a dropped ``.numpy()``, a line moved into the tape) is verified only when
the re-run's loss of the checked step equals the unfixed re-run's; a fix that changes values on
purpose (a soft surrogate) says so and is never a plain "verified". TF-free first (a runner
that hands back reports), then real re-runs (slow).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from samples import seed000_report

from tapemagic.report.html import render_html
from tapemagic.report.model import Edit, Fix, Report
from tapemagic.report.text import render_text
from tapemagic.verify import CHILD_ENV, ScriptRunner, apply_edits, verify_fixes

ROOT = Path(__file__).resolve().parent.parent


class _Runner:
    """Hands back a report whose checked loss is ``before`` unfixed and ``after`` fixed."""

    def __init__(self, report: Report, before: float | None, after: float | None,
                 after_eager: float | None = None) -> None:
        self.report, self.before, self.after, self.after_eager = report, before, after, after_eager
        self.runs: list[tuple[int, bool | None]] = []

    def run(self, location: object, edits: Any, eager: bool | None = None
            ) -> tuple[dict[str, Any], None]:
        self.runs.append((len(edits), eager))
        payload = self.report.to_json()
        value = self.before if not edits else self.after_eager if eager else self.after
        for call in payload["gradient_calls"]:
            call["target_value"] = value
            for source in call["sources"]:
                source["result"], source["verdict"] = "ok", "connected"
        return payload, None


def _with_fix(keeps_value: bool | None) -> Report:
    report = seed000_report()
    first = report.findings[0]
    fix = Fix("Use a surrogate", "unsafe", (Edit(6, 8, 6, 22, "y_pred"),),
              keeps_value=keeps_value)
    return dataclasses.replace(report, findings=(dataclasses.replace(first, fix=fix),))


def _checked(report: Report, runner: _Runner) -> Fix:
    (finding,) = verify_fixes(report, runner).findings
    assert finding.fix is not None
    return finding.fix


def test_a_fix_that_keeps_values_but_changes_the_loss_is_not_verified() -> None:
    report = _with_fix(True)
    fix = _checked(report, _Runner(report, 0.7, 2513.0))
    assert fix.verified is False and fix.state == "not verified"
    assert fix.verification is not None
    assert fix.verification.startswith("not verified: changes the loss from 0.7 to 2513")
    assert "every weight it named now gets a gradient" in fix.verification


def test_the_same_loss_within_float_tolerance_is_verified_and_said() -> None:
    report = _with_fix(True)
    fix = _checked(report, _Runner(report, 0.7, 0.70000003))
    assert fix.verified is True and fix.state == "verified"
    assert "the loss of the checked step is unchanged (0.7)" in (fix.verification or "")


def test_a_graph_mode_re_run_without_a_loss_value_is_repeated_eager() -> None:
    report = _with_fix(True)
    runner = _Runner(report, 0.7, None, after_eager=3.5)
    fix = _checked(report, runner)
    assert fix.verified is False and "from 0.7 to 3.5" in (fix.verification or "")
    # the connectivity re-run, the unfixed one (eager, once), the fixed one again eager
    assert runner.runs == [(1, None), (0, True), (1, True)]


def test_a_soft_surrogate_says_it_changes_the_loss_and_is_never_a_plain_verified() -> None:
    report = _with_fix(False)
    fix = _checked(report, _Runner(report, 0.7, 0.9))
    assert fix.verified is True and fix.state == "verified, changes values"
    assert "changes the loss of the checked step on purpose, from 0.7 to 0.9" in \
        (fix.verification or "")
    text = render_text(dataclasses.replace(report, findings=(dataclasses.replace(
        report.findings[0], fix=fix),)))
    assert "(unsafe fix: review before applying, verified, changes values)" in text
    html = render_html(dataclasses.replace(report, findings=(dataclasses.replace(
        report.findings[0], fix=fix),)))
    assert "verified, changes values" in html


def test_no_value_to_compare_is_said_not_hidden() -> None:
    report = _with_fix(True)
    fix = _checked(report, _Runner(report, None, None))
    assert fix.verified is True
    assert "the loss of the checked step could not be compared" in (fix.verification or "")


def test_a_fix_from_an_older_report_is_judged_on_connectivity_alone() -> None:
    report = _with_fix(None)
    runner = _Runner(report, 0.7, 5.0)
    fix = _checked(report, runner)
    assert fix.verified is True and runner.runs == [(1, None)]


def _env() -> dict[str, str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop(CHILD_ENV, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


ROUNDED = """\
import tensorflow as tf

w = tf.Variable([[0.31, -0.52], [0.77, 0.12]], name="w")
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    w_q = tf.round(w * 127.0) / 127.0
    loss = tf.reduce_sum((x @ w_q - 1.0) ** 2)
grads = tape.gradient(loss, [w])
"""


@pytest.mark.slow
@pytest.mark.tf
def test_a_real_re_run_catches_a_straight_through_estimator_without_parentheses(
        tmp_path: Path) -> None:
    script = tmp_path / "rounded.py"
    script.write_text(ROUNDED)
    out = tmp_path / "report.json"
    subprocess.run([sys.executable, "-m", "tapemagic", "run", "--json", str(out), str(script)],
                   env=_env(), capture_output=True, timeout=900, check=False)
    report = Report.from_json(json.loads(out.read_text()))
    (finding,) = [f for f in report.findings if f.rule == "TM201"]
    assert finding.fix is not None and finding.fix.keeps_value is True
    (edit,) = finding.fix.edits
    assert edit.text.startswith("((w * 127.0) + tf.stop_gradient(")  # parenthesised whole
    # the same estimator written as a text fix used to: without the outer parentheses
    bare = dataclasses.replace(edit, text=edit.text[1:-1])
    broken = dataclasses.replace(finding, fix=dataclasses.replace(finding.fix, edits=(bare,)))
    both = dataclasses.replace(report, findings=(finding, broken))
    good, bad = verify_fixes(both, ScriptRunner(str(script))).findings
    assert good.fix is not None and good.fix.verified is True, good.fix
    assert "unchanged" in (good.fix.verification or "")
    assert bad.fix is not None and bad.fix.verified is False, bad.fix
    assert (bad.fix.verification or "").startswith("not verified: changes the loss from ")


QUANTIZED = """\
import numpy as np
import tensorflow as tf
import keras


class QuantizedDense(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def call(self, x):
        w_q = tf.round(self.kernel * 127.0) / 127.0
        return x @ w_q + self.bias


class FirstLoss(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        if batch == 0 and self.params and not getattr(self, "done", False):
            self.done = True
            print("FIRST-LOSS", repr(float(logs["loss"])))


keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
model = keras.Sequential([keras.Input((4,)), QuantizedDense(8), keras.layers.Activation("relu"),
                          QuantizedDense(1), keras.layers.Activation("sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, epochs=2, batch_size=16, verbose=0, callbacks=[FirstLoss()])
"""


def _first_loss(source: str, tmp_path: Path, name: str) -> float:
    path = tmp_path / name
    path.write_text(source)
    done = subprocess.run([sys.executable, str(path)], env=_env(), capture_output=True,
                          text=True, timeout=900, check=True)
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("FIRST-LOSS")]
    return float(line.split()[1])


@pytest.mark.slow
@pytest.mark.tf
def test_a_quantized_dense_trained_with_fit_gets_a_verified_fix_that_keeps_the_loss(
        tmp_path: Path) -> None:
    script = tmp_path / "quantized.py"
    script.write_text(QUANTIZED)
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", "--verify-fixes", "--json",
                           str(out), str(script)], env=_env(), capture_output=True, text=True,
                          timeout=1800, check=False)
    payload = json.loads(out.read_text())
    (finding,) = [f for f in payload["findings"] if f["rule"] == "TM201"]
    fix = finding["fix"]
    assert fix["verified"] is True and fix["keeps_value"] is True, fix
    assert "the loss of the checked step is unchanged" in fix["verification"]
    assert "(unsafe fix: review before applying, verified)" in done.stdout
    # independently of tapemagic: the fixed layer trains from the same first-step loss
    fixed = apply_edits(QUANTIZED, [Edit(**e) for e in fix["edits"]])
    assert "w_q = (" in fixed
    before = _first_loss(QUANTIZED, tmp_path, "before.py")
    after = _first_loss(fixed, tmp_path, "after.py")
    assert after == pytest.approx(before, rel=1e-4)
