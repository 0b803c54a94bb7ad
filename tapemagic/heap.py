"""The heap kept out of the garbage collector's scans while the check does bulk work.

Recording a run and analysing it make an object per op (records, edges): they trigger
collections of the oldest generation, which scan every object in the process (TensorFlow's and
Keras' modules: hundreds of thousands). That, not the work itself, doubled the cost of a
5,000-line cell (bench/overhead.py) and was 0.7 s of a ResNet50 step's 1 s report.
``gc.freeze`` moves the objects that exist now to a generation that is not scanned;
``gc.unfreeze`` puts them back. A program that froze the heap itself, or turned the collector
off, is left as it is.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

#: Allocations between two young collections while the heap is frozen (Python's default: 700).
#: The records made per op all survive, so collecting them young only scans them again: an
#: eager ResNet50 step made 110 young collections instead of 41 (12 ms), 11 with this.
YOUNG_THRESHOLD = 10_000


@contextlib.contextmanager
def frozen() -> Iterator[None]:
    """Freeze the heap for the block (see the module docstring); a no-op when it is frozen.

    Young collections are also made rarer (:data:`YOUNG_THRESHOLD`) for the block, unless
    automatic collection is off (a threshold of 0); a threshold the block sets itself is kept.
    """
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    before = gc.get_threshold()
    raised = (max(before[0], YOUNG_THRESHOLD), *before[1:]) if before[0] else before
    gc.freeze()
    gc.set_threshold(*raised)
    try:
        yield
    finally:
        if gc.get_threshold() == raised:
            gc.set_threshold(*before)
        gc.unfreeze()
