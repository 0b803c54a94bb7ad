"""``%%gradcheck`` leaves the cell's exceptions as they were: the same error, the user's lines.

Every behaviour test runs the same cell twice in the one shared shell, once plain and once under
``%%gradcheck``, and compares what the user sees. The ``run_cell`` fixture (tests/conftest.py)
also checks after each test that every patch tapemagic installs was undone.

Also: Ctrl-C stops the cell as without the check, a syntax error breaks nothing, a cell with
nothing to check says so, and a missing TensorFlow is a one-line error.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from tests.cells import ROUND_CELL, magic, reports_in, single_report

pytestmark = pytest.mark.tf


# -- exceptions ----------------------------------------------------------------------------------

def test_exception_is_shown_by_ipython_then_the_report(run_cell, shell) -> None:
    body = "before = 1\nw = tf.Variable(2.0)\nraise ValueError('boom')\nafter = 2\n"
    plain = run_cell(body)
    assert "after" not in shell.user_ns
    del shell.user_ns["before"]
    traced = run_cell(magic(body, "rep"))
    assert type(traced.error) is type(plain.error) is ValueError
    assert str(traced.error) == str(plain.error) == "boom"
    assert traced.result.error_in_exec is traced.error
    # IPython's run_code shows the traceback, as for a plain cell; the report follows it
    assert traced.events == ["traceback", "display"]
    assert traced.stdout.count("ValueError: boom") == plain.stdout.count("ValueError: boom") == 1
    assert shell.user_ns["before"] == 1 and "after" not in shell.user_ns
    rep = shell.user_ns["rep"]
    assert rep.exception is not None and rep.exception.type == "ValueError"
    assert rep.exception.location is not None and rep.exception.location.line == 4


def test_a_body_after_blank_lines_is_placed_at_the_editors_lines(run_cell, shell) -> None:
    # IPython's transform_cell drops the leading blank lines before the body is compiled
    traced = run_cell(magic("\n\n" + ROUND_CELL, "rep"))
    (finding,) = shell.user_ns["rep"].findings
    assert finding.location.line == 6  # line 1 is %%gradcheck, lines 2-3 are blank
    assert finding.location.source_line == ROUND_CELL.splitlines()[2]
    traced = run_cell(magic("\n  \nx = 1\nraise ValueError('boom')\n"))
    assert f"Cell In[{traced.count}], line 5" in traced.stdout


def test_blank_lines_above_the_magic_line_count_too(run_cell, shell) -> None:
    # IPython drops them before it finds the cell magic: %%gradcheck is the editor's line 3
    run_cell("\n  \n" + magic("\n" + ROUND_CELL, "rep"))
    (finding,) = shell.user_ns["rep"].findings
    assert finding.location.line == 7  # 2 blank, %%gradcheck, 1 blank, ROUND_CELL's line 3
    assert finding.location.source_line == ROUND_CELL.splitlines()[2]
    run_cell(magic(ROUND_CELL, "again"))  # the next cell has none above its magic line
    assert shell.user_ns["again"].findings[0].location.line == 4


def test_traceback_points_at_the_users_line(run_cell) -> None:
    body = "x = 1\ny = 2\nraise ValueError('boom')\nz = 3\n"
    traced = run_cell(magic(body))
    assert isinstance(traced.error, ValueError)
    text = traced.stdout
    assert f"Cell In[{traced.count}], line 4" in text  # the editor's line (1 is the magic)
    assert "----> 4 raise ValueError('boom')" in text
    assert "ValueError: boom" in text
    assert "tapemagic/" not in text  # the magic's own frames are hidden


def test_traceback_through_tensorflow_has_no_tapemagic_frames(run_cell) -> None:
    body = ("w = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n    loss = w * w\n"
            "tape.gradient(loss, w)\ntape.gradient(loss, w)\n")
    plain = run_cell(body)
    traced = run_cell(magic(body))
    assert type(traced.error) is type(plain.error) is RuntimeError
    assert str(traced.error) == str(plain.error)
    assert "----> 6 tape.gradient(loss, w)" in traced.stdout
    assert "tapemagic/" not in traced.stdout


def test_graph_execution_error_lists_no_tapemagic_frame_where_the_op_was_defined(
        run_cell) -> None:
    """TensorFlow's "defined at" stack of a failing graph op leaves tapemagic's frames out."""
    body = ("@tf.function\ndef gather_out_of_range(x):\n    return tf.gather(x, [7])\n"
            "gather_out_of_range(tf.constant([1.0, 2.0]))\n")
    plain = run_cell(body)
    traced = run_cell(magic(body))
    assert type(traced.error) is type(plain.error)
    assert "defined at" in str(plain.error) and "defined at" in str(traced.error)
    assert "tapemagic/" not in str(traced.error)
    assert "tapemagic/" not in traced.stdout


def test_keyboard_interrupt_propagates_and_everything_is_restored(run_cell, shell,
                                                                  patch_state) -> None:
    body = "w = tf.Variable(1.0)\nbefore = w * 2.0\nraise KeyboardInterrupt\nafter = 1\n"
    plain = run_cell(body)
    del shell.user_ns["before"]
    traced = run_cell(magic(body, "rep"))
    assert isinstance(plain.error, KeyboardInterrupt)
    assert isinstance(traced.error, KeyboardInterrupt)
    assert traced.events == ["traceback", "display"]
    assert float(shell.user_ns["before"]) == 2.0 and "after" not in shell.user_ns
    assert shell.user_ns["rep"].exception.type == "KeyboardInterrupt"
    assert patch_state() == []
    assert run_cell(magic(ROUND_CELL, "rep")).error is None
    assert shell.user_ns["rep"].codes == ["TM201"]


LONG_LOOP_INTERRUPTED = """\
w = tf.Variable([1.0, 2.0])
opt = keras.optimizers.SGD(0.01)
# a tape made at a new site and not differentiated yet keeps per-op recording on (no detach)
pending = tf.GradientTape()
for step in range(40):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.round(w * 3.0))
    grads = tape.gradient(loss, [w])
    w.assign_sub(0.01 * w)  # ops outside the tape, recorded on every step
    if step == 39:
        raise KeyboardInterrupt
