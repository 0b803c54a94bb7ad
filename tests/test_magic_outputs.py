"""``%%gradcheck`` shows the cell's own outputs as without it, then one report.

Every behaviour test runs the same cell twice in the one shared shell, once plain and once under
``%%gradcheck``, and compares what the user sees. The ``run_cell`` fixture (tests/conftest.py)
also checks after each test that every patch tapemagic installs was undone.

Also: a check nested in the checked cell, the same cell checked twice, and usage errors (one line).
"""

from __future__ import annotations

import json
import textwrap

import pytest
from IPython.core.error import UsageError

from tapemagic import rules
from tapemagic.report.model import Report
from tapemagic.report.validate import validate_report
from tests.cells import CLEAN_CELL, ROUND_CELL, magic, reports_in, single_report

pytestmark = pytest.mark.tf


# -- outputs -------------------------------------------------------------------------------------

def test_last_expression_value_print_and_underscore_identical(run_cell, shell) -> None:
    body = "x = 21\nprint('side effect', x)\nx * 2\n"
    plain = run_cell(body)
    traced = run_cell(magic(body))
    for run in (plain, traced):
        assert run.error is None
        assert run.value == 42
        assert shell.user_ns["_"] == 42
        assert shell.user_ns["Out"][run.count] == 42
        assert run.stdout.startswith("side effect 21\n")
    assert traced.normalized_stdout() == plain.normalized_stdout()
    assert traced.stderr == plain.stderr
    assert not reports_in(plain)
    single_report(traced)


def test_displayed_tensor_repr_identical(run_cell) -> None:
    body = "t = tf.constant([[1.0, 2.5], [3.0, -4.0]])\nt * 2\n"
    plain = run_cell(body)
    traced = run_cell(magic(body))
    assert repr(traced.value) == repr(plain.value)
    assert traced.normalized_stdout() == plain.normalized_stdout()


@pytest.mark.parametrize("last", ["41 + 1;", "41 + 1;  # quiet", "print('p'); 41 + 1;"])
def test_trailing_semicolon_suppresses_the_value(run_cell, shell, last: str) -> None:
    run_cell("'sentinel'")
    plain = run_cell(last)
    assert plain.value is None and shell.user_ns["_"] == "sentinel"
    traced = run_cell(magic(last))
    assert traced.error is None
    assert traced.value is None
    assert shell.user_ns["_"] == "sentinel"
    assert "Out[" not in traced.stdout
    assert traced.normalized_stdout() == plain.normalized_stdout()


def test_no_value_displayed_when_the_cell_ends_with_a_statement(run_cell, shell) -> None:
    run_cell("'sentinel'")
    traced = run_cell(magic("y = 3\nif y:\n    z = y + 1\n"))
    assert traced.value is None and shell.user_ns["_"] == "sentinel"
    assert shell.user_ns["z"] == 4


def test_names_defined_in_the_cell_land_in_the_namespace(run_cell, shell) -> None:
    body = textwrap.dedent("""\
        import json as json_alias
        count = 3
        def twice(v):
            return 2 * v
        class Box:
            size = count
        squares = [i * i for i in range(count)]
        w_var = tf.Variable(1.5, name="w_var")
        """)
    traced = run_cell(magic(body))
    assert traced.error is None
    ns = shell.user_ns
    assert ns["json_alias"] is json
    assert ns["count"] == 3 and ns["twice"](4) == 8 and ns["Box"].size == 3
    assert ns["squares"] == [0, 1, 4]
    assert float(ns["w_var"].numpy()) == 1.5
    # a function defined under the magic still sees later globals (same globals dict)
    run_cell("count = 10")
    assert run_cell("Box.size, twice(count)").value == (3, 20)


def test_report_is_displayed_with_three_mime_types(run_cell) -> None:
    traced = run_cell(magic(ROUND_CELL))
    assert traced.error is None
    report = single_report(traced)
    assert report.codes == ["TM201"]
    bundle = reports_in(traced)[0]
    assert "TM201" in bundle["text/plain"] and "TM201" in bundle["text/html"]
    assert report.headline in bundle["text/plain"]


def test_output_name_stores_the_report(run_cell, shell) -> None:
    traced = run_cell(magic(ROUND_CELL, "rep"))
    assert traced.error is None
    rep = shell.user_ns["rep"]
    assert isinstance(rep, Report)
    assert rep.codes == ["TM201"]
    validate_report(rep.to_json())
    assert single_report(traced).codes == rep.codes


