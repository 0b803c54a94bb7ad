"""The three user reports tapemagic was born from, through the magic and through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.testing.globalipapp import start_ipython

from tapemagic.report.model import Report
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf
DEMO = Path(__file__).resolve().parent.parent / "demo"


@pytest.fixture(scope="module")
def ip():  # type: ignore[no-untyped-def]
    shell = start_ipython()
    shell.run_cell("%load_ext tapemagic")
    return shell


def _line_of(source: str, needle: str) -> int:
    """Return the 1-based line of ``needle`` in a %%gradcheck cell (line 1 is the magic)."""
    for number, line in enumerate(source.splitlines(), start=2):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the cell")


def _magic(ip, source: str, name: str = "rep"):  # type: ignore[no-untyped-def]
    result = ip.run_cell(f"%%gradcheck {name}\n" + source, store_history=True)
    report = ip.user_ns[name]
    assert isinstance(report, Report)
    validate_report(report.to_json())
    return result, report


def _tails(names) -> set[str]:  # type: ignore[no-untyped-def]
    """Drop the model's name (Keras numbers it: sequential_3) from weight paths."""
    return {n.split("/", 1)[1] for n in names}


def _by_rule(report: Report) -> dict[str, list]:  # type: ignore[type-arg]
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for finding in report.findings:
        out.setdefault(finding.rule, []).append(finding)
    return out


def test_seed000_numpy_round_trip_unwatched_tape_and_branches(ip) -> None:  # type: ignore[no-untyped-def]
    source = (DEMO / "seed000_numpy_in_loss.py").read_text()
    result, report = _magic(ip, source)
    assert result.error_in_exec is None
    found = _by_rule(report)
    assert set(found) == {"TM301", "TM101", "TM303"}
    weights = {"hidden/kernel", "hidden/bias", "amplitude/kernel", "amplitude/bias"}
    (host,) = found["TM301"]
    assert host.primary and host.api == ".numpy()"
    assert host.location.line == _line_of(source, "out.numpy()")
    assert host.location.source_line.strip().startswith("psi = out.numpy()")
    assert _tails(host.variables) == weights
    labels = [step.label for step in host.chain]
    assert labels[1] == ".numpy()" and "np.dot" in labels and "np.copy" in labels
    (tape,) = found["TM101"]
    assert tape.location.line == _line_of(source, "tf.GradientTape(")
    assert tape.fix.edits[0].text == "tf.GradientTape()"
    assert _tails(tape.variables) == weights
    (branch,) = found["TM303"]
    assert branch.location.line == _line_of(source, "elif out[k, 0] != 0")
    assert not branch.primary
    (call,) = report.gradient_calls
    assert _tails(s.variable for s in call.sources) == weights
    assert {(s.result, s.verdict) for s in call.sources} == {("none", "severed")}
    assert report.headline.startswith("4 of 4 weights get no gradient")


def test_seed002_assign_into_second_network_zero_mode(ip) -> None:  # type: ignore[no-untyped-def]
    source = (DEMO / "seed002_hypernetwork_assign.py").read_text()
    result, report = _magic(ip, source)
    assert result.error_in_exec is None
    assert set(report.codes) == {"TM402"}
    lines = sorted(f.location.line for f in report.findings)
    assert lines == [_line_of(source, "net2_weights[0].assign("),
                     _line_of(source, "net2_weights[1].assign(")]
    assigned = {f.params["variable"] for f in report.findings}
    assert _tails(assigned) == {"target/kernel", "target/bias"}
    for finding in report.findings:
        assert _tails(finding.variables) == {"hyper/kernel", "hyper/bias"}
    (call,) = report.gradient_calls
    assert call.unconnected_gradients == "zero"
    assert {(s.result, s.verdict) for s in call.sources} == {("zero", "severed")}


