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


@contextlib.contextmanager
def frozen() -> Iterator[None]:
    """Freeze the heap for the block (see the module docstring); a no-op when it is frozen."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
