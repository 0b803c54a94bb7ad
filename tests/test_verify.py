"""Fix verification: edits applied to a copy, the re-run judged; the CLI and function doors.

The TF-free part checks :func:`apply_edits` and :func:`judge`; the rest runs real scripts in
subprocesses (the doors start fresh Python processes for the re-runs themselves).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from samples import seed000_report

from tapemagic.report.model import Edit
from tapemagic.report.validate import validate_report
from tapemagic.verify import CHILD_ENV, apply_edits, judge

ROOT = Path(__file__).resolve().parent.parent
NUMPY_SCRIPT = """\
import numpy as np
import tensorflow as tf

w = tf.Variable([[1.0], [2.0]], name="w")
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(x @ w.numpy())
print("SCRIPT-RAN")
print(tape.gradient(loss, [w]))
"""
CONSTANT_BRANCH = """\
import tensorflow as tf

w = tf.Variable(1.0, name="w")
with tf.GradientTape() as tape:
    score = w * 2.0
    if score > 0.0:
        loss = tf.constant(0.0)
    else:
        loss = tf.constant(1.0)
print(tape.gradient(loss, [w]))
"""


def test_apply_edits_replaces_inserts_and_deletes_lines() -> None:
    text = "a = 1\nb = 2\nc = 3\n"
    edits = [Edit(1, 4, 1, 5, "10"), Edit(2, 0, 3, 0, ""), Edit(3, 0, 3, 0, "    # c\n")]
    assert apply_edits(text, edits) == "a = 10\n    # c\nc = 3\n"
    assert apply_edits(text, []) == text


def test_apply_edits_refuses_overlaps_and_lines_outside() -> None:
    with pytest.raises(ValueError, match="overlap"):
        apply_edits("abcdef\n", [Edit(1, 0, 1, 4, "x"), Edit(1, 2, 1, 5, "y")])
    with pytest.raises(ValueError, match="outside"):
        apply_edits("a\n", [Edit(9, 0, 9, 0, "x")])


def _rerun(results: dict[str, str], exception: dict | None = None,
           findings: list | None = None) -> dict:
    sources = [{"variable": name, "result": result} for name, result in results.items()]
    return {"gradient_calls": [{"sources": sources, "error": None}],
            "exception": exception, "findings": findings or []}


def test_judge_needs_every_named_weight_ok_and_no_new_error() -> None:
    report = seed000_report()
    finding = report.findings[0]
    names = finding.variables
    ok, note = judge(report, finding, _rerun(dict.fromkeys(names, "ok")))
    assert ok and all(n in note for n in names)
    half = {n: ("ok" if i else "none") for i, n in enumerate(names)}
    cut = [{"rule": "TM201", "severity": "error", "variables": [names[0]],
            "location": {"line": 7}}]
    ok, note = judge(report, finding, _rerun(half, findings=cut))
    assert not ok and note.startswith("still cut") and names[0] in note
    assert "TM201 at line 7" in note
    ok, note = judge(report, finding, _rerun(dict.fromkeys(names, "ok"),
                                              {"type": "ValueError", "message": "boom"}))
    assert not ok and "ValueError: boom" in note
    ok, note = judge(report, finding, None, "exit status 3")
    assert not ok and "exit status 3" in note
    ok, note = judge(report, finding, _rerun({}))
    assert not ok and "lists" in note


def test_judge_accepts_a_source_list_without_the_frozen_weights() -> None:
    report = seed000_report()
    finding = dataclasses.replace(report.findings[0], rule="TM107")
    assert judge(report, finding, _rerun({"other": "ok"}))[0]
    assert not judge(report, finding, _rerun(dict.fromkeys(finding.variables, "none")))[0]


@pytest.mark.slow
def test_a_fix_without_edits_keeps_its_reason_and_is_not_counted() -> None:
    from tapemagic.report.model import Fix
    from tapemagic.verify import verify_fixes

    class _NoRun:
        def run(self, location: object, edits: object) -> tuple[None, str]:
            raise AssertionError("a fix without edits was re-run")

    report = seed000_report()
    reasoned = Fix("Replace it", "unsafe", (), None, "no rewrite can keep this loss")
    report = dataclasses.replace(report, findings=tuple(
        dataclasses.replace(f, fix=reasoned) for f in report.findings))
    checked = verify_fixes(report, _NoRun())
    assert [f.fix for f in checked.findings] == [reasoned] * len(report.findings)
    assert checked.notes == report.notes  # no "0 of N verified" summary for reasons alone


def _env() -> dict[str, str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop(CHILD_ENV, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def _cli(script: Path, *options: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    out = script.parent / "report.json"
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", "--json", str(out),
                           *options, str(script)], env=_env(), capture_output=True, text=True,
                          timeout=900, check=False)
    payload = json.loads(out.read_text())
    validate_report(payload)
    return done, payload


@pytest.mark.slow
@pytest.mark.tf
def test_cli_verifies_a_fix_that_removes_the_cut(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(NUMPY_SCRIPT)
    done, payload = _cli(script, "--verify-fixes")
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM301"
    assert finding["fix"]["verified"] is True
    assert "`w`" in finding["fix"]["verification"]
    assert "(unsafe fix: review before applying, verified)" in done.stdout
    assert "re-run with this fix" in done.stdout
    assert "1 of 1 verified: F1 (TM301); not verified: none." in " ".join(payload["notes"])
    assert done.stdout.count("SCRIPT-RAN") == 1  # the re-runs print nothing here
    assert script.read_text() == NUMPY_SCRIPT  # the fix went to a copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "train.py"]


@pytest.mark.slow
@pytest.mark.tf
def test_cli_says_what_is_still_cut_when_a_fix_does_not_verify(tmp_path: Path) -> None:
    script = tmp_path / "branch.py"
    script.write_text(CONSTANT_BRANCH)
    done, payload = _cli(script, "--verify-fixes")
    (finding,) = [f for f in payload["findings"] if f["rule"] == "TM303"]
    assert finding["fix"]["edits"], "tf.where fix expected"
    assert finding["fix"]["verified"] is False
    assert finding["fix"]["verification"].startswith("still cut: `w`")
    assert "not verified" in done.stdout
    assert f"not verified: {finding['id']} (TM303)." in " ".join(payload["notes"])


@pytest.mark.slow
@pytest.mark.tf
def test_without_the_option_nothing_is_verified(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(NUMPY_SCRIPT)
    _, payload = _cli(script)
    assert [f["fix"]["verified"] for f in payload["findings"]] == [None]
    assert [f["fix"]["verification"] for f in payload["findings"]] == [None]


FUNCTION_DOOR = """\
import json, sys
import tensorflow as tf
import tapemagic

