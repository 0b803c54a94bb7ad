"""``python -m tapemagic run NOTEBOOK.ipynb``: every code cell in a real nbclient kernel, checked.

Three real runs (each starts a kernel and TensorFlow once), in module fixtures; the tests read
their outputs. The broken notebook has a plain cell, a ``%%time`` cell, a cut whose cause
lives in an earlier cell, a ``%%gradcheck`` cell of its own, a connected cell and a cell that
raises, after which nothing runs. The clean notebook exits 0 with a SARIF log without results.
The magics notebook has a cut in a ``%%time`` cell and one in a ``%%capture`` cell.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from tapemagic.cli.kernel import OUTPUT_TAG
from tapemagic.report.model import MIME_TYPE
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf
ROOT = Path(__file__).resolve().parent.parent
BROKEN = [
    ("markdown", "# A broken training notebook"),
    ("code", "import numpy as np\nimport tensorflow as tf\nw = tf.Variable([1.0, 2.0], name='w')"),
    ("code", "%%time\nx = 1\nprint('plain', x)"),
    ("code", "def loss_fn():\n    return tf.reduce_sum(np.square(w.numpy()))"),
    ("code", "with tf.GradientTape() as tape:\n    loss = loss_fn()\n"
             "grads = tape.gradient(loss, [w])\ngrads"),
    ("code", "%%gradcheck rep\nwith tf.GradientTape() as tape:\n"
             "    loss = tf.reduce_sum(tf.round(w * 3.0))\ngrads = tape.gradient(loss, [w])"),
    ("code", "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(w * w)\n"
             "ok = tape.gradient(loss, [w])"),
    ("code", "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(np.exp(w.numpy()))\n"
             "tape.gradient(loss, [w])\nraise ValueError('boom at the end')"),
    ("code", "print('never runs')"),
]
#: a timed training step with a host round trip (its cell is 3: the markdown cell counts), and a
#: captured one whose body starts after a blank line: each body is compiled under a name of its
#: own (`<timed exec>`), lines counted from the body
ROUND_TRIP = "    loss = tf.constant(np.mean((pred.numpy() - 1.0) ** 2))  # host round trip"
MAGICS = [
    ("code", "import numpy as np\nimport tensorflow as tf\nw = tf.Variable([1.0, 2.0], name='w')"),
    ("markdown", "A timed step"),
    ("code", "%%time\nx = tf.ones((4, 2))\nwith tf.GradientTape() as tape:\n"
             "    pred = x @ w[:, None]\n" + ROUND_TRIP + "\n"
             "grads = tape.gradient(loss, [w])\nprint('timed', grads)"),
    ("code", "%%capture cap\n\nwith tf.GradientTape() as tape:\n"
             "    loss = tf.reduce_sum(tf.round(w * 3.0))\n"
             "grads = tape.gradient(loss, [w])\nprint('captured')"),
    ("code", "print(repr(cap.stdout), len(cap.outputs))"),
    ("code", "%load_ext tapemagic"),  # the notebook's own: quiet, as in a plain kernel
]
CLEAN = [
    ("code", "import tensorflow as tf\nw = tf.Variable([1.0, 2.0], name='w')"),
    ("code", "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(w * w)\n"
             "print('grad', tape.gradient(loss, [w])[0].numpy().tolist())"),
]


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str
    folder: Path


def _notebook(cells: list[tuple[str, str]], path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "markdown"
                else nbformat.v4.new_code_cell(src) for kind, src in cells]
    nbformat.write(nb, path)


def _run(folder: Path, *args: str) -> Done:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=600)
    return Done(done.returncode, done.stdout, done.stderr, folder)


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Done:
    folder = tmp_path_factory.mktemp("broken")
    _notebook(BROKEN, folder / "train.ipynb")
    return _run(folder, "--json", "reports.json", "--output", "executed.ipynb",
                "--format", "github", "--html", "report.html", "train.ipynb")


@pytest.fixture(scope="module")
def magics(tmp_path_factory: pytest.TempPathFactory) -> Done:
    folder = tmp_path_factory.mktemp("magics")
    _notebook(MAGICS, folder / "timed.ipynb")
    return _run(folder, "--json", "reports.json", "--output", "executed.ipynb", "timed.ipynb")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Done:
    folder = tmp_path_factory.mktemp("clean")
    _notebook(CLEAN, folder / "clean.ipynb")
    return _run(folder, "--format", "sarif", "--json", "reports.json", "clean.ipynb")


@pytest.mark.slow
def test_findings_are_printed_cell_by_cell_at_the_cause(broken: Done) -> None:
    assert broken.returncode == 1, broken.stderr
    out = broken.stdout
    # the cut found while cell 5 ran is in cell 4 (line 2, column 36), where loss_fn lives
    assert "== train.ipynb, cell 5 (In[4]) ==\ntrain.ipynb, cell 4 (In[3]), line 2: TM301 " \
        in out
    rows = {row["cell"]: row["report"] for row in
            json.loads((broken.folder / "reports.json").read_text())}
    location = rows[5]["findings"][0]["location"]
    assert (location["cell"], location["line"], location["col"]) == (4, 2, 35)
    assert location["where"] == "cell 4 (In[3]), line 2"
    # the %%gradcheck cell is checked once, by its own magic (line 1 is the magic line)
    assert "train.ipynb, cell 6 (In[5]), line 3: " in out
    assert out.count("== train.ipynb, cell 6 ") == 1
    # the cell that raised still has its report
    assert "train.ipynb, cell 8 (In[7]), line 2: " in out
    assert "cell 2 " not in out and "cell 3 " not in out  # no gradient there: nothing shown
    assert "ValueError: boom at the end" in broken.stderr


@pytest.mark.slow
def test_github_annotations_name_the_notebook_and_the_cell(broken: Done) -> None:
    lines = [line for line in broken.stdout.splitlines() if line.startswith("::")]
    assert lines and all(line.startswith("::error file=train.ipynb,title=TM") for line in lines)
    assert any("::cell 4 (In[3]), line 2: " in line for line in lines)


@pytest.mark.slow
def test_a_raising_cell_stops_the_run(broken: Done) -> None:
    nb = nbformat.read(broken.folder / "executed.ipynb", as_version=4)
    last = nb.cells[-1]
    assert last.execution_count is None and last.outputs == []
    assert any(o.output_type == "error" and o.ename == "ValueError" for o in nb.cells[-2].outputs)


@pytest.mark.slow
def test_json_has_one_valid_report_per_cell_that_ran(broken: Done) -> None:
    rows = json.loads((broken.folder / "reports.json").read_text())
    assert [row["cell"] for row in rows] == [2, 3, 4, 5, 6, 7, 8]
    assert [row["execution_count"] for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    for row in rows:
        validate_report(row["report"])
    codes = {row["cell"]: [f["rule"] for f in row["report"]["findings"]] for row in rows}
    assert codes[5] == ["TM301"] and codes[8] == ["TM301"]
    assert "TM201" in codes[6]
    assert codes[2] == codes[3] == codes[4] == codes[7] == []


@pytest.mark.slow
def test_executed_notebook_keeps_sources_outputs_and_carries_the_reports(broken: Done) -> None:
    nb = nbformat.read(broken.folder / "executed.ipynb", as_version=4)
    assert [c.source for c in nb.cells] == [src for _, src in BROKEN]
    reports = [[o for o in c.get("outputs", []) if MIME_TYPE in o.get("data", {})]
               for c in nb.cells]
    assert [len(r) for r in reports] == [0, 0, 0, 0, 1, 1, 1, 1, 0]
    for found in reports:
        for output in found:
            validate_report(output["data"][MIME_TYPE])
            assert {"text/html", "text/plain"} <= set(output["data"])
    assert reports[4][0].metadata[OUTPUT_TAG] is True
    assert OUTPUT_TAG not in reports[5][0].get("metadata", {})  # the notebook's own magic
    cell5 = reports[4][0]["data"][MIME_TYPE]
    assert cell5["cell"]["source"] == BROKEN[4][1]  # the cell as written: no magic line
    assert cell5["findings"][0]["location"]["execution_count"] == 3
    assert cell5["findings"][0]["location"]["line"] == 2
    time_cell = "".join(o.get("text", "") for o in nb.cells[2].outputs)
    assert "plain 1" in time_cell and "Wall time" in time_cell  # %%time behaved as plain
    assert nb.cells[4].outputs[0].output_type == "execute_result"  # `grads`, the display hook


@pytest.mark.slow
def test_html_report_of_a_notebook_names_its_cells(broken: Done) -> None:
    page = (broken.folder / "report.html").read_text(encoding="utf-8")
    assert page.count('<section class="tm-report"') == 4
    assert "cell 4 (In[3]), line 2" in page
    assert "<script" not in page.lower()


@pytest.mark.slow
def test_clean_notebook_exits_0_with_an_empty_sarif_log(clean: Done) -> None:
    assert clean.returncode == 0, clean.stderr
    log = json.loads(clean.stdout)
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]
    assert "The weight gets a gradient" in clean.stderr
    rows = json.loads((clean.folder / "reports.json").read_text())
    assert [row["cell"] for row in rows] == [1, 2]
    assert rows[1]["report"]["gradient_calls"][0]["sources"][0]["verdict"] == "connected"


@pytest.mark.slow
def test_a_cut_in_a_timed_cell_is_at_the_cells_own_line(magics: Done) -> None:
    assert magics.returncode == 1, magics.stderr
    out = magics.stdout
    column = ROUND_TRIP.index("pred.numpy()") + 1  # 1-based, as `tapemagic lint` prints it
    # line 1 of the cell is %%time: the round trip is the cell's line 5, the body's line 4
    assert "== timed.ipynb, cell 3 (In[2]) ==\ntimed.ipynb, cell 3 (In[2]), line 5: TM301 " in out
    assert f"    at: cell 3 (In[2]), line 5\n      | {ROUND_TRIP}\n" in out  # the excerpt
    assert "gradient call grad1: tape.gradient(loss) at cell 3 (In[2]), line 6 " in out
    assert "<timed exec>" not in out
    nb = nbformat.read(magics.folder / "executed.ipynb", as_version=4)
    timed = "".join(o.get("text", "") for o in nb.cells[2].outputs)
    assert "timed [None]" in timed and "Wall time" in timed  # %%time behaved as plain
    rows = {row["cell"]: row["report"] for row in
            json.loads((magics.folder / "reports.json").read_text())}
    location = rows[3]["findings"][0]["location"]
    assert (location["line"], location["col"], location["execution_count"]) == (
        5, column - 1, 2)
    assert location["source_line"] == ROUND_TRIP


@pytest.mark.slow
def test_a_captured_cell_shows_its_report_and_captures_only_its_own(magics: Done) -> None:
    # %%capture runs its body as a cell of its own (run_cell): still this cell's check, lines
    assert "timed.ipynb, cell 4 (In[3]), line 4: TM201" in magics.stdout
    nb = nbformat.read(magics.folder / "executed.ipynb", as_version=4)
    assert [o.metadata.get(OUTPUT_TAG) for o in nb.cells[3].outputs] == [True]
    assert nb.cells[4].outputs[0].text == "'captured\\n' 0\n"  # as without the check


def test_missing_or_unreadable_notebook_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tapemagic.cli import main

    assert main(["run", str(tmp_path / "missing.ipynb")]) == 2
    assert "no such notebook" in capsys.readouterr().err
    (tmp_path / "broken.ipynb").write_text("{not json")
    assert main(["run", str(tmp_path / "broken.ipynb")]) == 2
    assert "not a readable notebook" in capsys.readouterr().err


@pytest.mark.slow
def test_the_runners_own_kernel_says_nothing_in_the_users_output(magics: Done) -> None:
    # the runner's kernel talks over private IPC sockets: no TCP warning on the run's stderr
    assert "without encryption" not in magics.stderr
    assert "Parent appears to have exited" not in magics.stderr  # the runner shut it down
    nb = nbformat.read(magics.folder / "executed.ipynb", as_version=4)
    assert nb.cells[-1].source == "%load_ext tapemagic"
    assert nb.cells[-1].outputs == []  # not IPython's "already loaded": the runner loaded it


@pytest.mark.slow
def test_the_runner_shuts_its_kernel_down_also_after_a_raising_cell(broken: Done) -> None:
    # the kernel holds the run's stderr until it exits: it must not outlive the run
    assert "Parent appears to have exited" not in broken.stderr
    assert "boom at the end" in broken.stderr


def test_a_missing_notebook_runner_is_one_line_and_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tapemagic.cli import main

    (tmp_path / "one.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    monkeypatch.setitem(sys.modules, "nbclient", None)  # as if not installed: import fails
    assert main(["run", str(tmp_path / "one.ipynb")]) == 2
    err = capsys.readouterr().err
    assert "needs nbclient, nbformat and ipykernel" in err and "Traceback" not in err
    assert err.count("\n") == 1
