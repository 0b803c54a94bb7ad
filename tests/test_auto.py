"""Auto mode (``%gradcheck on``): every cell is checked, and still behaves exactly as plain.

Each behaviour test runs the same cell with auto mode off, then on, in the one shared shell and
compares what the user sees; the ``run_cell`` fixture (tests/conftest.py) also checks that every
patch was undone after the test. A kernel test checks ``c.Gradcheck.auto = True`` set in a
kernel's config file, through nbclient.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import ExecutionInfo

from tapemagic.report.model import MIME_TYPE
from tests.cells import CLEAN_CELL, ROUND_CELL, reports_in

pytestmark = pytest.mark.tf



def controller(shell: Any) -> Any:
    """The extension's auto-mode configurable (``Gradcheck``) of the shared shell."""
    found = [c for c in shell.configurables if type(c).__name__ == "Gradcheck"]
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def auto(shell: Any, run_cell: Any) -> Iterator[Any]:
    """Auto mode on for the test (as ``%gradcheck on`` sets it), off afterwards."""
    mode = controller(shell)
    mode.auto, mode.verbose = True, False
    mode.last_report = None
    yield mode
    mode.auto, mode.verbose = False, False


def plain_then_auto(shell: Any, run_cell: Any, body: str) -> tuple[Any, Any]:
    """Run ``body`` with auto mode off, then on; return both runs (auto mode left off)."""
    mode = controller(shell)
    mode.auto = False
    plain = run_cell(body)
    mode.auto = True
    try:
        checked = run_cell(body)
    finally:
        mode.auto = False
    return plain, checked


SAME_AS_PLAIN = [
    "x = 21\nprint('side effect', x)\nx * 2\n",
    "41 + 1;\n",
    "t = tf.constant([[1.0, 2.5], [3.0, -4.0]])\nt * 2\n",
    "def twice(v):\n    return 2 * v\nsquares = [twice(i) for i in range(3)]\nsquares\n",
    "raise ValueError('boom')\n",
    "\n  \nx = 1\nraise ValueError('boom')\n",  # IPython's traceback keeps its own line numbers
    "undefined_name_here + 1\n",
    "def f(:\n    pass\n",
    "  x = 1\n",  # IndentationError
    "!echo from-the-shell\n",
    "%%capture captured\nprint('hidden')\n",
    "%%time\nz = sum(range(10))\n",
    "%time z = sum(range(10))\n",
    "import warnings\nwarnings.warn('careful', UserWarning)\n",
    "import asyncio\nawait asyncio.sleep(0)\n'awaited'\n",
    CLEAN_CELL + "float(tf.reduce_sum(grads[0]))\n",
]


@pytest.mark.parametrize("body", SAME_AS_PLAIN)
def test_a_cell_behaves_exactly_as_plain(shell, run_cell, body: str) -> None:
    plain, checked = plain_then_auto(shell, run_cell, body)
    assert type(checked.error) is type(plain.error)
    assert repr(checked.value) == repr(plain.value)
    timing = ("CPU times", "Wall time")  # %time/%%time print durations: compare the rest

    def kept(text: str) -> list[str]:
        for count in (plain.count, checked.count):
            text = text.replace(f"In[{count}]", "In[#]")
        return [line for line in text.splitlines() if not line.startswith(timing)]

    assert kept(checked.normalized_stdout()) == kept(plain.normalized_stdout())
    assert kept(checked.stderr) == kept(plain.stderr)
    assert checked.events == plain.events  # tracebacks shown, no report displayed
    assert shell.user_ns["In"][checked.count] == shell.user_ns["In"][plain.count]


def test_a_cell_with_a_cut_shows_the_full_report(auto, run_cell) -> None:
    run = run_cell(ROUND_CELL)
    assert run.error is None
    assert len(reports_in(run)) == 1
    report = auto.last_report
    assert report.codes == ["TM201"]
    # the cell has no magic line: the report's lines are the editor's lines
    assert report.findings[0].location.line == 3
    assert report.cell.source == ROUND_CELL and report.cell.execution_count == run.count
    # the report shown has its picture: the graph from the weight to the loss, and its DOT
    assert any(node.id == "var:w" for node in report.graph.nodes) and report.graph.edges
    assert "digraph" in report.dot


#: IPython 9 hands pre_run_cell the text it compiles (``ExecutionInfo.transformed_cell``); with
#: IPython 8 a cell that starts with blank lines keeps the compiled lines (auto.py)
MOVES_CELLS = hasattr(ExecutionInfo, "transformed_cell")


