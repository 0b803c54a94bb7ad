"""The seed notebooks ``demo/*.ipynb``: committed with outputs, and what their cells display.

Each notebook has a broken cell under ``%%gradcheck rep`` and a fixed one under
``%%gradcheck fixed``. The checks read the cells' OUTPUTS, the way GitHub or a JupyterLab without
a kernel would see them: the report bundle (validated against the schema), its rule codes and
verdicts, and the error the seed-004 cell raises. They run on the committed notebooks (TF-free)
and on a fresh nbclient execution of a temporary copy (``tf`` mark). Regenerate the notebooks
with ``.venv/bin/python demo/build_notebooks.py``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tapemagic.report.model import MIME_TYPE
from tapemagic.report.validate import validate_report

DEMO = Path(__file__).resolve().parent.parent / "demo"
NOTEBOOKS = sorted(DEMO.glob("*.ipynb"))
RAISES = "raises-exception"
# Same as demo/build_notebooks.py: keep TensorFlow's start-up log lines out of the outputs.
KERNEL_ENV = {"TF_CPP_MIN_LOG_LEVEL": "2", "TF_ENABLE_ONEDNN_OPTS": "0"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Expect:
    rules: frozenset[str]  # the rule codes of the broken report, exactly
    primary: frozenset[str]  # the rules of its primary findings
    weights: int  # gradient sources, in the broken and in the fixed report
    error: tuple[str, str] | None = None  # (ename, text in evalue) the broken cell raises


EXPECTED = {
    "seed000_numpy_in_loss": Expect(frozenset({"TM301", "TM101", "TM303"}),
                                    frozenset({"TM301", "TM101"}), 4),
    "seed002_hypernetwork_assign": Expect(frozenset({"TM402"}), frozenset({"TM402"}), 2),
    # graph mode, as written: fit's tracing stops at the eval line, the rest traced on past it
    "seed004_fit_argsort_sets": Expect(frozenset({"TM301", "TM202", "TM201"}),
                                       frozenset({"TM301"}), 4,
                                       ("AttributeError", "SymbolicTensor")),
}


# ---------------------------------------------------------------- helpers


def _code_cells(nb: Any) -> list[Any]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def _magic_cell(nb: Any, first_line: str) -> Any:
    cells = [c for c in _code_cells(nb) if c.source.splitlines()[:1] == [first_line]]
    assert len(cells) == 1, f"expected one cell starting with {first_line!r}, got {len(cells)}"
    return cells[0]


def _errors(cell: Any) -> list[Any]:
    return [o for o in cell.outputs if o.output_type == "error"]


def _report(cell: Any) -> dict[str, Any]:
    """Return the tapemagic report the cell displayed (exactly one), validated."""
    bundles = [o for o in cell.outputs
               if o.output_type == "display_data" and MIME_TYPE in o.get("data", {})]
    assert len(bundles) == 1, f"expected one report display, got {len(bundles)}: {cell.outputs}"
    data = bundles[0]["data"]
    payload = data[MIME_TYPE]
    if isinstance(payload, str):  # JSON mime data may be stored as text
        payload = json.loads(payload)
    payload = json.loads(json.dumps(payload))  # plain dicts and lists, as a front end gets them
    validate_report(payload)
    # What renders without the lab extension (GitHub, nbviewer, a plain JupyterLab).
    assert data.get("text/html", "").strip() and data.get("text/plain", "").strip()
    return payload


def _sources(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for call in payload["gradient_calls"] for s in call["sources"]]


def check_outputs(nb: Any, name: str) -> None:
    """Assert what the cells of the notebook ``name`` display."""
    expect = EXPECTED[name]
    for cell in _code_cells(nb):
        assert cell.execution_count is not None, f"cell {cell.get('id')} did not run"
        if RAISES not in cell.metadata.get("tags", []):
            assert not _errors(cell), f"cell {cell.get('id')} raised: {_errors(cell)}"

    broken = _magic_cell(nb, "%%gradcheck rep")
    rep = _report(broken)
    rules = [f["rule"] for f in rep["findings"]]
    assert set(rules) == expect.rules, rules
    assert {f["rule"] for f in rep["findings"] if f["primary"]} == expect.primary, rep["findings"]
    sources = _sources(rep)
    assert len(sources) == expect.weights
    assert {s["verdict"] for s in sources} == {"severed"}, sources
    assert all(s["finding_ids"] for s in sources), sources
    errors = _errors(broken)
    if expect.error is None:
        assert not errors and rep["exception"] is None
        assert RAISES not in broken.metadata.get("tags", [])
    else:
        ename, text = expect.error
        assert RAISES in broken.metadata.get("tags", []), "the raising cell must be tagged"
        assert len(errors) == 1 and errors[0].ename == ename, errors
        assert text in errors[0].evalue, errors[0].evalue
        assert text in ANSI.sub("", "\n".join(errors[0].traceback))
        assert rep["exception"] is not None and rep["exception"]["type"] == ename
        assert rep["exception"]["explanation"]

    fixed = _magic_cell(nb, "%%gradcheck fixed")
    clean = _report(fixed)
    assert clean["findings"] == [], [f["rule"] for f in clean["findings"]]
    assert clean["exception"] is None and not _errors(fixed)
    sources = _sources(clean)
    assert len(sources) == expect.weights
    assert {(s["result"], s["verdict"]) for s in sources} == {("ok", "connected")}, sources

    check = _code_cells(nb)[-1]
    assert "rep.codes" in check.source and "fixed.codes == []" in check.source
    printed = "".join(o.get("text", "") for o in check.outputs if o.output_type == "stream")
    assert f"broken: {rules}" in printed and "fixed: []" in printed, printed


def _script_code(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    skip = tree.body[0].end_lineno if ast.get_docstring(tree) is not None else 0
    return [line for line in source.splitlines()[skip:] if line.strip()]


def _notebook_script_code(nb: Any) -> list[str]:
    setup = _code_cells(nb)[0].source.splitlines()
    broken = _magic_cell(nb, "%%gradcheck rep").source.splitlines()[1:]
    setup = [line for line in setup if line.strip() != "%load_ext tapemagic"]
    return [line for line in setup + broken if line.strip()]


# ---------------------------------------------------------------- committed notebooks (TF-free)


def test_one_notebook_per_seed_script() -> None:
    scripts = {p.stem for p in DEMO.glob("seed*.py")}
    assert {p.stem for p in NOTEBOOKS} == scripts == set(EXPECTED)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebook_has_its_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    cells = _code_cells(nb)
    # Run once, top to bottom, in one kernel: In[1], In[2], ...
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    assert all(c.outputs for c in cells[1:]), "the gradcheck and check cells must keep outputs"
    check_outputs(nb, path.stem)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_notebook_runs_the_script_code(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert _notebook_script_code(nb) == _script_code(DEMO / f"{path.stem}.py"), (
        "setup + broken cells differ from the demo script: run demo/build_notebooks.py")


# ---------------------------------------------------------------- fresh execution


@pytest.mark.slow
@pytest.mark.tf
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes_and_displays_the_reports(path: Path, tmp_path: Path) -> None:
    from nbclient import NotebookClient

    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    nb = nbformat.read(copy, as_version=4)
    for cell in _code_cells(nb):  # nothing left over from the committed run
        cell.outputs = []
        cell.execution_count = None
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(tmp_path)}})
    # allow_errors=False: only a cell tagged raises-exception may raise (nbclient honours it).
    client.execute(env={**os.environ, **KERNEL_ENV})
    nbformat.write(nb, copy)
    check_outputs(nbformat.read(copy, as_version=4), path.stem)
