"""`python -m tapemagic lint PATH...`: output like ruff's, notebooks by cell, exit status, hook.

Runs the real command in a subprocess (TF-free: nothing is executed, TensorFlow never loads).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
BROKEN = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    loss = float(tf.reduce_sum(model(tf.ones((1, 2)))))
grads = tape.gradient(loss, model.trainable_variables)
"""
FIXED = BROKEN.replace("float(tf.reduce_sum(model(tf.ones((1, 2)))))",
                       "tf.reduce_sum(model(tf.ones((1, 2))))")


def lint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    return subprocess.run([sys.executable, "-m", "tapemagic", "lint", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_text_output_is_ruffs_and_exit_1(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(BROKEN)
    done = lint("train.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("train.py:4:12: TM301 `float()` may ")
    assert "Found 1 hint" in done.stdout


@pytest.mark.slow
def test_clean_file_exits_0_silently(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(FIXED)
    done = lint("train.py", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.slow
def test_json_format(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(BROKEN)
    done = lint("--format", "json", "train.py", cwd=tmp_path)
    assert done.returncode == 1
    rows = json.loads(done.stdout)
    assert rows == [{"path": "train.py", "code": "TM301", "cause": "host-round-trip",
                     "line": 4, "col": 11, "end_line": 4, "end_col": 55,
                     "message": rows[0]["message"]}]
    assert " may " in rows[0]["message"]


@pytest.mark.slow
def test_notebook_hints_name_the_cell(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    setup, step = BROKEN.split("with ")
    nb.cells = [nbformat.v4.new_markdown_cell("# training"),
                nbformat.v4.new_code_cell("%load_ext tapemagic\n" + setup),
                nbformat.v4.new_code_cell("%%gradcheck\nwith " + step),
                nbformat.v4.new_code_cell("def broken(:\n")]  # not Python: left out
    nbformat.write(nb, tmp_path / "nb.ipynb")
    done = lint("nb.ipynb", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0].startswith("nb.ipynb:cell 3:3:12: TM301 ")
    rows = json.loads(lint("--format", "json", "nb.ipynb", cwd=tmp_path).stdout)
    assert [(r["cell"], r["line"], r["col"]) for r in rows] == [(3, 3, 11)]


@pytest.mark.slow
def test_folders_are_searched_and_hidden_ones_skipped(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(BROKEN)
    (tmp_path / "pkg" / "b.py").write_text(FIXED)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "c.py").write_text(BROKEN)
    done = lint(".", cwd=tmp_path)
    assert done.returncode == 1
    paths = [line.split(":")[0] for line in done.stdout.splitlines() if ": TM" in line]
    assert paths == [str(Path("pkg/a.py"))]


@pytest.mark.slow
def test_syntax_error_is_no_hint(tmp_path: Path) -> None:
    (tmp_path / "half.py").write_text("with tf.GradientTape() as tape:\n    loss = (\n")
    assert lint("half.py", cwd=tmp_path).returncode == 0


@pytest.mark.slow
@pytest.mark.parametrize("args", [["missing.py"], ["--format", "xml", "x.py"], []])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "x.py").write_text(FIXED)
    done = lint(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip()


@pytest.mark.slow
def test_unreadable_notebook_exits_2(tmp_path: Path) -> None:
    (tmp_path / "nb.ipynb").write_text("{not json")
    done = lint("nb.ipynb", cwd=tmp_path)
    assert done.returncode == 2
    assert "nb.ipynb" in done.stderr and "\n" not in done.stderr.strip()


@pytest.mark.slow
def test_help_documents_the_exit_status(tmp_path: Path) -> None:
    done = lint("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "1    at least one hint" in done.stdout


def test_pre_commit_hook_runs_this_command() -> None:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "tapemagic-lint")
    assert hook["entry"] == "tapemagic lint" and hook["language"] == "python"
    assert set(hook["types_or"]) == {"python", "jupyter"}


@pytest.mark.slow
def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    # `tapemagic lint src/ | head -1`: the pipe closes while hints are still being printed
    for i in range(400):
        (tmp_path / f"train_{i}.py").write_text(BROKEN)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.Popen([sys.executable, "-m", "tapemagic", "lint", "."], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert b"TM301" in proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr
