"""Every patch ``%%gradcheck`` installs is undone, and the cell's own settings are kept.

Every behaviour test runs the same cell twice in the one shared shell, once plain and once under
``%%gradcheck``, and compares what the user sees. The ``run_cell`` fixture (tests/conftest.py)
also checks after each test that every patch tapemagic installs was undone.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from tests.cells import ROUND_CELL, magic

pytestmark = pytest.mark.tf


# -- every patch undone --------------------------------------------------------------------------

@pytest.mark.parametrize("body, error", [
    (ROUND_CELL, None),
    ("w = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n    y = w * 2.0\n"
     "raise ValueError('mid-tape')\n", ValueError),
    ("w = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n    y = w * 2.0\n"
     "    raise KeyboardInterrupt\n", KeyboardInterrupt),
    ("@tf.function\ndef f(v):\n    return tf.numpy_function(lambda a: a * 2, [v], tf.float32)\n"
     "f(tf.constant([1.0]))\n", None),
    ("x = (\n", SyntaxError),
], ids=["normal", "exception", "keyboard-interrupt", "function-and-numpy_function", "syntax"])
def test_every_patch_is_undone(run_cell, patch_state, body: str, error: Any) -> None:
    for _ in range(2):  # twice in a row
        traced = run_cell(magic(body))
        if error is None:
            assert traced.error is None, traced.stdout
        else:
            assert isinstance(traced.error, error)
        assert patch_state() == []


def test_patches_are_active_only_while_the_cell_runs(run_cell, shell, patch_state) -> None:
    body = ("from tensorflow.python.framework import ops\n"
            "during = ops._EagerTensorBase.__dict__.get('__array_ufunc__')\n"
            "eager_inside = tf.config.functions_run_eagerly()\n")
    run_cell(magic(body))
    assert shell.user_ns["during"] is not None  # the snapshot really sees the patches
    assert shell.user_ns["eager_inside"] is False  # graph mode (the default) changes nothing
    assert patch_state() == []


def test_run_functions_eagerly_true_before_the_cell_stays_true(run_cell, patch_state) -> None:
    import tensorflow as tf

    tf.config.run_functions_eagerly(True)
    try:
        for body in (ROUND_CELL, "raise ValueError('x')"):
            run_cell(magic(body))
            assert tf.config.functions_run_eagerly() is True
        run_cell(magic("x = 1", "--graph-mode"))
        assert tf.config.functions_run_eagerly() is True
    finally:
        tf.config.run_functions_eagerly(False)
    assert patch_state() == []


def test_run_functions_eagerly_set_by_the_cell_is_kept(run_cell) -> None:
    import tensorflow as tf

    body = "tf.config.run_functions_eagerly(True)\n"
    run_cell(body)
    assert tf.config.functions_run_eagerly() is True
    tf.config.run_functions_eagerly(False)
    run_cell(magic(body))
    assert tf.config.functions_run_eagerly() is True


def test_warning_filters_the_cell_sets_are_kept(run_cell) -> None:
    body = "import warnings\nwarnings.filterwarnings('ignore', message='tm-test-filter')\n"
    with warnings.catch_warnings():
        before = list(warnings.filters)
        run_cell(body)
        plain_after = list(warnings.filters)
        warnings.filters[:] = before
        warnings._filters_mutated()  # noqa: SLF001 - as warnings.filterwarnings does
        run_cell(magic(body))
        traced_after = list(warnings.filters)
    assert traced_after == plain_after
    assert len(plain_after) == len(before) + 1


def test_op_callbacks_list_is_empty_afterwards(run_cell) -> None:
    from tensorflow.python.eager import context

    assert context.context().op_callbacks == []
    run_cell(magic(ROUND_CELL))
    assert context.context().op_callbacks == []
    run_cell(magic("raise ValueError()"))
    assert context.context().op_callbacks == []
