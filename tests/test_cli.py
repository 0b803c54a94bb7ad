"""``python -m tapemagic run [OPTIONS] SCRIPT [ARGS...]`` and ``explain``: exit codes, outputs.

Every command runs once, a few at a time in parallel, in a module fixture (each TensorFlow
start costs seconds); the tests then read the results. Where a script's own behaviour matters
(its argv, its output, its encoding), the same script also runs under plain ``python``. The
scripts and the commands stand in tests/cli_scripts.py.
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
from tests.cli_scripts import PLAIN, RAW_SCRIPTS, SCRIPTS, commands_in

pytestmark = pytest.mark.tf
REPO = Path(__file__).resolve().parent.parent


@dataclass
class Done:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str


PARALLEL = 4  # TensorFlow processes at a time (the machine has 2 cores)


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("cli")
    for name, text in SCRIPTS.items():
        (tmp / name).write_text(textwrap.dedent(text), encoding="utf-8")
    for name, data in RAW_SCRIPTS.items():
        (tmp / name).write_bytes(data)
    return tmp


def _run_all(commands: dict[str, list[str]], cwd: Path) -> dict[str, Done]:
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(REPO),
           "PYTHONIOENCODING": "utf-8"}
    done: dict[str, Done] = {}
    pending = list(commands.items())
    while pending:
        batch, pending = pending[:PARALLEL], pending[PARALLEL:]
        procs = [(key, full, subprocess.Popen(full, cwd=cwd, env=env, text=True,
                                              encoding="utf-8", stdout=subprocess.PIPE,
                                              stderr=subprocess.PIPE))
                 for key, full in batch]
        for key, full, proc in procs:
            out, err = proc.communicate(timeout=300)
            done[key] = Done(full, proc.returncode, out, err)
    return done


@pytest.fixture(scope="module")
def cli(cli_dir: Path) -> dict[str, Done]:
    commands = {key: [sys.executable, "-m", "tapemagic", *args]
                for key, args in commands_in(cli_dir).items()}
    commands.update({key: [sys.executable, *args] for key, args in PLAIN.items()})
    return _run_all(commands, cli_dir)


@pytest.mark.slow
def test_clean_script_exits_0_and_runs_as_a_script(cli: dict[str, Done], cli_dir: Path) -> None:
    run = cli["clean"]
    assert run.returncode == 0, run.stderr
    assert "grad [2.0, 4.0] ['alpha', 'beta'] __main__" in run.stdout  # no --json in argv
    assert "The weight gets a gradient" in run.stdout
    assert "Traceback" not in run.stderr
    payload = json.loads((cli_dir / "clean.json").read_text(encoding="utf-8"))
    validate_report(payload)
    assert payload["findings"] == [] and payload["exception"] is None


@pytest.mark.slow
def test_runtime_configuration_before_the_first_op_still_works(cli: dict[str, Done]) -> None:
    # tapemagic starts no TensorFlow runtime of its own before the script's first op
    run = cli["runtime-config"]
    assert run.returncode == 0, run.stderr
    assert "config ok 1 4.0" in run.stdout


@pytest.mark.slow
def test_error_finding_exits_1_with_the_report(cli: dict[str, Done]) -> None:
    run = cli["rounded"]
    assert run.returncode == 1, run.stderr
    assert "TM201" in run.stdout
    assert "rounded.py:4" in run.stdout  # where tf.round is
    assert "Traceback" not in run.stderr


@pytest.mark.slow
def test_crashing_script_exits_1_with_traceback_and_report(cli: dict[str, Done]) -> None:
    run = cli["crash"]
    assert run.returncode == 1
    assert "Traceback (most recent call last)" in run.stderr
    assert 'crash.py", line 6' in run.stderr
    assert "RuntimeError: script blew up" in run.stderr
    assert "TM201" in run.stdout  # the report of what ran before the crash


@pytest.mark.slow
def test_json_file_is_written_even_when_the_script_crashed(cli_dir: Path,
                                                           cli: dict[str, Done]) -> None:
    assert cli["crash"].returncode == 1
    payload = json.loads((cli_dir / "crash.json").read_text(encoding="utf-8"))
    validate_report(payload)
    assert payload["exception"]["type"] == "RuntimeError"
    assert payload["exception"]["message"] == "script blew up"
    assert [f["rule"] for f in payload["findings"]] == ["TM201"]


@pytest.mark.slow
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


@pytest.mark.slow
def test_json_stdout_stays_valid_when_the_script_prints(cli: dict[str, Done]) -> None:
    run = cli["json-stdout-printing"]
    assert run.returncode == 1
    validate_report(json.loads(run.stdout))
    assert "gradients:" in run.stderr


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("key", ["explain", "explain-lower"])
def test_explain_prints_the_rule_doc(cli: dict[str, Done], key: str) -> None:
    run = cli[key]
    assert run.returncode == 0, run.stderr
    assert run.stdout == rules.explain("TM301") + "\n"
    assert run.stdout.startswith("TM301 ")


@pytest.mark.slow
def test_script_exit_status_and_dashdash_args_are_the_scripts(cli: dict[str, Done],
                                                              cli_dir: Path) -> None:
    done, plain = cli["exit3"], cli["plain-exit3"]
    assert done.returncode == plain.returncode == 3, done.stderr
    assert plain.stdout.startswith("args ['--', '--json', 'mine.json']")
    assert done.stdout.startswith(plain.stdout)  # `--` after the script is the script's too
    assert not (cli_dir / "mine.json").exists()


@pytest.mark.slow
def test_options_after_the_script_are_the_scripts(cli: dict[str, Done], cli_dir: Path) -> None:
    done, plain = cli["trailing-json"], cli["plain-clean"]
    assert done.returncode == 0, done.stderr
    assert plain.returncode == 0, plain.stderr
    line = "grad [2.0, 4.0] ['alpha', '--json', 'theirs.json', '--steps', '0', '--graph-mode']"
    assert plain.stdout == line + " __main__\n"
    assert done.stdout.startswith(plain.stdout)
    assert not (cli_dir / "theirs.json").exists()  # tapemagic wrote no report there


@pytest.mark.slow
def test_dashdash_before_the_script_ends_tapemagics_options(cli: dict[str, Done]) -> None:
    done = cli["dashdash-before"]
    assert done.returncode == 0, done.stderr
    assert "grad [2.0, 4.0] ['-x'] __main__" in done.stdout


@pytest.mark.slow
def test_sys_exit_0_with_an_error_finding_exits_1(cli: dict[str, Done]) -> None:
    done = cli["exit0-rounded"]
    assert done.returncode == 1, done.stderr
    assert "TM201" in done.stdout
    assert "Traceback" not in done.stderr
    clean = cli["exit0-clean"]
    assert clean.returncode == 0, clean.stderr
    assert "The weight gets a gradient" in clean.stdout


@pytest.mark.slow
def test_sys_exit_message_is_printed_and_exits_1(cli: dict[str, Done]) -> None:
    done = cli["exit-message"]
    assert done.returncode == 1
    assert "bye from the script" in done.stderr.splitlines()
    assert "Traceback" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("key", ["json-unwritable", "json-is-a-dir"])
def test_unwritable_json_destination_is_a_usage_error_before_running(cli: dict[str, Done],
                                                                     key: str) -> None:
    done = cli[key]
    assert done.returncode == 2
    assert done.stderr.startswith("tapemagic: cannot write the --json report to ")
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # the script did not run


@pytest.mark.slow
def test_eager_and_graph_mode_flags(cli: dict[str, Done], cli_dir: Path) -> None:
    eager, graph = cli["eager"], cli["graph-mode"]
    assert eager.returncode == 1, eager.stderr
    eager_report = json.loads((cli_dir / "eager.json").read_text(encoding="utf-8"))
    validate_report(eager_report)
    assert eager_report["mode"] == "forced-eager"
    assert [f["rule"] for f in eager_report["findings"]] == ["TM201"]
    graph_report = json.loads((cli_dir / "graph.json").read_text(encoding="utf-8"))
    validate_report(graph_report)
    assert graph_report["mode"] == "graph"
    assert "result [None]" in graph.stdout
    assert cli["both-modes"].returncode == 2
    assert "not allowed with argument" in cli["both-modes"].stderr


@pytest.mark.slow
def test_latin1_script_with_a_coding_line_runs_as_under_python(cli: dict[str, Done],
                                                               cli_dir: Path) -> None:
    done, plain = cli["latin1"], cli["plain-latin1"]
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == "caf\u00e9 \u00e0 la cr\u00e8me 15\n"
    assert done.returncode == 1, done.stderr  # the tf.round finding
    assert done.stdout.startswith(plain.stdout)
    assert "Traceback" not in done.stderr
    payload = json.loads((cli_dir / "latin1.json").read_text(encoding="utf-8"))
    [finding] = payload["findings"]
    assert finding["location"]["line"] == 6
    assert finding["location"]["source_line"].endswith("# arrondi: \u00e9t\u00e9")


@pytest.mark.slow
def test_utf8_bom_script_runs_as_under_python(cli: dict[str, Done]) -> None:
    done, plain = cli["bom"], cli["plain-bom"]
    assert plain.returncode == done.returncode == 0, done.stderr
    assert done.stdout.startswith(plain.stdout)
    assert plain.stdout == "d\u00e9j\u00e0 vu __main__\n"


@pytest.mark.slow
def test_help_documents_the_exit_status_the_readme_promises(cli: dict[str, Done]) -> None:
    from tapemagic.__main__ import EXIT_STATUS

    done = cli["help"]
    assert done.returncode == 0
    assert EXIT_STATUS in done.stdout
    assert "usage: python -m tapemagic run [OPTIONS] SCRIPT [ARGS...]" in done.stdout
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"```\n{EXIT_STATUS}\n```" in readme


@pytest.mark.parametrize("argv, ours, theirs", [
    (["s.py", "--json", "x"], ["s.py"], ["--json", "x"]),
    (["--json", "x", "--steps", "2", "s.py", "a"], ["--json", "x", "--steps", "2", "s.py"],
     ["a"]),
    (["--json=x", "s.py", "--", "b"], ["--json=x", "s.py"], ["--", "b"]),
    (["--graph-mode", "--", "-s.py", "-v"], ["--graph-mode", "--", "-s.py"], ["-v"]),
    (["--eager"], ["--eager"], []),
])
def test_split_run_arguments(argv: list[str], ours: list[str], theirs: list[str]) -> None:
    from tapemagic.__main__ import split_run_arguments

    assert split_run_arguments(argv) == (ours, theirs)
