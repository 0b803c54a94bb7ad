"""Gradients the code expects to be None (graph/none_handling.py): dropped or replaced by design.

Multi-task steps and heads trained in turn take one gradient call over every weight and filter
the None gradients (a false-positive hunt found a TM104 error on such a program). A weight the
target does not depend on is then no cut, as with ``unconnected_gradients=ZERO``; a call where
no weight gets a gradient, or a filter that only looks (a print), stays a cut.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from checked import run_program

from tapemagic.auto import has_cut
from tapemagic.graph.none_handling import none_handled_in
from tapemagic.locations import enclosing_function
from tapemagic.report.model import Report

CALL = "grads = tape.gradient(loss, variables)"
HANDLED = {
    "zeros for None": "grads = [tf.zeros_like(v) if g is None else g "
                      "for g, v in zip(grads, variables)]",
    "dropped in apply": "opt.apply_gradients((g, v) for g, v in zip(grads, variables) "
                        "if g is not None)",
    "a loop that skips": "for g, v in zip(grads, variables):\n    if g is None:\n"
                         "        continue\n    v.assign_sub(0.1 * g)",
    "a loop that applies the others": "for g, v in zip(grads, variables):\n"
                                      "    if g is not None:\n        v.assign_sub(0.1 * g)",
    "a dict": "kept = {v.name: g for g, v in zip(grads, variables) if g is not None}",
    "in place": None,
}
LOOKS = {
    "a print": "print([g is None for g in grads])",
    "an f-string": 'print(f"{[g is None for g in grads]}")',
    "a logger": "logging.info([g is not None for g in grads])",
    "another list": "flags = [f is None for f in others]",
    "a list of the None ones": "missing = [v.name for g, v in zip(grads, variables) "
                               "if g is None]",
    "a loop that raises": "for g, v in zip(grads, variables):\n    if g is None:\n"
                          "        raise ValueError(v.name)",
    "a loop that prints": "for g, v in zip(grads, variables):\n    if g is None:\n"
                          "        print(v.name, 'gets no gradient')",
    "flags kept": "missing = [g is None for g in grads]",
}


def _line(source: str, needle: str) -> int:
    return next(i for i, text in enumerate(source.splitlines(), 1) if needle in text)


@pytest.mark.parametrize("name", sorted(HANDLED))
def test_a_kept_filter_is_found(name: str) -> None:
    after = HANDLED[name]
    if after is None:  # the call iterated where it is made
        source = ("grads = [g if g is not None else tf.zeros_like(v)\n"
                  "         for g, v in zip(tape.gradient(loss, variables), variables)]\n")
        line = 2
    else:
        source = f"{CALL}\n{after}\n"
        line = 1
    tree = ast.parse(source)
    assert none_handled_in(tree, enclosing_function(tree, line), line) is not None


@pytest.mark.parametrize("name", sorted(LOOKS))
def test_a_filter_that_only_looks_is_not(name: str) -> None:
    source = f"{CALL}\n{LOOKS[name]}\n"
    tree = ast.parse(source)
    assert none_handled_in(tree, enclosing_function(tree, 1), 1) is None


# -- real runs -------------------------------------------------------------------------------

MULTITASK = """
import tensorflow as tf
tf.keras.utils.set_random_seed(0)
trunk = tf.keras.layers.Dense(8, activation="relu", name="trunk")
heads = {"a": tf.keras.layers.Dense(2, name="head_a"), "b": tf.keras.layers.Dense(1, name="head_b")}
x = tf.random.normal((8, 6)); trunk(x); [h(trunk(x)) for h in heads.values()]
variables = trunk.trainable_variables + heads["a"].trainable_variables + \\
    heads["b"].trainable_variables
opt = tf.keras.optimizers.SGD(1e-2); opt.build(variables)

@tf.function
def step(task, x):
    with tf.GradientTape() as tape:
        loss = LOSS
    grads = tape.gradient(loss, variables)
    FILTER
    return loss

for task in ["a", "b"]:
    step(task, x)
"""
ZEROS = ("grads = [tf.zeros_like(v) if g is None else g for g, v in zip(grads, variables)]\n"
         "    opt.apply_gradients(zip(grads, variables))")
DROP = "opt.apply_gradients([(g, v) for g, v in zip(grads, variables) if g is not None])"
PRINT = "print([g is None for g in grads])"
OWN_HEAD = "tf.reduce_mean(tf.square(heads[task](trunk(x))))"


def _run(tmp_path: Path, loss: str, filtering: str, eager: bool) -> Report:
    source = textwrap.dedent(MULTITASK).replace("LOSS", loss).replace("FILTER", filtering)
    return run_program(tmp_path, source, name="prog.py", force_eager=eager).report


MODES = pytest.mark.parametrize("eager", [False, True], ids=["graph", "eager"])


@pytest.mark.tf
@MODES
@pytest.mark.parametrize("filtering", [ZEROS, DROP], ids=["zeros", "dropped"])
def test_heads_trained_in_turn_with_the_none_gradients_filtered_are_silent(
        tmp_path: Path, eager: bool, filtering: str) -> None:
    report = _run(tmp_path, OWN_HEAD, filtering, eager)
    assert report.findings == (), [f.message for f in report.findings]
    assert not has_cut(report)
    verdicts = {s.variable: s.verdict for c in report.gradient_calls for s in c.sources}
    assert verdicts["head_b/kernel"] == "zero" and verdicts["head_a/kernel"] == "connected"
    assert any("by design" in n for n in report.notes)
    assert "later run" not in report.headline


@pytest.mark.tf
@MODES
def test_a_filter_that_only_prints_keeps_the_cut(tmp_path: Path, eager: bool) -> None:
    report = _run(tmp_path, OWN_HEAD, PRINT, eager)
    assert [f.rule for f in report.findings] == ["TM104"] and has_cut(report)


@pytest.mark.tf
@MODES
def test_a_loss_that_reads_no_weight_stays_a_cut_when_filtered(tmp_path: Path,
                                                                eager: bool) -> None:
    # every gradient None, all dropped: nothing trains, whatever the filter says
    report = _run(tmp_path, "tf.reduce_mean(tf.square(x))", DROP.replace(
        "opt.apply_gradients(", "kept = ("), eager)
    assert "TM104" in [f.rule for f in report.findings] and has_cut(report)
