"""Every expression-replacing quick fix in every expression context: is the forward value kept?

``python bench/fix_shapes.py`` (from the repository root, the shared venv) prints the table of
bench/RESULTS.md. Each fix shape (a rule's ``fix`` on one expression ``X``) is put into each
context (``a * X / b``, ``-X``, ``X ** 2``, ``X[i]``, ``f(X)[i]``, a lambda body, a list
comprehension, a call argument, a loss inside a tape). The rule's own ``fix`` computes the
edits (as a report would), they are applied, and both programs run with real TensorFlow:

- ``kept``: the fixed program computes the same value (within float tolerance);
- ``CHANGED``: it computes another value although the fix promises to keep it (a bug);
- ``changes (says so)``: the fix changes values on purpose and says so (``fix.keeps_value``
  False: a soft surrogate);
- ``n/a``: the original program does not run in that context (an integer or a boolean where
  a float is needed), or the rule offers no edit for that shape there.

Statement-level fixes (a line moved into the tape, a ``watch``, ``tf.where`` for an ``if``)
replace no expression inside another; their forward value is checked by ``--verify-fixes``.
"""

from __future__ import annotations

import ast
import itertools
import linecache
import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SETUP = """\
import numpy as np
import tensorflow as tf
import keras
w = tf.constant([[0.2, 1.7, -0.6], [0.9, -1.2, 0.4]])
a, b, t = 3.0, 4.0, 0.5
keras.utils.set_random_seed(0)
"""


@dataclass(frozen=True)
class Shape:
    """One fix shape: the rule, the expression it rewrites, and what the fix promises."""

    name: str
    rule: str
    expr: str
    op_type: str | None = None
    extra: str = ""  # definitions the expression needs (a NumPy function, a model)


SHAPES = (
    Shape("round: straight-through", "TM201", "tf.round(w * 3.0)"),
    Shape("floor: straight-through", "TM201", "tf.floor(w + 0.5)"),
    Shape("ceil: straight-through", "TM201", "tf.math.ceil(w)"),
    Shape("keras.ops.round: straight-through", "TM201", "keras.ops.round(w * 3.0)"),
    Shape("sign: straight-through", "TM501", "tf.sign(w)", op_type="Sign"),
    Shape("clip: straight-through", "TM501", "tf.clip_by_value(w, 0.0, 0.5)",
          op_type="ClipByValue"),
    Shape("int cast: straight-through", "TM202", "tf.cast(w * 4.0, tf.int32)"),
    Shape("x // d: straight-through", "TM201", "w // 0.5"),
    Shape("floordiv(): straight-through", "TM201", "tf.math.floordiv(w, 0.5)"),
    Shape("x > t: straight-through", "TM201", "w > t"),
    Shape("stop_gradient(round): straight-through", "TM401", "tf.stop_gradient(tf.round(w))"),
    Shape("stop_gradient(x): dropped", "TM401", "tf.stop_gradient(w * 2.0)"),
    Shape("K.eval(x): dropped", "TM301", "K.eval(w + 1.0)"),
    Shape(".numpy(): dropped", "TM301", "(w + 1.0).numpy()"),
    Shape("float(t): dropped", "TM301", "float(tf.reduce_sum(w) - 1.0)"),
    Shape("np.sqrt: tf.sqrt", "TM301", "np.sqrt(w * w)"),
    Shape("predict: model call", "TM301", "model.predict(w, verbose=0)",
          extra="model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])\n"),
    Shape("numpy_function(np.sinh): tf twin", "TM302",
          "tf.numpy_function(np.sinh, [w], tf.float32)"),
    Shape("numpy_function(f): TF body copy", "TM302",
          "tf.numpy_function(norm, [w], tf.float32)",
          extra="def norm(v):\n    e = np.exp(v - v.max(axis=-1, keepdims=True))\n"
                "    return e / e.sum(axis=-1, keepdims=True)\n"),
    Shape("argmax: soft argmax", "TM201", "tf.argmax(w, 1)"),
    Shape("one_hot(argmax): softmax", "TM201", "tf.one_hot(tf.argmax(w, -1), 3)"),
    Shape("max mask: softmax", "TM201",
          "tf.cast(tf.equal(w, tf.reduce_max(w, axis=-1, keepdims=True)), tf.float32)"),
)

#: Each context is a program ending in ``y = ...``; ``X`` is where the expression goes.
CONTEXTS = (
    ("a * X / b", "y = a * X / b"),
    ("-X", "y = -X"),
    ("X ** 2", "y = X ** 2"),
    ("X[i]", "y = X[1]"),
    ("f(X)[i]", "y = tf.reshape(X, [-1])[1]"),
    ("lambda body", "y = (lambda: X)()"),
    ("list comprehension", "y = tf.stack([X for _ in range(2)])"),
    ("call argument", "y = tf.reduce_sum(X)"),
    ("loss in a tape", "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(1.0 - X)"),
)

