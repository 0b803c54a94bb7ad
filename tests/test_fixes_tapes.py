"""Quick fixes that move a line into a tape's block when a step has several tapes (TF-free).

A GAN step opens one tape per model. The line a gradient call lost its weights to goes into
the block of that call's tape, not into whichever block is next to it; a value another block
reads on the way is copied into the tape's block (the tape records its own run), never moved
away from the code that reads it.
"""

from __future__ import annotations

import ast
import itertools
import linecache
import textwrap

from tapemagic.fixes import statements
from tapemagic.locations import SourceIndex
from tapemagic.verify import apply_edits

_names = itertools.count()

GAN_STEP = """\
for step in range(3):
    z = tf.random.normal((16, 4))
    fake = gen(z, training=True)
    with tf.GradientTape() as d_tape:
        d_loss = bce(ones, disc(real)) + bce(zeros, disc(fake))
    d_grads = d_tape.gradient(d_loss, disc.trainable_variables)
    d_opt.apply_gradients(zip(d_grads, disc.trainable_variables))
    with tf.GradientTape() as g_tape:
        g_loss = bce(ones, disc(fake))
    g_grads = g_tape.gradient(g_loss, gen.trainable_variables)
"""


def _move(source: str, needle: str, tape_line: int | None) -> str | None:
    source = textwrap.dedent(source)
    name = f"<tapes-{next(_names)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    line = next(i for i, ln in enumerate(source.splitlines(), 1) if needle in ln)
    edits = statements.move_into_tape(SourceIndex(), name, line, tape_line)
    if edits is None:
        return None
    fixed = apply_edits(source, edits)
    ast.parse(fixed)
    return fixed


def test_the_line_goes_into_the_tape_of_the_gradient_call_that_lost_the_weights() -> None:
    fixed = _move(GAN_STEP, "fake = gen(z", tape_line=8)
    assert fixed is not None
    # the discriminator still reads the value computed before its block; the generator's
    # tape records its own run of the forward pass
    assert fixed.count("fake = gen(z, training=True)") == 2
    assert ("    with tf.GradientTape() as g_tape:\n        fake = gen(z, training=True)\n"
            "        g_loss = bce(ones, disc(fake))\n") in fixed
    assert "    fake = gen(z, training=True)\n    with tf.GradientTape() as d_tape:\n" in fixed


def test_a_line_nothing_in_between_reads_is_moved_into_that_tape() -> None:
    source = GAN_STEP.replace("bce(zeros, disc(fake))", "bce(zeros, disc(real))")
    fixed = _move(source, "fake = gen(z", tape_line=8)
    assert fixed is not None and fixed.count("fake = gen(z, training=True)") == 1
    assert "g_tape:\n        fake = gen(z, training=True)\n" in fixed


def test_no_copy_when_a_statement_in_between_rebinds_what_the_line_reads() -> None:
    # the copy would run on another `z` than the value the discriminator read: no edit
    again = "    z = tf.random.normal((16, 4))\n    d_opt.apply"
    source = GAN_STEP.replace("    d_opt.apply", again)
    assert _move(source, "fake = gen(z", tape_line=9) is None


def test_without_the_tape_the_neighbouring_block_takes_the_line() -> None:
    fixed = _move(GAN_STEP, "fake = gen(z", tape_line=None)
    assert fixed is not None and "d_tape:\n        fake = gen(z, training=True)\n" in fixed
