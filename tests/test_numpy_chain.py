"""The NumPy chain read from source, and the quick-fix edits built from it (TF-free)."""

from __future__ import annotations

import linecache

from tapemagic.graph.numpy_chain import numpy_chain
from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, registry
from tapemagic.rules.context import RuleContext
from tapemagic.trace import RawLocation, Trace

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


def edits_for(code: str, location: Location, links: tuple = ()) -> tuple[Edit, ...]:
    """The quick-fix edits rule ``code``'s module builds for a finding at ``location``."""
    index = SourceIndex()
    if location.file not in linecache.cache:
        _register(location.file, "\n" * (location.line - 1) + location.source_line + "\n")
    ctx = RuleContext(ProvenanceGraph(Trace()), [], index)
    draft = Draft(code, (), None, False, {}, links=links)
    return registry()[code].fix(draft, location, ctx)


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
    links = SourceIndex().numpy_chain(RawLocation("<fix-test>", 2, 2, col, None, "energy"))
    assert list(links) == numpy_chain("<fix-test>", 2, col)
    edits = edits_for("TM301", location, links)
    assert edits[0].text == "out" and (edits[0].line, edits[0].col) == (2, col)
    replaced = {(e.line, e.text) for e in edits[1:]}
    assert replaced == {(2, "tf.math.real"), (3, "tf.sqrt"), (5, "tf.identity"),
                        (8, "tf.reduce_mean")}  # np.dot has no same-meaning tf twin: left


def test_tape_flag_fix_and_unwrap() -> None:
    line = "with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:"
    start = line.index("tf.GradientTape")
    end = line.index(" as tape")
    (edit,) = edits_for("TM101", Location("<x3>", 3, 3, start, end, line))
    assert edit.text == "tf.GradientTape(persistent=True)"
    line = "    q = tf.stop_gradient(target(x))"
    start = line.index("tf.stop")
    (edit,) = edits_for("TM401", Location("<x4>", 4, 4, start, len(line), line))
    assert edit.text == "target(x)"


def test_no_edit_when_the_code_has_another_shape() -> None:
    line = "loss = custom(y)"
    assert edits_for("TM301", Location("<x1>", 1, 1, 7, 16, line)) == ()
    assert edits_for("TM402", Location("<x1>", 1, 1, 0, 4, line)) == ()
