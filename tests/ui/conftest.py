"""Fixtures for the browser tests: a real `jupyter lab` on a free loopback port, and Chromium.

Nothing here downloads a browser: Playwright drives Debian's /usr/bin/chromium. The tests are
skipped (not failed) when Chromium, Python playwright or the built extension is missing.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("TAPEMAGIC_CHROMIUM", "/usr/bin/chromium"))
REPO = Path(__file__).resolve().parents[2]
BUILT = REPO / "tapemagic" / "labextension"
ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _installed_extension() -> bool:
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "tapemagic" / "package.json"
    return share.exists()


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's root directory; tests write their notebooks here."""
    return tmp_path_factory.mktemp("lab-root")


def _serve(home: Path, root: Path, module: str, app_class: str):
    """Start a Jupyter server app (`python -m <module>`) and yield its base URL.

    `app_class` names the frontend app (LabApp, JupyterNotebookApp) for its own options.
    """
    if not (BUILT / "package.json").exists() and not _installed_extension():
        pytest.skip("tapemagic lab extension not built (cd labextension && jlpm build:prod)")
    pytest.importorskip(module)
    settings = home / "app-settings"
    settings.mkdir()
    # Hide the news toast, which would cover the notebook (toolchain.md P9).
    (settings / "overrides.json").write_text(
        json.dumps({"@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}})
    )
    extra = home / "labextensions"
    extra.mkdir()
    if (BUILT / "package.json").exists():
        # The repo's fresh build wins over an older installed copy.
        (extra / "tapemagic").symlink_to(BUILT, target_is_directory=True)
    port = _free_port()
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_PLATFORM_DIRS": "1",
        "IPYTHONDIR": str(home / "ipython"),
    }
    cmd = [
        sys.executable, "-m", module, "--no-browser", "--allow-root",
        f"--port={port}", "--ip=127.0.0.1", "--ServerApp.port_retries=0",
        "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={root}",
        f"--{app_class}.expose_app_in_browser=True",
        f"--{app_class}.app_settings_dir={settings}",
        f"--{app_class}.user_settings_dir={home / 'user-settings'}",
        f"--{app_class}.workspaces_dir={home / 'workspaces'}",
        # LabServerApp: every frontend app of the server (Notebook 7 also loads JupyterLab's
        # server extension, whose /lab/extensions/ handler is registered first).
        f"--LabServerApp.extra_labextensions_path={extra}",
    ]
    log = open(home / "server.log", "wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a bound, not a measure: loaded machines are slow
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{module} exited: {(home / 'server.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{module} did not start in 60 s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory, lab_root: Path):
    """Start `jupyter lab` (no token, loopback only) and yield its base URL."""
    yield from _serve(tmp_path_factory.mktemp("lab-home"), lab_root, "jupyterlab", "LabApp")


@pytest.fixture(scope="session")
def plain_lab(tmp_path_factory: pytest.TempPathFactory):
    """JupyterLab with the tapemagic extension disabled: outputs show the report's text/html.

    Yields (base URL, server root, the server's Jupyter data dir: where a notebook's trust
    signature must be stored for Lab to render its HTML outputs unsanitised).
    """
    home = tmp_path_factory.mktemp("plain-lab-home")
    root = tmp_path_factory.mktemp("plain-lab-root")
    labconfig = home / "config" / "labconfig"
    labconfig.mkdir(parents=True)
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"tapemagic": True}}))
    for url in _serve(home, root, "jupyterlab", "LabApp"):
        yield url, root, home / "data"


@pytest.fixture(scope="session")
def notebook_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Notebook 7 server's root directory."""
    return tmp_path_factory.mktemp("notebook-root")


@pytest.fixture(scope="session")
def notebook_server(tmp_path_factory: pytest.TempPathFactory, notebook_root: Path):
    """Start Notebook 7 (`jupyter notebook`, no token, loopback only) and yield its base URL."""
    yield from _serve(
        tmp_path_factory.mktemp("notebook-home"), notebook_root, "notebook", "JupyterNotebookApp"
    )


@pytest.fixture(scope="session")
def browser():
    """Chromium from Debian, driven by Python playwright (never `playwright install`)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    """A fresh page; console errors are collected on `page.errors`."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    pg = context.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))  # type: ignore[attr-defined]
    yield pg
    context.close()


@pytest.fixture
def shot():
    """Save a screenshot under tests/artifacts/ (gitignored) and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, **kw) -> Path:
        path = ARTIFACTS / f"ui_{name}.png"
        page.screenshot(path=str(path), **kw)
        return path

    return take


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.ui)


