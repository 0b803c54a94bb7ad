"""A cell magic's body is placed at its cell's own lines, and the cell still behaves as plain.

IPython compiles the body of ``%%time`` as ``<timed exec>`` (``%%timeit``: ``<magic-timeit>``),
its lines counted from the body's first line that is not blank, and ``%%capture`` runs it as a
cell of its own; the cell's own file holds one line, the ``run_cell_magic`` call. A finding
there is placed at the cell's line (line 1 is the magic line), with the excerpt and the
gradient call's source. Each door is run in the one shared shell: ``%%gradcheck`` over a cell
magic, and the hooks ``python -m tapemagic run`` installs in its kernel (``cli/kernel.py``;
the real kernel run is in tests/test_run_notebook.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tapemagic.report.model import MIME_TYPE, Report
from tests.cells import ROUND_CELL, reports_in

pytestmark = pytest.mark.tf

ROUND_LINE = "    loss = tf.reduce_sum(tf.round(w * 3.0))"  # line 3 of ROUND_CELL
BODIES = [  # (the lines above ROUND_CELL, the editor's line of its tf.round)
    ("%%time\n", 4),
    ("%%time\n\n\n", 6),  # IPython drops the body's leading blank lines before compiling it
    ("%%timeit -n1 -r1\n", 4),  # compiled inside a function `inner`
    ("%%capture cap\n\n", 5),  # run with run_cell: a file of its own, lines of its own
    ("%%time\n%%capture cap\n", 5),  # a body inside a body
]


def placed(rep: Report, line: int, count: int) -> None:
    """Check that the tf.round cut and the gradient call are at the cell's own lines."""
    (finding,) = rep.findings
    loc = finding.location
    assert loc is not None
    assert (loc.line, loc.col, loc.execution_count) == (line, ROUND_LINE.index("tf.round"), count)
    assert loc.source_line == ROUND_LINE and loc.function is None
    (call,) = rep.gradient_calls
    assert call.location is not None and call.location.line == line + 1
    assert call.target == "loss"  # read from the source: `tape.gradient(loss, [w])`


@pytest.mark.parametrize("above, line", BODIES)
def test_a_gradcheck_cell_over_a_cell_magic(run_cell, shell, above: str, line: int) -> None:
    run = run_cell(f"%%gradcheck rep\n{above}{ROUND_CELL}")
    assert run.error is None
    placed(shell.user_ns["rep"], line + 1, run.count)  # %%gradcheck is line 1
    assert len(reports_in(run)) == 1


@pytest.fixture
def kernel_hooks(shell: Any) -> Iterator[Any]:
    """The hooks of ``python -m tapemagic run``, on the shared shell for the test."""
    from tapemagic.cli.kernel import CellChecks

    checks = CellChecks(shell, force_eager=False, steps=1)
    shell.events.register("pre_run_cell", checks.pre)
    shell.events.register("post_run_cell", checks.post)
    yield checks
    shell.events.unregister("pre_run_cell", checks.pre)
    shell.events.unregister("post_run_cell", checks.post)


@pytest.mark.parametrize("above, line", BODIES)
def test_the_notebook_run_places_a_cell_magics_body(kernel_hooks, run_cell, shell,
                                                     above: str, line: int) -> None:
    run = run_cell(above + ROUND_CELL)
    assert run.error is None
    (bundle,) = reports_in(run)  # shown in the cell, not captured by %%capture
    placed(Report.from_json(bundle[MIME_TYPE]), line, run.count)
    if "%%capture" in above:
        assert shell.user_ns["cap"].outputs == []  # what the cell captured is its own
    if above.startswith("%%time\n"):
        assert "Wall time" in run.stdout  # %%time still times the cell
    if above.startswith("%%timeit"):
        assert "per loop" in run.stdout


def test_a_function_an_earlier_timed_cell_defined_is_not_this_cells(run_cell, shell) -> None:
    # every %%time body is `<timed exec>`: the function's lines are not the later cell's
    defined = run_cell("%%time\ndef rounded(w):\n    return tf.reduce_sum(tf.round(w * 3.0))\n")
    assert defined.error is None
    run = run_cell("%%gradcheck rep\n%%time\nw = tf.Variable([1.0, 2.0], name='w')\n"
                   "with tf.GradientTape() as tape:\n    loss = rounded(w)\n"
                   "grads = tape.gradient(loss, [w])\n")
    assert run.error is None
    (finding,) = shell.user_ns["rep"].findings
    assert finding.location.execution_count is None  # not placed in this cell
    assert finding.location.file == "<timed exec>" and finding.location.line == 2


def test_a_function_a_checked_timed_cell_defined_stays_in_that_cell(run_cell, shell) -> None:
    defined = run_cell("%%gradcheck\n%%time\nscale = tf.constant(1.5) * 2.0\n"
                       "def rounded(w):\n    return tf.reduce_sum(tf.round(w * scale))\n")
    assert defined.error is None
    run = run_cell("%%gradcheck rep\nw = tf.Variable([1.0, 2.0], name='w')\n"
                   "with tf.GradientTape() as tape:\n    loss = rounded(w)\n"
                   "grads = tape.gradient(loss, [w])\n")
    assert run.error is None
    (finding,) = shell.user_ns["rep"].findings
    loc = finding.location
    assert (loc.execution_count, loc.line) == (defined.count, 5)  # %%gradcheck 1, %%time 2
    assert loc.source_line == "    return tf.reduce_sum(tf.round(w * scale))"


def test_a_run_cell_magic_call_among_other_lines_keeps_its_lines(run_cell, shell) -> None:
    # the user's own call, not a %%time cell: its body is not placed over the lines after it
    body = "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(tf.round(w * 3.0))\n"
    run = run_cell(f"%%gradcheck rep\nw = tf.Variable([1.0, 2.0], name='w')\n"
                   f"get_ipython().run_cell_magic('time', '', {body!r})\n"
                   "grads = tape.gradient(loss, [w])\n")
    assert run.error is None
    rep = shell.user_ns["rep"]
    (call,) = rep.gradient_calls
    assert (call.location.line, call.location.source_line) == (
        4, "grads = tape.gradient(loss, [w])")
    (finding,) = rep.findings
    assert (finding.location.file, finding.location.line) == ("<timed exec>", 2)


def test_a_function_the_timed_body_defined_and_its_last_expression_calls(run_cell,
                                                                          shell) -> None:
    # %%time runs a last expression as a code object of its own, apart from the function
    run = run_cell("%%gradcheck rep\n%%time\ndef grads_of(w):\n"
                   "    with tf.GradientTape() as tape:\n"
                   "        loss = tf.reduce_sum(tf.round(w * 3.0))\n"
                   "    return tape.gradient(loss, [w])\n"
                   "grads_of(tf.Variable([1.0, 2.0], name='w'))\n")
    assert run.error is None and run.value == [None]
    rep = shell.user_ns["rep"]
    (finding,) = rep.findings
    loc = finding.location
    assert (loc.line, loc.execution_count, loc.function) == (5, run.count, "grads_of")
    assert loc.source_line == "        loss = tf.reduce_sum(tf.round(w * 3.0))"
