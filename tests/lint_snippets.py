"""Lint a short training snippet: the hints on it, by rule code and line of the snippet.

Shared by the lint tests that state a kind by a few lines of code (tests/test_lint_*.py).
"""

from __future__ import annotations

import textwrap

from tapemagic.lint import check_source

#: the names every snippet may use, above its first line
HEAD = """\
import numpy as np
import tensorflow as tf
import keras
x = tf.ones((8, 3))
y = tf.zeros((8, 1))
"""
OFFSET = HEAD.count("\n")


def hints(body: str) -> list[tuple[str, int]]:
    """Return (code, line) of every hint on ``body``; line 1 is the body's first line."""
    source = HEAD + textwrap.dedent(body).lstrip("\n")
    compile(source, "<test>", "exec")  # a test source that does not parse would pass silently
    return sorted({(h.code, h.line - OFFSET) for h in check_source(source)})