def test_json_flag_prints_valid_json_and_nothing_else(run_cell) -> None:
    traced = run_cell(magic(ROUND_CELL, "--json"))
    assert traced.error is None
    assert not reports_in(traced)
    payload = json.loads(traced.stdout)
    validate_report(payload)
    assert [f["rule"] for f in payload["findings"]] == ["TM201"]


def test_report_names_the_cell_by_its_execution_count(run_cell, shell) -> None:
    traced = run_cell(magic(ROUND_CELL, "rep"))
    rep = shell.user_ns["rep"]
    assert rep.cell.execution_count == traced.count
    (finding,) = rep.findings
    assert finding.location is not None
    assert finding.location.execution_count == traced.count
    assert finding.location.line == 4  # line 1 is %%gradcheck
    assert finding.location.label == f"In[{traced.count}], line 4"


def test_strict_raises_after_showing_the_report(run_cell) -> None:
    from tapemagic.api import GradcheckError

    traced = run_cell(magic(ROUND_CELL, "--strict"))
    assert isinstance(traced.error, GradcheckError)
    assert traced.events[:2] == ["display", "traceback"]
    assert run_cell(magic(CLEAN_CELL, "--strict")).error is None


# -- nesting and repetition ----------------------------------------------------------------------

INNER = textwrap.dedent("""\
    import tapemagic
    def inner():
        w = tf.Variable([1.0, 2.0], name="inner_w")
        with tapemagic.gradcheck() as check:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.round(w * 2.0))
            g = tape.gradient(loss, [w])
        return check, g
    """)


def test_gradcheck_inside_a_function_called_by_the_magic(run_cell, shell, patch_state) -> None:
    run_cell(INNER)
    plain = run_cell("check, g = inner()\ng")
    assert plain.error is None and plain.value == [None]
    assert shell.user_ns["check"].codes == ["TM201"]
    traced = run_cell(magic("check, g = inner()\ng", "rep"))
    assert traced.error is None, traced.stdout
    assert traced.value == [None]
    assert shell.user_ns["rep"].codes == ["TM201"]  # the outer report has the finding
    assert len(reports_in(traced)) == 1
    assert patch_state() == []


def test_nested_check_still_has_its_report(run_cell, shell) -> None:
    run_cell(INNER)
    traced = run_cell(magic("check, g = inner()\ncodes = check.codes\n"))
    assert traced.error is None, traced.stdout
    assert shell.user_ns["codes"] == ["TM201"]


def test_magic_twice_in_a_row_gives_the_same_findings(run_cell, shell) -> None:
    first = run_cell(magic(ROUND_CELL, "rep"))
    rep1 = shell.user_ns["rep"]
    second = run_cell(magic(ROUND_CELL, "rep"))
    rep2 = shell.user_ns["rep"]
    assert first.error is None and second.error is None
    assert rep1.codes == rep2.codes == ["TM201"]
    assert [f.location.line for f in rep1.findings] == [f.location.line for f in rep2.findings]
    assert rep1.headline == rep2.headline
    assert rep2.cell.execution_count == rep1.cell.execution_count + 1


# -- usage errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("source, message", [
    ("%%gradcheck --steps 0\nnot_run = 1\n", "--steps must be at least 1"),
    ("%%gradcheck --bogus\nnot_run = 1\n", "unrecognized arguments: --bogus"),
    ("%%gradcheck 1abc\nnot_run = 1\n", "not a valid Python identifier"),
    ("%%gradcheck class\nnot_run = 1\n", "not a valid Python identifier"),
    ("%%gradcheck \"rep\nnot_run = 1\n", "No closing quotation"),
    ("%%gradcheck --eager --graph-mode\nnot_run = 1\n", "cannot be used together"),
    ("%gradcheck --explain TM999", "TM999"),
    ("%gradcheck", "--explain"),
])
def test_usage_errors_are_one_line(run_cell, shell, patch_state, source: str,
                                   message: str) -> None:
    run = run_cell(source)
    assert isinstance(run.result.error_in_exec, UsageError)
    text = str(run.result.error_in_exec)
    assert message in text and "\n" not in text
    assert run.stderr.strip() == f"UsageError: {text}"
    assert "Traceback" not in run.stdout
    assert "not_run" not in shell.user_ns
    assert not run.outputs
    assert patch_state() == []


@pytest.mark.parametrize("code", ["TM301", "tm301"])
def test_explain_prints_the_rule_doc(run_cell, code: str) -> None:
    run = run_cell(f"%gradcheck --explain {code}")
    assert run.error is None and run.value is None
    assert run.stdout == rules.explain("TM301") + "\n"
    assert run.stdout.startswith("TM301 ")
