"""Programs run by ``python -m tapemagic run --json`` in a fresh process, as the tests start them.

Shared by the tests of ``tf.distribute`` (a multi-worker cluster is two such processes).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from tapemagic.report.validate import validate_report
from tapemagic.user_code import misplaced


def line_in(source: str, text: str) -> int:
    """Return the first line of ``source`` that contains ``text``."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


def start_run(tmp_path: Path, name: str, source: str, *options: str,
              env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """Start ``python -m tapemagic run [options] --json NAME.json NAME.py`` on ``source``."""
    script = tmp_path / f"{name}.py"
    script.write_text(source)
    command = [sys.executable, "-m", "tapemagic", "run", *options,
               "--json", str(tmp_path / f"{name}.json"), str(script)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})})


def finish_run(tmp_path: Path, name: str, process: subprocess.Popen[str],
               ) -> tuple[int, dict[str, Any], str]:
    """Wait for a run; return its exit status, its report (validated) and its output.

    Validated: against the schema, and every place in it is in the user's code.
    """
    out, _ = process.communicate(timeout=600)  # a bound that only stops a hang
    report = json.loads((tmp_path / f"{name}.json").read_text())
    validate_report(report)
    assert not misplaced(report), misplaced(report)  # every place is the user's code
    return process.returncode, report, out


def loud_findings(report: dict[str, Any]) -> list[tuple[str, int, tuple[str, ...]]]:
    """Return (rule, line, weights) of each warning or error finding of a JSON report."""
    return [(f["rule"], f["location"]["line"], tuple(f["variables"]))
            for f in report["findings"] if f["severity"] != "info"]


def free_ports(count: int) -> list[int]:
    """Return ``count`` TCP ports free on this host now."""
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def run_two_workers(tmp_path: Path, source: str) -> list[tuple[int, dict[str, Any], str]]:
    """Run ``source`` as both workers of a local MultiWorkerMirroredStrategy cluster."""
    cluster = {"worker": [f"127.0.0.1:{port}" for port in free_ports(2)]}
    workers = [
        start_run(tmp_path, f"worker{index}", source, env={"TF_CONFIG": json.dumps(
            {"cluster": cluster, "task": {"type": "worker", "index": index}})})
        for index in range(2)
    ]
    return [finish_run(tmp_path, f"worker{index}", process)
            for index, process in enumerate(workers)]