@pytest.mark.skipif(not MOVES_CELLS, reason="IPython 8: no ExecutionInfo.transformed_cell")
def test_a_cell_after_blank_lines_is_reported_at_the_editors_lines(auto, run_cell) -> None:
    # IPython compiles the cell without its two leading blank lines: the report still gives
    # the lines the editor shows, and its quick fix edits the line it names
    body = "\n  \n" + ROUND_CELL
    run = run_cell(body)
    assert run.error is None and len(reports_in(run)) == 1
    report = auto.last_report
    (finding,) = report.findings
    assert finding.location.line == 5
    assert finding.location.source_line == body.splitlines()[4]
    assert finding.location.label == f"In[{run.count}], line 5"
    assert report.gradient_calls[0].location.line == 6
    assert {step.line for step in finding.chain if step.line is not None} == {5}
    assert finding.fix is not None
    (edit,) = finding.fix.edits
    assert edit.line == edit.end_line == 5
    line = body.splitlines()[4]
    fixed = line[:edit.col] + edit.text + line[edit.end_col:]
    assert fixed == ("    loss = tf.reduce_sum("
                     "(w * 3.0) + tf.stop_gradient(tf.round(w * 3.0) - (w * 3.0)))")


def test_connected_gradients_show_nothing_and_verbose_one_line(auto, run_cell) -> None:
    quiet = run_cell(CLEAN_CELL)
    assert quiet.error is None and quiet.outputs == [] and quiet.stdout == ""
    assert auto.last_report is not None and auto.last_report.codes == []
    # nothing shown, so no picture built (collapsed graph, DOT): the check costs less
    assert auto.last_report.graph.nodes == () and auto.last_report.dot == ""
    auto.verbose = True
    loud = run_cell(CLEAN_CELL)
    assert loud.outputs == []
    assert loud.stdout.splitlines() == ["gradcheck: The weight gets a gradient"]


def test_a_cell_without_a_gradient_builds_no_report(auto, run_cell) -> None:
    for body in ("x = 1 + 2\n", "t = tf.constant([1.0]) * 2.0\n", "import json\n"):
        run = run_cell(body)
        assert run.outputs == [] and run.stdout == ""
    assert auto.last_report is None


def test_a_gradcheck_cell_is_checked_once_with_its_own_options(auto, run_cell, shell) -> None:
    run = run_cell("%%gradcheck rep --json\n" + ROUND_CELL)
    assert reports_in(run) == []  # --json prints the report instead of displaying it
    assert run.stdout.count('"schema"') == 1
    assert shell.user_ns["rep"].codes == ["TM201"]
    assert auto.last_report is None  # auto mode did not check the cell a second time


def test_off_stops_and_on_starts_again(shell, run_cell) -> None:
    mode = controller(shell)
    try:
        switched = run_cell("%gradcheck on --verbose")
        assert mode.auto and mode.verbose and "auto mode on" in switched.stdout
        assert len(reports_in(run_cell(ROUND_CELL))) == 1
        assert "auto mode off" in run_cell("%gradcheck off").stdout
        assert not mode.auto
        assert reports_in(run_cell(ROUND_CELL)) == []
    finally:
        mode.auto = mode.verbose = False


def test_config_magic_sets_it(shell, run_cell) -> None:
    mode = controller(shell)
    try:
        run_cell("%config Gradcheck.auto = True")
        assert mode.auto
        assert len(reports_in(run_cell(ROUND_CELL))) == 1
    finally:
        mode.auto = False


@pytest.mark.parametrize("line", ["on --loud", "on off", "off --verbose extra"])
def test_bad_switch_lines_are_usage_errors(shell, line: str) -> None:
    with pytest.raises(UsageError):
        shell.run_line_magic("gradcheck", line)


def test_keyboard_interrupt_behaves_as_plain_and_restores_everything(shell, run_cell,
                                                                     patch_state) -> None:
    body = "w = tf.Variable(1.0)\nbefore = w * 2.0\nraise KeyboardInterrupt\nafter = 1\n"
    plain, checked = plain_then_auto(shell, run_cell, body)
    assert isinstance(plain.error, KeyboardInterrupt)
    assert isinstance(checked.error, KeyboardInterrupt)
    assert checked.events == plain.events == ["traceback"]
    assert patch_state() == []


def test_a_cell_run_from_inside_a_cell_is_not_checked_twice(auto, run_cell, shell) -> None:
    body = f"get_ipython().run_cell({ROUND_CELL!r})\nouter = 1\n"
    run = run_cell(body)
    assert run.error is None and shell.user_ns["outer"] == 1
    assert len(reports_in(run)) == 1
    assert auto.last_report.codes == ["TM201"]


def test_a_capture_cell_runs_plain_and_captures_only_its_own(auto, run_cell, shell) -> None:
    # %%capture runs its body with run_cell: that is the cell's body, which runs plain as the
    # cell does, not a cell to check (its report would land in what the cell captured)
    run = run_cell("%%capture cap\n" + ROUND_CELL + "print('hidden')\n")
    assert run.error is None and reports_in(run) == [] and run.stdout == ""
    assert shell.user_ns["cap"].outputs == [] and shell.user_ns["cap"].stdout == "hidden\n"
    assert auto.last_report is None
    assert len(reports_in(run_cell(ROUND_CELL))) == 1  # the next cell is checked again


def test_patches_are_active_only_while_the_cell_runs(auto, run_cell, patch_state) -> None:
    run = run_cell("from tapemagic.tracing import session\nactive = list(session._ACTIVE)\n")
    assert run.error is None
    assert patch_state() == []


