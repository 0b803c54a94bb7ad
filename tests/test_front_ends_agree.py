"""A ``%%gradcheck`` fit: its report while training goes on, and one name for each place.

One notebook (a quantised custom layer whose ``call`` rounds its kernel, trained by a 5-epoch
``fit`` under ``%%gradcheck``) is run three ways: by nbclient in a real kernel, by ``python -m
tapemagic run`` (nbclient too, with the run's own hooks) and in the real IPython shell of the
test session. Each names the cut's place the same way in every output (text, HTML, JSON, CI
messages); the run knows the cell's position in the file too and adds it. And the report is
published while ``fit`` trains (a Keras callback in the notebook counts the reports published
by each epoch's end: a flag, not a clock), then replaced in place by the final one.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tapemagic.report.mime import MIME_TYPE

pytestmark = pytest.mark.tf
ROOT = Path(__file__).resolve().parent.parent

IMPORTS = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras"
HELPERS = '''\
import json
from tapemagic.report.mime import MIME_TYPE


def watch_displays():
    """Record every report the cell publishes: display id, update or not, headline."""
    publisher = get_ipython().display_pub
    publish = publisher.publish
    published = []

    def recording(data, metadata=None, *args, **kwargs):
        if MIME_TYPE in data:
            published.append({"id": (kwargs.get("transient") or {}).get("display_id"),
                              "update": bool(kwargs.get("update")),
                              "headline": data[MIME_TYPE]["headline"]})
        return publish(data, metadata, *args, **kwargs)

    publisher.publish = recording
    return published


class Watch(keras.callbacks.Callback):
    def __init__(self, published):
        super().__init__()
        self.published = published

    def on_epoch_end(self, epoch, logs=None):
        print(f"epoch {epoch + 1}: {len(self.published)} report(s) shown")
'''
LAYER = '''\
class QuantizedDense(keras.layers.Layer):
    def __init__(self, units, **kw):
        super().__init__(**kw)
        self.units = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def call(self, x):
        w_q = tf.round(self.kernel * 127.0) / 127.0
        return tf.matmul(x, w_q) + self.bias'''
ROUND_LINE = 11  # of LAYER
MODEL = '''\
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 8)).astype("float32")
y = (x.sum(axis=1) > 0).astype("float32")[:, None]
model = keras.Sequential([keras.Input((8,)), QuantizedDense(4, name="q1"),
                          keras.layers.ReLU(name="act"), QuantizedDense(2, name="q2"),
                          keras.layers.Dense(1, activation="sigmoid", name="head")])
model.compile(optimizer="adam", loss="binary_crossentropy")'''
FIT = '''\
%%gradcheck
print("before fit")
published = watch_displays()
model.fit(x, y, epochs=5, verbose=0, callbacks=[Watch(published)])
print("after fit")'''
CELLS = [("markdown", "# A quantised layer"), ("code", IMPORTS + "\n%load_ext tapemagic"),
         ("code", HELPERS), ("code", LAYER), ("code", MODEL), ("code", FIT),
         ("code", "print(json.dumps(published))")]
LAYER_CELL, LAYER_COUNT, FIT_CELL = 4, 3, 6  # cell positions count the markdown cell
#: The ways a place was named before there was one (issue 31).
OLD_FORMS = re.compile(r"\(L\d+\)|In\[\d+\] line \d|In\[\d+\] L\d|cell \d+:\d+")


def _env() -> dict[str, str]:
    return dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))


def _write(folder: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "markdown"
                else nbformat.v4.new_code_cell(src) for kind, src in CELLS]
    path = folder / "train.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def notebook(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The notebook executed by nbclient in a plain kernel (``%%gradcheck`` shows the report)."""
    from nbclient import NotebookClient

    folder = tmp_path_factory.mktemp("magic")
    nb = nbformat.read(_write(folder), as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(folder)}}).execute(env=_env())
    return nb


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The same notebook through ``python -m tapemagic run`` (text, GitHub, JSON, HTML)."""
    folder = tmp_path_factory.mktemp("cli")
    _write(folder)
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", "--json", "r.json",
                           "--html", "r.html", "--format", "github", "train.ipynb"],
                          cwd=folder, env=_env(), capture_output=True, text=True, timeout=900)
    assert done.returncode == 1, done.stderr  # an error finding
    rows = json.loads((folder / "r.json").read_text(encoding="utf-8"))
    return {"stdout": done.stdout, "html": (folder / "r.html").read_text(encoding="utf-8"),
            "report": next(r["report"] for r in rows if r["cell"] == FIT_CELL)}


def _bundle(nb: Any) -> dict[str, Any]:
    [output] = [o for o in nb.cells[FIT_CELL - 1].outputs if MIME_TYPE in o.get("data", {})]
    return dict(output["data"])


def _streams(nb: Any, index: int) -> str:
    return "".join(o.get("text", "") for o in nb.cells[index].outputs
                   if o.output_type == "stream" and o.name == "stdout")


def _cut(report: dict[str, Any]) -> dict[str, Any]:
    [finding] = [f for f in report["findings"] if f["rule"] == "TM201"]
    return finding


def _named_everywhere(report: dict[str, Any], texts: list[str]) -> str:
    """Return the cut's place, after checking that every output names it that same way."""
    finding = _cut(report)
    where = finding["location"]["where"]
    assert finding["api"] == "tf.round"  # the API's name, never the call's text
    assert [s["where"] for s in finding["chain"] if s["cut"]] == [where]
    assert any(n["where"] == where for n in report["graph"]["nodes"])
    assert f"    at: {where}, in call()" in texts[0]  # the text report
    for text in texts:
        assert where in html.unescape(text)
        assert not OLD_FORMS.search(text), OLD_FORMS.search(text)
    return str(where)