w = tf.Variable([[1.0], [2.0]], name="w")
x = tf.constant([[1.0, 2.0]])
with tapemagic.gradcheck(verify_fixes=True) as check:
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(x @ w.numpy())
    tape.gradient(loss, [w])
print("RESULT", json.dumps([f.fix.verified for f in check.report.findings]),
      json.dumps(list(check.report.notes)))
"""


@pytest.mark.slow
@pytest.mark.tf
@pytest.mark.parametrize("child", [False, True], ids=["script", "inside-a-re-run"])
def test_function_door_re_runs_the_main_script(tmp_path: Path, child: bool) -> None:
    script = tmp_path / "door.py"
    script.write_text(FUNCTION_DOOR)
    env = _env() | ({CHILD_ENV: "1"} if child else {})
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=900, check=False)
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT"))
    verified = json.loads(line.split(" ", 2)[1])
    assert verified == ([None] if child else [True])  # a re-run never verifies again


@pytest.mark.slow
@pytest.mark.tf
def test_function_door_without_a_script_says_so() -> None:
    code = textwrap.dedent("""\
        import tensorflow as tf, tapemagic
        w = tf.Variable(1.0, name="w")
        with tapemagic.gradcheck(verify_fixes=True) as check:
            with tf.GradientTape() as tape:
                loss = tf.constant(w.numpy()) * 2.0
            tape.gradient(loss, [w])
        print("NOTES", [n for n in check.report.notes if "verify_fixes" in n])
        print("VERIFIED", [f.fix.verified for f in check.report.findings])
        """)
    done = subprocess.run([sys.executable, "-c", code], env=_env(), capture_output=True,
                          text=True, timeout=600, check=False)
    assert "no script to re-run" in done.stdout
    assert "VERIFIED [None]" in done.stdout


def test_notebook_runner_refuses_edits_outside_the_session_cells() -> None:
    from tapemagic.report.model import Location
    from tapemagic.verify import Unverifiable
    from tapemagic.verify.notebook import HistoryRunner, history_cells

    runner = HistoryRunner(["x = 1", "%%gradcheck\ny = x"])
    with pytest.raises(Unverifiable, match="not a notebook cell"):
        runner.run(Location("/lib/losses.py", 3, 3, 0, 1, "z"), [Edit(3, 0, 3, 1, "w")])
    with pytest.raises(Unverifiable, match="history"):
        runner.run(Location("<cell>", 1, 1, 0, 1, "z", execution_count=7), [])

    class Shell:
        class history_manager:  # noqa: N801 - IPython's attribute name
            input_hist_raw = ["", "import tensorflow as tf", "%%gradcheck\nloss = 1", "later"]

    assert history_cells(Shell(), 2, "%%gradcheck rep\nloss = 1") == [
        "import tensorflow as tf", "%%gradcheck rep\nloss = 1"]


HYPERNETWORK = """\
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
x = np.ones((4, 3), "float32")
target = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(2, name="a"),
                              tf.keras.layers.Dense(1, name="b")], name="target")
