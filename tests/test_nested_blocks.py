"""A gradcheck block inside another: tapemagic's own checks never reach the outer report.

The inner block ends with tapemagic's self-test (a variable, ``.numpy()``, ``tf.round``) while
the outer session still records; the outer report must hold only the user's cuts. Run in a
fresh interpreter: the self-test runs once the TensorFlow runtime has started.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.tf

PROGRAM = textwrap.dedent("""
    import tensorflow as tf
    import tapemagic
    with tapemagic.gradcheck() as outer:
        with tapemagic.gradcheck() as inner:
            w = tf.Variable(2.0)
            with tf.GradientTape() as tape:
                loss = w * 3.0
            tape.gradient(loss, w)
        v = tf.Variable(1.0)
        with tf.GradientTape() as tape:
            cut = tf.round(v * 2.0)
        tape.gradient(cut, v)
    print("inner:", inner.codes)
    print("outer:", outer.codes)
    print("notes:", [n for n in outer.report.notes + inner.report.notes if "self-test" in n])
    """)


@pytest.mark.slow
def test_an_inner_blocks_self_test_is_not_in_the_outer_report() -> None:
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "inner: []" in proc.stdout
    assert "outer: ['TM201']" in proc.stdout
    assert "notes: []" in proc.stdout
