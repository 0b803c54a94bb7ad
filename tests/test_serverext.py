"""The lint endpoint, through a real `jupyter server` subprocess on a free loopback port.

The server reads the config file the wheel ships (copied from the repo's `jupyter-config/` into
the server's JUPYTER_CONFIG_DIR, since the test venv is an editable install that did not put it
into `etc/jupyter`), so these tests also prove that the shipped file alone enables the extension.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomllib

REPO = Path(__file__).resolve().parent.parent
TOKEN = "tapemagic-lint-test-token"
BROKEN = """\
%%gradcheck
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
!nvidia-smi
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(tf.ones((2, 3))))
    loss = tf.constant(loss.numpy())
grads = tape.gradient(loss, model.trainable_variables)
"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("jupyter_server")
    home = tmp_path_factory.mktemp("server-home")
    shutil.copytree(REPO / "jupyter-config", home / "config")
    port = _free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                      if p),
    }
    log = home / "server.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}",
             "--ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}",
             f"--ServerApp.root_dir={home}", "--ServerApp.port_retries=0",
             "--allow-root"],
            env=env, stdout=out, stderr=subprocess.STDOUT, cwd=home)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 300  # a bound, not a measure: loaded machines are slow
        while True:
            try:
                urllib.request.urlopen(f"{base}api/status?token={TOKEN}", timeout=2)
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("jupyter server did not start:\n" + log.read_text())
                time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert "tapemagic: lint endpoint at /tapemagic/lint" in log.read_text()


def _post(url: str, body: bytes, token: str | None = TOKEN) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.slow
def test_lint_endpoint_answers_hints_in_cell_coordinates(server: str) -> None:
    status, text = _post(server + "tapemagic/lint",
                         json.dumps({"source": BROKEN, "path": "nb.ipynb"}).encode())
    assert status == 200, text
    hints = json.loads(text)["hints"]
    assert [(h["code"], h["line"], h["col"]) for h in hints] == [("TM301", 7, 23)]
    hint = hints[0]
    assert hint["path"] == "nb.ipynb" and hint["severity"] == "hint"
    assert BROKEN.split("\n")[6][hint["col"]:hint["end_col"]] == "loss.numpy()"
    assert hint["fix"]["edits"] == [{"line": 7, "col": 23, "end_line": 7, "end_col": 35,
                                     "text": "loss"}]


@pytest.mark.slow
def test_lint_endpoint_is_silent_on_correct_code(server: str) -> None:
    fixed = BROKEN.replace("    loss = tf.constant(loss.numpy())\n", "")
    status, text = _post(server + "tapemagic/lint", json.dumps({"source": fixed}).encode())
    assert status == 200, text
    assert json.loads(text) == {"hints": []}


@pytest.mark.slow
@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'{"path": "x"}',
                                  b'{"source": 3}', b'{"source": "x = 1", "path": 7}'])
def test_bad_body_is_a_400_with_one_line(server: str, body: bytes) -> None:
    status, text = _post(server + "tapemagic/lint", body)
    assert status == 400
    message = json.loads(text)["message"]
    assert message and "\n" not in message


@pytest.mark.slow
@pytest.mark.parametrize("token", [None, "not-the-token"])
def test_endpoint_needs_authentication(server: str, token: str | None) -> None:
    status, _ = _post(server + "tapemagic/lint", b'{"source": "x = 1"}', token=token)
    assert status == 403


def test_wheel_ships_the_server_config() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    shared = project["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    assert shared["jupyter-config/jupyter_server_config.d"] == \
        "etc/jupyter/jupyter_server_config.d"
    config = json.loads(
        (REPO / "jupyter-config/jupyter_server_config.d/tapemagic.json").read_text())
    assert config == {"ServerApp": {"jpserver_extensions": {"tapemagic.serverext": True}}}
