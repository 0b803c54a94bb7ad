"""TM111's fix for a variable made inside the training loop: made once, before it (TF-free)."""

from __future__ import annotations

import ast
import itertools
import linecache
import textwrap

from tapemagic.fixes import blocks
from tapemagic.locations import SourceIndex
from tapemagic.verify import apply_edits

_names = itertools.count()

LOOP = """\
def train(model, x, y):
    for step in range(3):
        with tf.GradientTape() as tape:
            temperature = tf.Variable(1.0, name="temperature")
            loss = tf.reduce_mean(tf.square(model(x) / temperature - y))
        grads = tape.gradient(loss, [temperature])
"""


def _fix(source: str, needle: str) -> str | None:
    source = textwrap.dedent(source)
    name = f"<loop-{next(_names)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    line = next(i for i, ln in enumerate(source.splitlines(), 1) if needle in ln)
    edits = blocks.create_before_loop(SourceIndex(), name, line)
    if edits is None:
        return None
    fixed = apply_edits(source, edits)
    ast.parse(fixed)
    return fixed


def test_the_variable_is_created_once_before_the_loop() -> None:
    fixed = _fix(LOOP, "tf.Variable(")
    assert fixed is not None
    assert fixed.startswith('def train(model, x, y):\n    temperature = tf.Variable(1.0, '
                            'name="temperature")\n    for step in range(3):\n')
    assert fixed.count("tf.Variable(") == 1


def test_not_moved_when_the_loop_binds_what_the_creation_reads() -> None:
    # one variable per step value is what the code says: moving it would change that value
    source = LOOP.replace("tf.Variable(1.0,", "tf.Variable(float(step),")
    assert _fix(source, "tf.Variable(") is None


def test_not_moved_out_of_a_function_the_loop_calls() -> None:
    source = """\
        def step(x):
            scale = tf.Variable(1.0)
            return x * scale
        for i in range(3):
            step(x)
        """
    assert _fix(source, "tf.Variable(") is None