@pytest.mark.slow
def test_the_report_is_shown_while_fit_trains_then_replaced_in_place(notebook: Any) -> None:
    published = json.loads(_streams(notebook, FIT_CELL))
    early, final = published
    assert (early["update"], final["update"]) == (False, True)
    assert early["id"] and early["id"] == final["id"]  # one output, updated: one report
    assert early["headline"].endswith(
        "; training continues: interrupt the kernel (\u25a0) to stop, this report stays")
    assert "training continues" not in final["headline"]
    outputs = notebook.cells[FIT_CELL - 1].outputs
    kinds = ["report" if MIME_TYPE in o.get("data", {}) else o.get("text", "")
             for o in outputs if o.output_type != "stream" or o.name == "stdout"]
    text = "".join(k for k in kinds if k != "report")
    # the user's prints, in their order; the report already out when epoch 1 ended (by the
    # callback's count, not a clock), and its output holds the final report now
    assert re.fullmatch(r"before fit\n(epoch \d: 1 report\(s\) shown\n){5}after fit\n", text)
    assert kinds.index("report") < next(i for i, k in enumerate(kinds) if "epoch 1" in k)
    assert _bundle(notebook)[MIME_TYPE]["headline"] == final["headline"]


@pytest.mark.slow
def test_a_notebook_and_its_run_name_the_cut_the_same_way(notebook: Any,
                                                          cli: dict[str, Any]) -> None:
    bundle = _bundle(notebook)
    where = _named_everywhere(bundle[MIME_TYPE], [bundle["text/plain"], bundle["text/html"]])
    assert where == f"In[{LAYER_COUNT}], line {ROUND_LINE}"
    github = [line for line in cli["stdout"].splitlines() if line.startswith("::")]
    run_where = _named_everywhere(cli["report"], [cli["stdout"], cli["html"], *github])
    # the run knows where the cell is in the file, and says so the same way
    assert run_where == where.replace(f"In[{LAYER_COUNT}]",
                                      f"cell {LAYER_CELL} (In[{LAYER_COUNT}])")
    assert f"train.ipynb, {run_where}: TM201 " in cli["stdout"]
    assert any(line.split("::")[2].startswith(f"{run_where}: ") for line in github)


@pytest.mark.slow
def test_ipython_shows_the_report_early_and_names_the_cut_as_the_notebook_does(
        shell: Any, run_cell: Callable[[str], Any], notebook: Any) -> None:
    for source in (IMPORTS, HELPERS):
        assert run_cell(source).error is None
    layer = run_cell(LAYER)
    assert run_cell(MODEL).error is None
    run = run_cell(FIT)
    assert run.error is None, run.error
    early, final = shell.user_ns["published"]
    assert (early["update"], final["update"]) == (False, True) and early["id"] == final["id"]
    assert early["headline"].endswith("; training continues: press Ctrl-C to stop, this "
                                      "report stays")
    assert re.fullmatch(r"before fit\n(epoch \d: 1 report\(s\) shown\n){5}after fit\n",
                        run.stdout)
    shown = run.outputs[-1]  # a terminal prints the update: the final report, last
    where = _named_everywhere(shown[MIME_TYPE], [shown["text/plain"], shown["text/html"]])
    assert where == f"In[{layer.count}], line {ROUND_LINE}"
    assert _cut(shown[MIME_TYPE])["api"] == _cut(_bundle(notebook)[MIME_TYPE])["api"]
