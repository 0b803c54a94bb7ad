"""``python -m tapemagic run SCRIPT [--json FILE|-]`` and ``explain``: exit codes and outputs.

Every command runs once, all of them in parallel, in a module fixture (each TensorFlow start
costs seconds); the tests then read the results.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tapemagic import rules
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf
REPO = Path(__file__).resolve().parent.parent

SCRIPTS = {
    "clean.py": """\
        import sys
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        print("grad", tape.gradient(loss, [w])[0].numpy().tolist(), sys.argv[1:], __name__)
        """,
    "quiet_clean.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        grads = tape.gradient(loss, [w])
        """,
    "rounded.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        grads = tape.gradient(loss, [w])
        """,
    "rounded_prints.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        print("gradients:", tape.gradient(loss, [w]))
        """,
    "crash.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        grads = tape.gradient(loss, [w])
        raise RuntimeError("script blew up")
        """,
    "exit3.py": """        import sys
        print("args", sys.argv[1:])
        sys.exit(3)
        """,
}


@dataclass
class Done:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str


def _commands(tmp: Path) -> dict[str, list[str]]:
    s = {name: str(tmp / name) for name in SCRIPTS}
    return {
        # `--json FILE` after the script's own arguments is tapemagic's, not the script's
        "clean": ["run", s["clean.py"], "alpha", "beta", "--json", str(tmp / "clean.json")],
        "rounded": ["run", s["rounded.py"]],
        "crash": ["run", "--json", str(tmp / "crash.json"), s["crash.py"]],
        "json-stdout": ["run", "--json", "-", s["rounded.py"]],
        "json-stdout-clean": ["run", "--json", "-", s["quiet_clean.py"]],
        "json-stdout-printing": ["run", "--json", "-", s["rounded_prints.py"]],
        "missing": ["run", str(tmp / "does_not_exist.py")],
        "bad-option": ["run", "--bogus", s["clean.py"]],
        "bad-steps": ["run", "--steps", "0", s["clean.py"]],
        "no-command": [],
        "exit3": ["run", s["exit3.py"], "--", "--json", "mine.json"],
        "explain": ["explain", "TM301"],
        "explain-lower": ["explain", "tm301"],
        "explain-unknown": ["explain", "TM999"],
    }


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("cli")
    for name, text in SCRIPTS.items():
        (tmp / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp


@pytest.fixture(scope="module")
def cli(cli_dir: Path) -> dict[str, Done]:
    tmp = cli_dir
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(REPO)}
    procs = {}
    for key, args in _commands(tmp).items():
        full = [sys.executable, "-m", "tapemagic", *args]
        procs[key] = (full, subprocess.Popen(full, cwd=tmp, env=env, text=True,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    done = {}
    for key, (full, proc) in procs.items():
        out, err = proc.communicate(timeout=300)
        done[key] = Done(full, proc.returncode, out, err)
    return done


def test_clean_script_exits_0_and_runs_as_a_script(cli: dict[str, Done], cli_dir: Path) -> None:
    run = cli["clean"]
    assert run.returncode == 0, run.stderr
    assert "grad [2.0, 4.0] ['alpha', 'beta'] __main__" in run.stdout  # no --json in argv
    assert "The weight gets a gradient" in run.stdout
    assert "Traceback" not in run.stderr
    payload = json.loads((cli_dir / "clean.json").read_text(encoding="utf-8"))
    validate_report(payload)
    assert payload["findings"] == [] and payload["exception"] is None


def test_error_finding_exits_1_with_the_report(cli: dict[str, Done]) -> None:
    run = cli["rounded"]
    assert run.returncode == 1, run.stderr
    assert "TM201" in run.stdout
    assert "rounded.py:4" in run.stdout  # where tf.round is
    assert "Traceback" not in run.stderr


def test_crashing_script_exits_1_with_traceback_and_report(cli: dict[str, Done]) -> None:
    run = cli["crash"]
    assert run.returncode == 1
    assert "Traceback (most recent call last)" in run.stderr
    assert 'crash.py", line 6' in run.stderr
    assert "RuntimeError: script blew up" in run.stderr
    assert "TM201" in run.stdout  # the report of what ran before the crash


def test_json_file_is_written_even_when_the_script_crashed(cli_dir: Path,
                                                           cli: dict[str, Done]) -> None:
    assert cli["crash"].returncode == 1
    payload = json.loads((cli_dir / "crash.json").read_text(encoding="utf-8"))
    validate_report(payload)
    assert payload["exception"]["type"] == "RuntimeError"
    assert payload["exception"]["message"] == "script blew up"
    assert [f["rule"] for f in payload["findings"]] == ["TM201"]


def test_json_stdout_is_valid_json_and_text_goes_to_stderr(cli: dict[str, Done]) -> None:
    run = cli["json-stdout"]
    assert run.returncode == 1
    payload = json.loads(run.stdout)
    validate_report(payload)
    assert [f["rule"] for f in payload["findings"]] == ["TM201"]
    assert "TM201" in run.stderr  # the text report moved out of the way

    clean = cli["json-stdout-clean"]
    assert clean.returncode == 0, clean.stderr
    clean_payload = json.loads(clean.stdout)
    validate_report(clean_payload)
    assert clean_payload["findings"] == []


def test_json_stdout_stays_valid_when_the_script_prints(cli: dict[str, Done]) -> None:
    run = cli["json-stdout-printing"]
    assert run.returncode == 1
    validate_report(json.loads(run.stdout))
    assert "gradients:" in run.stderr


@pytest.mark.parametrize("key, needle", [
    ("missing", "no such script"),
    ("bad-option", "unrecognized arguments: --bogus"),
    ("bad-steps", "--steps must be at least 1"),
    ("no-command", "required"),
    ("explain-unknown", "TM999"),
])
def test_usage_errors_exit_2(cli: dict[str, Done], key: str, needle: str) -> None:
    run = cli[key]
    assert run.returncode == 2
    assert needle in run.stderr
    assert "Traceback" not in run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize("key", ["explain", "explain-lower"])
def test_explain_prints_the_rule_doc(cli: dict[str, Done], key: str) -> None:
    run = cli[key]
    assert run.returncode == 0, run.stderr
    assert run.stdout == rules.explain("TM301") + "\n"
    assert run.stdout.startswith("TM301 ")


def test_script_exit_status_and_dashdash_args_are_the_scripts(cli: dict[str, Done],
                                                              cli_dir: Path) -> None:
    done = cli["exit3"]
    assert done.returncode == 3, done.stderr
    assert "args ['--json', 'mine.json']" in done.stdout
    assert not (cli_dir / "mine.json").exists()  # after `--`, --json was the script's
