"""Lint TM203: a ``tf.custom_gradient``'s gradient function with no ``return`` of its own.

It returns None for every input (the straight-through estimator of
https://github.com/tensorflow/tensorflow/issues/50170, its return left out). The hint sits on
its last statement, where the return goes; a gradient function that returns on every path, or
only inside a branch, and a helper with no return beside it stay silent.
"""

from __future__ import annotations

import textwrap

from tapemagic.lint import check_source

SHAPE = """\
import tensorflow as tf


@tf.custom_gradient
def round_through(t):
    def log(message):
        print(message)

    def grad(upstream):
{body}
    log("forward")
    return tf.round(t), grad
"""


def _hints(body: str) -> list[tuple[str, int]]:
    source = SHAPE.format(body=textwrap.indent(textwrap.dedent(body), " " * 8))
    return [(h.code, h.line) for h in check_source(source)]


def test_a_gradient_function_that_returns_nothing_is_hinted_at_its_last_statement() -> None:
    assert _hints("""\
        scaled = upstream * 1.0
        passed = tf.identity(scaled)
        """) == [("TM203", 11)]


def test_gradient_functions_that_return_a_value_stay_silent() -> None:
    assert _hints("return upstream\n") == []
    assert _hints("""\
        if upstream.dtype == tf.float16:
            return tf.cast(upstream, tf.float32)
        else:
            return upstream
        """) == []
    assert _hints("""\
        def inner(d):
            return d
        return inner(upstream)
        """) == []