"""


def test_ctrl_c_analyses_only_up_to_the_last_analysed_gradient_call(run_cell, shell) -> None:
    traced = run_cell(magic(LONG_LOOP_INTERRUPTED, "rep"))
    assert isinstance(traced.error, KeyboardInterrupt)
    rep = shell.user_ns["rep"]
    assert rep.codes == ["TM201"]  # the first step's finding is still reported
    assert rep.exception is not None and rep.exception.type == "KeyboardInterrupt"
    [note] = [n for n in rep.notes if n.startswith("Interrupted:")]
    dropped = int(re.search(r"the (\d+) ops recorded after it", note).group(1))
    assert dropped >= 39 * 3  # the assign_sub ops of the 39 later steps, at least
    assert [c.calls for c in rep.gradient_calls] == [40]


# A Ctrl-C is lost when it lands in Python code that runs inside a destructor (Python prints
# "Exception ignored" and drops it). Whether a real interrupt lands there depends on thread
# timing, so the test checks the cause instead: freeing the cell's tensors must run no Python
# code at all, under the magic as without it (no weakref callback, no __del__ of tapemagic's).
FREE_TENSORS = """\
import sys
x = tf.constant(1.0)
ys = [x * 2.0 for _ in range(4000)]
python_during_free = []
def _profile(frame, event, arg):
    if event == "call":
        python_during_free.append(frame.f_code.co_filename)
def _free():  # one statement: IPython runs each top-level statement on its own
    global ys
    sys.setprofile(_profile)
    try:
        del ys  # a Ctrl-C arriving now must reach the cell, not a destructor
    finally:
        sys.setprofile(None)
_free()
"""


def test_freeing_tensors_runs_no_python_so_ctrl_c_is_not_lost(run_cell, shell) -> None:
    plain = run_cell(FREE_TENSORS)
    assert plain.error is None, plain.error
    assert shell.user_ns["python_during_free"] == []
    traced = run_cell(magic(FREE_TENSORS))
    assert traced.error is None, traced.error
    assert shell.user_ns["python_during_free"] == [], shell.user_ns["python_during_free"][:5]


def test_syntax_error_is_shown_and_breaks_nothing(run_cell, shell, patch_state) -> None:
    body = "x_syntax = 1\ny = (1,\nz = 2\n"
    plain = run_cell(body)
    traced = run_cell(magic(body))
    assert isinstance(plain.error, SyntaxError) and isinstance(traced.error, SyntaxError)
    assert traced.error.msg == plain.error.msg
    assert "SyntaxError: '(' was never closed" in traced.stdout
    assert "y = (1," in traced.stdout
    assert not reports_in(traced)
    assert "x_syntax" not in shell.user_ns  # nothing of the cell ran, as without the magic
    assert patch_state() == []
    after = run_cell(magic("1 + 1"))
    assert after.error is None and after.value == 2


def test_syntax_error_display_has_no_tapemagic_internals(run_cell) -> None:
    traced = run_cell(magic("y = (1,\nz = 2\n"))
    assert isinstance(traced.error, SyntaxError)
    assert "tapemagic/magic.py" not in traced.stdout
    assert "run_cell_magic" not in traced.stdout


def test_cell_without_tensorflow_or_tape_runs_and_has_nothing_to_check(run_cell, shell) -> None:
    body = "total = sum(range(5))\nprint('total', total)\ntotal * 2\n"
    plain = run_cell(body)
    traced = run_cell(magic(body, "rep"))
    assert traced.error is None and traced.value == plain.value == 20
    assert traced.normalized_stdout() == plain.normalized_stdout()
    rep = single_report(traced)
    assert rep.gradient_calls == () and rep.findings == ()
    assert "nothing to check" in rep.headline
    assert shell.user_ns["rep"].codes == []


def test_tf_cell_without_a_tape_has_nothing_to_check(run_cell) -> None:
    traced = run_cell(magic("v = tf.Variable(3.0)\nv.assign_add(1.0)\nv * 2"))
    assert traced.error is None and float(traced.value) == 8.0
    assert single_report(traced).gradient_calls == ()


@pytest.mark.slow
def test_missing_tensorflow_gives_a_one_line_error(tmp_path) -> None:
    script = tmp_path / "no_tf.py"
    script.write_text(textwrap.dedent("""\
        import sys
        sys.modules["tensorflow"] = None  # TensorFlow is not installed
        from IPython.testing.globalipapp import start_ipython
        from IPython.utils.capture import capture_output
        shell = start_ipython()
        shell.run_line_magic("load_ext", "tapemagic")
        with capture_output() as cap:
            result = shell.run_cell("%%gradcheck\\nx = 41\\nx + 1", store_history=True)
        print(type(result.error_in_exec).__name__)
        print(cap.stdout + cap.stderr)
        """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    kind, _, shown = done.stdout.partition("\n")
    assert kind in ("ImportError", "UsageError")
    assert "TensorFlow" in shown
    assert "tapemagic/api.py" not in shown
    assert "direct cause" not in shown
