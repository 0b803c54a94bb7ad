"""The NumPy chain read from source, and the quick-fix edits built from it (TF-free)."""

from __future__ import annotations

import linecache

from tapemagic.fixes import edits_for
from tapemagic.graph.numpy_chain import numpy_chain
from tapemagic.report.model import Location

SOURCE = """\
def energy(out):
    psi = np.real(out.numpy())[:, 0]
    norm = np.sqrt(np.dot(psi, psi))
    unrelated = np.ones(3)
    amp = np.copy(psi) / norm
    def inner(v):
        return np.exp(v)
    return np.mean(amp)
"""


def _register(name: str, text: str) -> None:
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)


def test_chain_follows_names_and_wrapping_calls_in_order() -> None:
    _register("<chain-test>", SOURCE)
    links = numpy_chain("<chain-test>", 2, SOURCE.splitlines()[1].index("out.numpy"))
    assert [(link.label, link.line) for link in links] == [
        ("np.real", 2), ("np.dot", 3), ("np.sqrt", 3), ("np.copy", 5), ("np.mean", 8)]


def test_chain_is_empty_without_source() -> None:
    assert numpy_chain("<not-there>", 3) == []


def test_host_round_trip_fix_rewrites_the_chain() -> None:
    _register("<fix-test>", SOURCE)
    line = SOURCE.splitlines()[1]
    col = line.index("out.numpy()")
    location = Location("<fix-test>", 2, 2, col, col + len("out.numpy()"), line)
    links = numpy_chain("<fix-test>", 2, col)
    context = {"numpy_links": ";".join(
        f"{k.label}:{k.line}:{k.col}:{k.func_end_col}" for k in links)}
    edits = edits_for("TM301", location, context)
    assert edits[0].text == "out" and (edits[0].line, edits[0].col) == (2, col)
    replaced = {(e.line, e.text) for e in edits[1:]}
    assert replaced == {(2, "tf.math.real"), (3, "tf.sqrt"), (5, "tf.identity"),
                        (8, "tf.reduce_mean")}  # np.dot has no same-meaning tf twin: left


def test_tape_flag_fix_and_unwrap() -> None:
    line = "with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:"
    start = line.index("tf.GradientTape")
    end = line.index(" as tape")
    (edit,) = edits_for("TM101", Location("<x>", 3, 3, start, end, line), {})
    assert edit.text == "tf.GradientTape(persistent=True)"
    line = "    q = tf.stop_gradient(target(x))"
    start = line.index("tf.stop")
    (edit,) = edits_for("TM401", Location("<x>", 4, 4, start, len(line), line), {})
    assert edit.text == "target(x)"


def test_no_edit_when_the_code_has_another_shape() -> None:
    line = "loss = custom(y)"
    assert edits_for("TM301", Location("<x>", 1, 1, 7, 16, line), {}) == ()
    assert edits_for("TM402", Location("<x>", 1, 1, 0, 4, line), {}) == ()