_names = itertools.count()


def _fix(shape: Shape, source: str) -> tuple[tuple[object, ...], bool | None]:
    """Return the edits the rule's ``fix`` makes at ``shape.expr`` and its ``keeps_value``."""
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.locations import SourceIndex
    from tapemagic.report.model import Location
    from tapemagic.rules.base import Draft, registry
    from tapemagic.rules.context import RuleContext
    from tapemagic.trace import Trace

    name = f"<fix-shape-{next(_names)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    lines = source.splitlines()
    number = max(i for i, line in enumerate(lines) if shape.expr in line)
    col = lines[number].index(shape.expr)
    location = Location(name, number + 1, number + 1, col, col + len(shape.expr), lines[number])
    ctx = RuleContext(ProvenanceGraph(Trace()), [], SourceIndex())
    edits = registry()[shape.rule].fix(Draft(shape.rule, (), None, True, {},
                                             op_type=shape.op_type), location, ctx)
    try:
        from tapemagic.diagnosis import finding_fix
    except ImportError:  # a tapemagic before fixes said whether they keep values
        return tuple(edits), None
    fix = finding_fix("title", "unsafe", edits)
    return fix.edits, fix.keeps_value


def _run(source: str) -> object:
    space: dict[str, object] = {"K": types.SimpleNamespace(eval=lambda v: v.numpy())}
    exec(compile(source, "<fix-shapes>", "exec"), space)  # noqa: S102  (the bench's programs)
    return space["y"]


@dataclass(frozen=True)
class Outcome:
    """One cell of the table."""

    verdict: str  # kept | CHANGED | changes (says so) | n/a | BROKEN
    before: str = ""
    after: str = ""
    fixed: str = ""


def _placed(context: str, expr: str) -> str:
    """``context`` with ``expr`` for ``X``, in parentheses when it would bind otherwise there
    (``a * (w // 0.5) / b``: the original program must mean what the context says)."""
    bare, grouped = context.replace("X", expr, 1), context.replace("X", f"({expr})", 1)
    return bare if ast.dump(ast.parse(bare)) == ast.dump(ast.parse(grouped)) else grouped


def evaluate(shape: Shape, context: str) -> Outcome:
    """Apply ``shape``'s fix inside ``context`` and compare the forward values."""
    import numpy as np

    from tapemagic.verify import apply_edits

    source = SETUP + shape.extra + _placed(context, shape.expr) + "\n"
    try:
        before = np.asarray(_run(source), dtype=np.float64)
    except Exception:  # noqa: BLE001  (an int or bool where a float is needed: no such program)
        return Outcome("n/a")
    edits, keeps = _fix(shape, source)
    if not edits:
        return Outcome("n/a")
    fixed = apply_edits(source, edits)  # type: ignore[arg-type]
    try:
        ast.parse(fixed)
        after = np.asarray(_run(fixed), dtype=np.float64)
    except Exception as error:  # noqa: BLE001
        return Outcome("BROKEN", fixed=f"{fixed}\n{type(error).__name__}: {error}")
    same = before.shape == after.shape and bool(np.allclose(before, after, rtol=1e-5,
                                                            atol=1e-6))
    shown = {"before": np.array2string(before, precision=4),
             "after": np.array2string(after, precision=4), "fixed": fixed}
    if keeps is False:
        return Outcome("changes (says so)" if not same else "kept", **shown)
    return Outcome("kept" if same else "CHANGED", **shown)


def table() -> tuple[list[str], dict[str, int]]:
    """Return the Markdown table's lines and the count of each verdict."""
    counts: dict[str, int] = {}
    lines = ["| fix shape | " + " | ".join(name for name, _ in CONTEXTS) + " |",
             "|---" * (len(CONTEXTS) + 1) + "|"]
    for shape in SHAPES:
        cells = []
        for _, context in CONTEXTS:
            outcome = evaluate(shape, context)
            counts[outcome.verdict] = counts.get(outcome.verdict, 0) + 1
            cells.append(outcome.verdict)
            if outcome.verdict in ("CHANGED", "BROKEN"):
                print(f"# {shape.name} in {context!r}: {outcome.before} -> {outcome.after}\n"
                      + textwrap.indent(outcome.fixed.split(SETUP, 1)[-1], "#   "),
                      file=sys.stderr)
        lines.append(f"| {shape.name} | " + " | ".join(cells) + " |")
    return lines, counts


def main() -> int:
    """Print the table and the counts; exit status 1 when a promised value changed."""
    lines, counts = table()
    print("\n".join(lines))
    print()
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    return 1 if counts.get("CHANGED") or counts.get("BROKEN") else 0


if __name__ == "__main__":
    sys.exit(main())
