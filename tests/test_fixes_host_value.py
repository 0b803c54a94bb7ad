"""TM301's fix keeps the host value for the code after the tape that needs one (TF-free).

Dropping ``float(...)`` makes the name a tensor on the loss path; a ``round(NAME, 5)`` after
the block would then raise. The fix converts the name again before its first later reader, and
only then: not when nothing reads it later, nor when the gradient call takes it as the loss.
"""

from __future__ import annotations

import ast
import itertools
import linecache
import textwrap

from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Location
from tapemagic.rules.base import Draft, registry
from tapemagic.rules.context import RuleContext
from tapemagic.trace import Trace
from tapemagic.verify import apply_edits

_names = itertools.count()

LOGGED = """\
for epoch in range(3):
    with tf.GradientTape() as tape:
        mse = float(tf.reduce_mean(tf.square(model(x) - y)))
        loss = tf.convert_to_tensor(mse) + penalty
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    print(epoch, round(mse, 5))
"""


def _fix(source: str, needle: str) -> str:
    source = textwrap.dedent(source)
    name = f"<host-{next(_names)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    lines = source.splitlines()
    number = next(i for i, ln in enumerate(lines) if needle in ln)
    col = lines[number].index(needle)
    location = Location(name, number + 1, number + 1, col, col + len(needle), lines[number])
    ctx = RuleContext(ProvenanceGraph(Trace()), [], SourceIndex())
    edits = registry()["TM301"].fix(Draft("TM301", (), None, True, {}), location, ctx)
    fixed = apply_edits(source, edits)
    ast.parse(fixed)
    return fixed


CONVERSION = "float(tf.reduce_mean(tf.square(model(x) - y)))"


def test_the_code_after_the_tape_keeps_its_python_number() -> None:
    fixed = _fix(LOGGED, CONVERSION)
    assert "        mse = tf.reduce_mean(tf.square(model(x) - y))\n" in fixed
    assert ("    opt.apply_gradients(zip(grads, model.trainable_variables))\n"
            "    mse = float(mse)\n    print(epoch, round(mse, 5))\n") in fixed


def test_read_after_the_loop_it_is_converted_once_after_the_block() -> None:
    source = LOGGED.replace("    print(epoch, round(mse, 5))\n", "") + "print(round(mse, 5))\n"
    fixed = _fix(source, CONVERSION)
    assert "loss = tf.convert_to_tensor(mse) + penalty\n    mse = float(mse)\n    grads" in fixed


def test_no_conversion_when_nothing_after_the_block_reads_it() -> None:
    source = LOGGED.replace("round(mse, 5)", "float(loss)")
    assert "mse = float(mse)" not in _fix(source, CONVERSION)


def test_no_conversion_when_the_gradient_call_takes_it_as_the_loss() -> None:
    source = LOGGED.replace("tape.gradient(loss,", "tape.gradient(mse,")
    assert "mse = float(mse)" not in _fix(source, CONVERSION)


def test_float_around_numpy_drops_both_conversions_and_keeps_the_number_after() -> None:
    """``float(t.numpy())`` at the ``.numpy()``: dropping it alone left ``float(t)``, still cut."""
    source = LOGGED.replace(CONVERSION, "float(tf.reduce_mean(tf.square(model(x) - y)).numpy())")
    fixed = _fix(source, "tf.reduce_mean(tf.square(model(x) - y)).numpy()")
    assert "        mse = tf.reduce_mean(tf.square(model(x) - y))\n" in fixed
    assert "    mse = float(mse.numpy())\n    print(epoch, round(mse, 5))\n" in fixed
