"""Quick-fix edits keep the code's meaning: parenthesised where operator precedence needs it.

The TF-free half checks the precedence table on LibCST nodes (:mod:`tapemagic.fixes.precedence`)
against Python's own parser in every kind of slot. The TensorFlow half is the bench of
``bench/fix_shapes.py``: every expression-replacing fix shape of the rules, in every context,
applied by the rule's own ``fix`` and run with real tensors before and after.
"""

from __future__ import annotations

import ast
import contextlib
import os
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from tapemagic.fixes import precedence

ROOT = Path(__file__).resolve().parent.parent

#: Replacements of every precedence level (what a fix may put in the place of ``X``).
NEW = ["a + b", "a * b", "-a", "a ** b", "not a", "a < b", "a and b", "a or b",
       "a if c else b", "lambda: a", "a | b", "f(a)", "a[0]", "(a, b)", "await a"]
#: Slots: ``X`` in each kind of parent.
CONTEXTS = ["y = p * X / q", "y = -X", "y = X ** 2", "y = 2 ** X", "y = X[i]", "y = f(X)[i]",
            "y = X.attr", "y = X(1)", "y = p - X", "y = X - p", "y = not X", "y = p < X",
            "y = X and p", "y = p or X", "y = X if c else p", "y = p if X else q",
            "y = p if c else X", "y = lambda: X", "y = [X for _ in r]", "y = [v for v in X]",
            "y = [v for v in r if X]", "y = f(X)", "y = f(k=X)", "y = {X: X}", "y = [X, p]",
            "y = s[X:]", "y = X", "return X", "y = p @ X", "y = p & X | q", "y = ~X"]


def _spliced(context: str, text: str) -> str:
    return context.replace("X", text, 1)


def _meaning(source: str) -> str:
    wrapped = "async def g():\n    " + source  # `await` and `return` need a function
    return ast.dump(ast.parse(wrapped))


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("new", NEW)
def test_the_precedence_table_parenthesises_exactly_where_python_would_group_otherwise(
        context: str, new: str) -> None:
    source = _spliced(context, "x0")
    if context.startswith("return"):
        source = source.replace("return", "y =")  # a module-level return does not parse
    module = MetadataWrapper(cst.parse_module(source))
    positions, parents = module.resolve(PositionProvider), module.resolve(ParentNodeProvider)
    node = next(n for n in positions if isinstance(n, cst.Name) and n.value == "x0")
    placed = precedence.wrap(cst.parse_expression(new), precedence.required(parents[node], node))
    text = precedence.code(placed)
    expected = _meaning(_spliced(context, f"({new})"))
    assert _meaning(_spliced(context, text)) == expected
    if text != new:  # parenthesised: without them Python reads it otherwise, or not at all
        with contextlib.suppress(SyntaxError):
            assert _meaning(_spliced(context, new)) != expected


def test_fitted_finds_the_slot_in_the_source_and_keeps_existing_parentheses() -> None:
    new = cst.parse_expression("x + tf.stop_gradient(tf.round(x) - x)")
    source = "def call(self):\n    w_q = tf.round(x) / 127.0\n    v = (tf.round(x)) / 2\n"
    assert precedence.fitted(new, source, 2, 10, 21) == \
        "(x + tf.stop_gradient(tf.round(x) - x))"
    assert precedence.fitted(new, source, 3, 9, 20) == "x + tf.stop_gradient(tf.round(x) - x)"
    # a call argument needs none; an unknown source gets them unless the new code is an atom
    assert precedence.fitted(new, "y = f(tf.round(x))\n", 1, 6, 17) == \
        "x + tf.stop_gradient(tf.round(x) - x)"
    assert precedence.fitted(new, None, 1, 0, 5).startswith("(")
    # a notebook cell with a magic line still parses around it
    assert precedence.fitted(new, "%%gradcheck\ny = -tf.round(x)\n", 2, 5, 16).startswith("(")


def test_builders_parenthesise_their_operands() -> None:
    left = cst.parse_expression("a + b")
    product = precedence.binop(left, cst.Multiply(), cst.parse_expression("c - d"))
    assert precedence.code(product) == "(a + b) * (c - d)"
    assert precedence.code(precedence.attr(left, "dtype")) == "(a + b).dtype"
    assert precedence.code(precedence.call("tf.cast", cst.parse_expression("p, q"),
                                           dtype=cst.parse_expression("t"))) == \
        "tf.cast((p, q), dtype=t)"
    power = precedence.binop(cst.parse_expression("-a"), cst.Power(), cst.parse_expression("-b"))
    assert precedence.code(power) == "(-a) ** -b"


def test_every_fix_shape_keeps_the_forward_value_in_every_context() -> None:
    pytest.importorskip("tensorflow")
    # in its own process: the bench builds Keras models and fixes the global seeds
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "fix_shapes.py")], env=env,
                          capture_output=True, text=True, timeout=1200, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "CHANGED" not in done.stdout and "BROKEN" not in done.stdout
    assert len(lines) == 1 + 22, done.stdout  # the header and every shape
    # every shape is rewritten somewhere (a row of "n/a" would test nothing), and the soft
    # surrogates are the only ones that change values
    for line in lines[1:]:
        name, *cells = [c.strip() for c in line.strip("|").split("|")]
        assert set(cells) - {"n/a"}, name
        assert ("changes (says so)" in cells) == ("soft" in name or "softmax" in name), name


def test_a_lint_hint_edit_is_parenthesised_where_its_slot_needs_it() -> None:
    from tapemagic.lint import check_source

    source = ("import tensorflow as tf\n\nw = tf.Variable([0.3, 0.7])\n"
              "with tf.GradientTape() as tape:\n"
              "    loss = tf.reduce_sum(tf.stop_gradient(w * 2.0) ** 2)\n"
              "    other = tf.reduce_sum(tf.stop_gradient(w * 2.0))\n"
              "grads = tape.gradient(loss + other, [w])\n")
    edits = [e for h in check_source(source) if h.code == "TM401" and h.fix
             for e in h.fix.edits]
    assert [e.text for e in sorted(edits, key=lambda e: e.line)] == ["(w * 2.0)", "w * 2.0"]
