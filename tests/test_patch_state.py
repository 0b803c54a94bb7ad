"""The patch-state check itself: class dicts compared key by key, down to a lazily made one.

tests/conftest.py takes the baseline after one plain TensorFlow step, so what plain TensorFlow
leaves behind on its first ops (an empty ``__annotations__`` on ``BaseResourceVariable``, made by
Python when TF's dispatch reads it) is part of the baseline, and nothing is exempt from the diff.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import diff_snapshots, patch_snapshot

pytestmark = pytest.mark.tf


def test_the_baseline_holds_what_plain_tensorflow_leaves(baseline: dict[str, Any]) -> None:
    assert baseline["BaseResourceVariable"].get("__annotations__") == {}


def test_an_empty_annotations_dict_left_on_a_class_is_a_change(
        baseline: dict[str, Any]) -> None:
    before = {**baseline, "BaseResourceVariable": {
        k: v for k, v in baseline["BaseResourceVariable"].items() if k != "__annotations__"}}
    assert diff_snapshots(before, patch_snapshot()) == [
        "BaseResourceVariable.__annotations__: '<absent>' -> {}"]


def test_a_check_leaves_every_class_dict_as_it_found_it(run_cell: Any, patch_state: Any) -> None:
    run_cell("%%gradcheck\nw = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as tape:\n"
             "    loss = tf.reduce_sum(tf.round(w) * w)\ngrads = tape.gradient(loss, [w])\n")
    assert patch_state() == []
