"""heap.frozen: the collector's settings during a check, and after it."""

from __future__ import annotations

import gc

import pytest

from tapemagic import heap


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def test_young_collections_are_rarer_inside_and_restored_after(thresholds) -> None:
    gc.set_threshold(700, 10, 10)
    with heap.frozen():
        assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, 10, 10)
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0


def test_a_threshold_the_block_sets_is_kept(thresholds) -> None:
    gc.set_threshold(700, 10, 10)
    with heap.frozen():
        gc.set_threshold(123, 4, 5)
    assert gc.get_threshold() == (123, 4, 5)


def test_collection_switched_off_by_threshold_stays_off(thresholds) -> None:
    gc.set_threshold(0, 10, 10)
    with heap.frozen():
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)


def test_restored_after_an_exception(thresholds) -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(KeyboardInterrupt), heap.frozen():
        raise KeyboardInterrupt
    assert gc.get_threshold() == (700, 10, 10)
    assert gc.get_freeze_count() == 0