def test_seed002_keras_variables_zero_mode_error_is_explained(ip) -> None:  # type: ignore[no-untyped-def]
    source = (DEMO / "seed002_hypernetwork_assign.py").read_text().replace(
        "[v.value for v in net1.trainable_variables]", "net1.trainable_variables")
    plain = ip.run_cell(source, store_history=True)  # the same cell without the check
    result, report = _magic(ip, source)
    assert isinstance(result.error_in_exec, AttributeError)
    # the user's error, word for word as without the check ("'str' object has no attribute
    # '_type_enum'": TensorFlow asks Keras' string dtype for its enum). Compared with the plain
    # run in this process, not a fixed text: once, in one full suite run, the checked cell said
    # "'Variable' object has no attribute 'dtype'" (not reproduced alone, nor in a run of every
    # module before this one): the plain run tells leftover state from the check's doing
    assert type(plain.error_in_exec) is AttributeError
    assert str(result.error_in_exec) == str(plain.error_in_exec)
    assert set(report.codes) == {"TM402", "TM105"}
    (call,) = report.gradient_calls
    assert call.error is not None and call.error.explanation
    assert report.exception is not None and "TM105" in (report.exception.explanation or "")


def test_seed004_fit_no_gradients_is_explained_and_reraised(ip) -> None:  # type: ignore[no-untyped-def]
    """The magic's default mode: graph mode (fit as written) or forced eager."""
    import tensorflow as tf

    source = (DEMO / "seed004_fit_argsort_sets.py").read_text()
    eager_before = tf.config.functions_run_eagerly()
    result, report = _magic(ip, source)
    assert tf.config.functions_run_eagerly() == eager_before
    assert report.exception is not None and report.exception.explanation
    primary = [f for f in report.findings if f.primary]
    assert [f.rule for f in primary] == ["TM301"]
    assert primary[0].api == "tf.keras.backend.eval"
    assert primary[0].location.line == _line_of(source, "tf.keras.backend.eval(bt)")
    (call,) = report.gradient_calls
    assert call.keras_fit
    assert len(call.sources) == 4 and all(s.verdict == "severed" for s in call.sources)
    assert report.mode in ("graph", "forced-eager")
    if report.mode == "graph":
        # fit as written fails at trace time, at the eval line: what the user's cell raises
        assert isinstance(result.error_in_exec, AttributeError)
        assert "'SymbolicTensor' object has no attribute 'numpy'" in str(result.error_in_exec)
        assert report.exception.type == "AttributeError"
    else:
        assert isinstance(result.error_in_exec, ValueError)
        assert "No gradients provided for any variable" in str(result.error_in_exec)
        assert report.exception.type == "ValueError"
    assert set(report.codes) == {"TM301", "TM202", "TM201"}  # in graph mode: traced on past
    found = _by_rule(report)
    (argsort,) = [f for f in found["TM202"] if f.op_type == "TopKV2"]
    assert argsort.location.line == _line_of(source, "top_pred = tf.argsort")
    assert not argsort.primary
    sets = {f.op_type for f in found["TM201"]}
    assert "DenseToDenseSetOperation" in sets


@pytest.mark.slow
@pytest.mark.parametrize("script,codes", [
    ("seed000_numpy_in_loss.py", {"TM301", "TM101", "TM303"}),
    ("seed002_hypernetwork_assign.py", {"TM402"}),
    ("seed004_fit_argsort_sets.py", {"TM301", "TM202", "TM201"}),
])
def test_seeds_through_the_cli(tmp_path: Path, script: str, codes: set[str]) -> None:
    """The CLI's default mode (graph mode: seed 004's fit stops at its eval line, as written)."""
    out = tmp_path / "report.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run(
        [sys.executable, "-m", "tapemagic", "run", "--json", str(out), str(DEMO / script)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    payload = json.loads(out.read_text())
    validate_report(payload)
    assert {f["rule"] for f in payload["findings"]} == codes
    for code in codes:
        assert code in proc.stdout
    if script.startswith("seed004"):
        if payload["mode"] == "graph":  # fit as written fails at the eval line
            assert "'SymbolicTensor' object has no attribute 'numpy'" in proc.stderr
            assert payload["exception"]["type"] == "AttributeError"
        else:
            assert "No gradients provided for any variable" in proc.stderr  # the traceback
            assert payload["exception"]["type"] == "ValueError"