@pytest.mark.slow
def test_config_file_setting_in_a_fresh_shell(tmp_path: Path) -> None:
    # c.Gradcheck.auto = True read by the configurable when the extension loads
    code = textwrap.dedent(f"""\
        from traitlets.config import Config
        from IPython.core.interactiveshell import InteractiveShell
        config = Config()
        config.Gradcheck.auto = True
        shell = InteractiveShell.instance(config=config)
        shell.run_line_magic("load_ext", "tapemagic")
        shell.run_cell("import tensorflow as tf", store_history=True)
        shell.run_cell({ROUND_CELL!r}, store_history=True)
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "TM201" in done.stdout


@pytest.mark.slow
def test_kernel_config_turns_it_on_in_a_real_kernel(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    profile = tmp_path / "ipython" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_kernel_config.py").write_text(
        'c.InteractiveShellApp.extensions = ["tapemagic"]\nc.Gradcheck.auto = True\n',
        encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("import tensorflow as tf\nx = 1 + 2\nx"),
        nbformat.v4.new_code_cell(CLEAN_CELL),
        nbformat.v4.new_code_cell(ROUND_CELL),
        nbformat.v4.new_code_cell("%%time\ny = 2"),
        nbformat.v4.new_code_cell("\n\n" + ROUND_CELL),  # ipykernel names a cell by its raw text
    ]
    env = {**os.environ, "IPYTHONDIR": str(tmp_path / "ipython"), "TF_CPP_MIN_LOG_LEVEL": "3"}
    client = nbclient.NotebookClient(notebook, timeout=240, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=env)
    first, clean, cut, timed, blank = (cell.outputs for cell in notebook.cells)
    assert [o["output_type"] for o in first] == ["execute_result"]
    assert first[0]["data"]["text/plain"] == "3"
    assert clean == []
    assert [o["output_type"] for o in cut] == ["display_data"]
    assert MIME_TYPE in cut[0]["data"]
    payload = cut[0]["data"][MIME_TYPE]
    assert [f["rule"] for f in payload["findings"]] == ["TM201"]
    assert payload["cell"]["execution_count"] == notebook.cells[2]["execution_count"]
    assert payload["cell"]["source"] == ROUND_CELL  # no magic line: the editor's lines
    assert all(MIME_TYPE not in o.get("data", {}) for o in timed)
    (finding,) = blank[0]["data"][MIME_TYPE]["findings"]
    # after the cell's two blank lines, as in the editor (IPython 8: the compiled lines)
    assert finding["location"]["line"] == (5 if MOVES_CELLS else 3)


@pytest.mark.slow
def test_unload_removes_the_hooks_and_the_configurable() -> None:
    code = textwrap.dedent("""\
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        hooks = {e: list(shell.events.callbacks[e]) for e in ("pre_run_cell", "post_run_cell")}
        shell.run_line_magic("load_ext", "tapemagic")
        shell.run_line_magic("gradcheck", "on")
        assert any(type(c).__name__ == "Gradcheck" for c in shell.configurables)
        shell.run_cell("x = 1", store_history=True)
        shell.run_line_magic("unload_ext", "tapemagic")
        assert not any(type(c).__name__ == "Gradcheck" for c in shell.configurables)
        assert {e: list(shell.events.callbacks[e]) for e in hooks} == hooks
        shell.run_line_magic("load_ext", "tapemagic")
        shell.run_line_magic("gradcheck", "off")
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "gradcheck: auto mode off"


@pytest.mark.slow
def test_a_notebook_run_in_a_kernel_configured_for_auto_mode_checks_each_cell_once() -> None:
    # `python -m tapemagic run nb.ipynb` checks every cell itself (tapemagic.cli.kernel): a
    # kernel config with c.Gradcheck.auto = True must not add a second check and report
    code = textwrap.dedent(f"""\
        from traitlets.config import Config
        from IPython.core.interactiveshell import InteractiveShell
        from tapemagic.cli import kernel
        config = Config()
        config.Gradcheck.auto = True
        shell = InteractiveShell.instance(config=config)
        shell.run_line_magic("load_ext", "tapemagic")
        kernel.install(shell, False, 1)
        shown = []
        publish = shell.display_pub.publish
        def record(data, *args, **kwargs):
            shown.append(data)
            return publish(data, *args, **kwargs)
        shell.display_pub.publish = record
        shell.run_cell("import tensorflow as tf", store_history=True)
        shown.clear()
        shell.run_cell({ROUND_CELL!r}, store_history=True)
        print("reports:", sum({MIME_TYPE!r} in data for data in shown))
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "reports: 1"


@pytest.mark.slow
def test_without_tensorflow_auto_mode_says_so_and_cells_run_plain() -> None:
    code = textwrap.dedent("""\
        import sys
        sys.modules["tensorflow"] = None  # TensorFlow is not installed
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_line_magic("load_ext", "tapemagic")
        shell.run_line_magic("gradcheck", "on")
        result = shell.run_cell("x = 41\\nx + 1", store_history=True)
        assert result.error_in_exec is None and result.result == 42, result
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "TensorFlow 2.16-2.21 is not installed" in done.stdout
    assert done.stderr == ""