hyper = tf.keras.Sequential([tf.keras.layers.Input((1,)), tf.keras.layers.Dense(2, name="g")],
                            name="hyper")
with tf.GradientTape() as tape:
    h = hyper(np.ones((1, 1), "float32"))
    target.layers[1].kernel.assign(tf.reshape(h, (2, 1)))
    loss = tf.reduce_sum(target(x))
print(tape.gradient(loss, hyper.trainable_variables))
"""


@pytest.mark.slow
@pytest.mark.tf
def test_cli_verifies_a_hypernetwork_written_through_model_layers(tmp_path: Path) -> None:
    script = tmp_path / "hyper.py"
    script.write_text(HYPERNETWORK)
    _, payload = _cli(script, "--verify-fixes")
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM402"
    assert "target.stateless_call([tf.reshape(h, (2, 1)) if v is target.layers[1].kernel" \
        in finding["fix"]["edits"][-1]["text"]
    assert finding["fix"]["verified"] is True, finding["fix"]["verification"]


SURROGATES = """\
import numpy as np
import tensorflow as tf

w = tf.Variable(np.eye(3, dtype="float32"), name="w")
x = tf.constant([[1.0, 2.0, 0.5]])
with tf.GradientTape() as tape:
    logits = x @ w
    hard = tf.one_hot(tf.argmax(logits, -1), 3)
    loss = tf.reduce_sum(hard * [0.0, 1.0, 0.0])
print(tape.gradient(loss, [w]))
"""


@pytest.mark.slow
@pytest.mark.tf
def test_cli_verifies_the_softmax_for_a_one_hot_of_an_argmax(tmp_path: Path) -> None:
    script = tmp_path / "surrogates.py"
    script.write_text(SURROGATES)
    _, payload = _cli(script, "--verify-fixes")
    # the ArgMax (primary) and the OneHot (secondary) findings: one edit, verified once
    assert {(f["fix"]["edits"][0]["text"], f["fix"]["verified"])
            for f in payload["findings"]} == {("tf.nn.softmax(logits)", True)}


RANKS = """\
import numpy as np
import tensorflow as tf


def ranks(values):
    return np.argsort(np.argsort(values)).astype("float32")


w = tf.Variable([1.0, 3.0, 2.0], name="w")
with tf.GradientTape() as tape:
    r = tf.numpy_function(ranks, [w * 2.0], tf.float32)
    loss = tf.reduce_sum(r * [1.0, 2.0, 3.0])
print(tape.gradient(loss, [w]))
"""


@pytest.mark.slow
@pytest.mark.tf
def test_a_fix_that_cannot_be_right_says_why_instead_of_an_edit(tmp_path: Path) -> None:
    script = tmp_path / "ranks.py"
    script.write_text(RANKS)
    done, payload = _cli(script)
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM302" and finding["fix"]["edits"] == []
    assert finding["fix"]["verified"] is None
    assert finding["fix"]["verification"].startswith(
        "`ranks` is not rewritten in TensorFlow ops: `np.argsort` is piecewise constant")
    assert "  no edit: `ranks` is not rewritten" in done.stdout


DQN_UPDATE = """\
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3)])
huber = tf.keras.losses.Huber()


@tf.function
def update(s, a, targets):
    masks = tf.one_hot(a, 3)
    with tf.GradientTape() as tape:
        q_values = model(s)
    q_action = tf.reduce_sum(tf.multiply(q_values, masks), axis=1)
    loss = huber(targets, q_action)
    return tape.gradient(loss, model.trainable_variables)


update(tf.ones((5, 4)), tf.constant([0, 1, 2, 0, 1]), tf.zeros(5))
"""


@pytest.mark.slow
@pytest.mark.tf
def test_the_outside_tape_fix_takes_the_loss_along_and_verifies(tmp_path: Path) -> None:
    script = tmp_path / "dqn.py"
    script.write_text(DQN_UPDATE)
    _, payload = _cli(script, "--verify-fixes")
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM103" and finding["location"]["line"] == 14
    assert [e["line"] for e in finding["fix"]["edits"]] == [14, 15]
    assert finding["fix"]["verified"] is True, finding["fix"]["verification"]
