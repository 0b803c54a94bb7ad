"""Benchmark (run by hand, never from the tests): typing latency in a 200-cell notebook in Lab.

    python bench/lab_typing.py [--extension DIR] [--cells 200] [--reports 20] [--keys 80]

Starts a real ``jupyter lab`` on a free loopback port (no token) with the tapemagic extension
from DIR (default: the repo's build, ``tapemagic/labextension``), opens a notebook of
``--cells`` code cells of which ``--reports`` carry a saved tapemagic report output (the
seed-000 sample), clicks into a cell in the middle and types ``--keys`` characters in headless
Chromium (Debian's /usr/bin/chromium, driven by Playwright). For each key it measures the time
from the ``keydown`` event to the first task after the next frame (what the user waits for),
and over the whole burst the main thread's script and task time (Chrome DevTools Protocol
``Performance.getMetrics``), plus the same once typing has settled (work a debounce defers
still counts). Prints median and 95th percentile per key, and the totals.

Compare builds by passing ``--extension`` the folder of each (``jlpm build`` writes it). The
figures depend on the machine's load: say it with them.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "samples" / "seed000_sample.json"
MIME = "application/vnd.tapemagic.report.v1+json"
CHROMIUM = "/usr/bin/chromium"

# Per key: keydown → the first task after the next animation frame (the frame that shows it).
PROBE = """() => {
  window.__lat = [];
  document.addEventListener('keydown', () => {
    const t0 = performance.now();
    requestAnimationFrame(() => setTimeout(() => window.__lat.push(performance.now() - t0), 0));
  }, true);
}"""


def _notebook(path: Path, cells: int, reports: int) -> None:
    payload = json.loads(SAMPLE.read_text())
    every = max(1, cells // max(1, reports))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for i in range(cells):
        if i % every == 0 and reports:
            cell = nbformat.v4.new_code_cell(payload["cell"]["source"].rstrip("\n"), id=f"c{i}")
            cell.execution_count = i + 1
            cell.outputs = [nbformat.v4.new_output(
                "display_data", data={MIME: payload, "text/plain": payload["headline"]})]
        else:
            cell = nbformat.v4.new_code_cell(f"x{i} = {i} * 2\nprint(x{i})", id=f"c{i}")
        nb.cells.append(cell)
    nbformat.write(nb, path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(home: Path, extension: Path) -> tuple[subprocess.Popen, str]:
    extra = home / "labextensions"
    extra.mkdir()
    (extra / "tapemagic").symlink_to(extension, target_is_directory=True)
    settings = home / "settings"
    settings.mkdir()
    (settings / "overrides.json").write_text(json.dumps(
        {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false"}}))
    port = _free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_PLATFORM_DIRS": "1"}
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
           "--ip=127.0.0.1", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
           "--ServerApp.password=", f"--ServerApp.root_dir={home / 'root'}",
           "--LabApp.expose_app_in_browser=True", f"--LabApp.app_settings_dir={settings}",
           f"--LabApp.workspaces_dir={home / 'ws'}",
           f"--LabServerApp.extra_labextensions_path={extra}"]
    log = open(home / "server.log", "wb")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("jupyter lab did not start")


def _metrics(cdp) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def measure(url: str, keys: int, cells: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/lab/tree/typing.ipynb?reset")
        page.wait_for_function("() => window.jupyterapp?.shell.currentWidget?.content?.widgets"
                               f"?.length === {cells}", timeout=120_000)
        page.wait_for_selector(".jp-tapemagic-report", timeout=120_000)
        time.sleep(3)  # let the opening settle (layouts, the panel)
        target = cells // 2 + 1
        page.evaluate("""i => { const nb = window.jupyterapp.shell.currentWidget.content;
            nb.activeCellIndex = i; return nb.scrollToCell(nb.widgets[i]); }""", target)
        page.locator(".jp-Cell.jp-mod-active .cm-content").click()
        page.keyboard.press("End")
        page.evaluate(PROBE)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        before = _metrics(cdp)
        t0 = time.perf_counter()
        for k in range(keys):
            page.keyboard.type("abcdefghij"[k % 10])
        page.wait_for_function(f"() => window.__lat.length >= {keys}", timeout=120_000)
        typed = time.perf_counter() - t0
        burst = _metrics(cdp)
        time.sleep(1.0)  # deferred work (a debounced rescan) runs now
        settled = _metrics(cdp)
        lat = sorted(page.evaluate("() => window.__lat"))
        browser.close()
    return {
        "median_ms": statistics.median(lat),
        "p95_ms": lat[int(0.95 * (len(lat) - 1))],
        "max_ms": lat[-1],
        "wall_s": typed,
        "script_ms": 1000 * (burst["ScriptDuration"] - before["ScriptDuration"]),
        "task_ms": 1000 * (burst["TaskDuration"] - before["TaskDuration"]),
        "script_settled_ms": 1000 * (settled["ScriptDuration"] - before["ScriptDuration"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extension", type=Path, default=REPO / "tapemagic" / "labextension")
    ap.add_argument("--cells", type=int, default=200)
    ap.add_argument("--reports", type=int, default=20)
    ap.add_argument("--keys", type=int, default=80)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    if not (args.extension / "package.json").exists():
        sys.exit(f"{args.extension}: no built extension (cd labextension && jlpm build)")
    with tempfile.TemporaryDirectory(prefix="lab-typing-") as tmp:
        home = Path(tmp)
        (home / "root").mkdir()
        _notebook(home / "root" / "typing.ipynb", args.cells, args.reports)
        proc, url = _serve(home, args.extension.resolve())
        try:
            for run in range(args.runs):
                r = measure(url, args.keys, args.cells)
                print(f"run {run + 1}: per key median {r['median_ms']:.1f} ms, "
                      f"p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.1f} ms; "
                      f"{args.keys} keys in {r['wall_s']:.2f} s; main-thread script "
                      f"{r['script_ms']:.0f} ms (tasks {r['task_ms']:.0f} ms), "
                      f"{r['script_settled_ms']:.0f} ms once settled; "
                      f"load {os.getloadavg()[0]:.1f}")
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
