"""The correct training cells tests/test_semantics.py runs plain and under ``%%gradcheck``.

``cell`` registers a cell in ``CELLS`` by name; the cells themselves stand in
tests/semantics_cells_tf.py (tf.function, jacobians, distribution, Keras fit, tf.data) and
tests/semantics_cells_training.py (threads, and training patterns that look suspicious but are
correct). Each cell seeds everything it draws and ends by storing a fingerprint in ``_out``.

Cells that differ today only because the magic forces eager mode are marked
``xfail(strict=True)`` with the reason; analysing graph mode as written (issue 7) makes them
pass, and then the mark goes.
"""

from __future__ import annotations

import textwrap
from typing import Any

#: Run first in both runs: a fingerprint helper, fresh Keras names, every seed fixed.
PRELUDE = """\
import threading
import numpy as np
import tensorflow as tf
import keras
def _fp(*values):
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.append(_fp(*v))
            continue
        if hasattr(v, "numpy"):
            v = v.numpy()
        if isinstance(v, np.ndarray):
            out.append((str(v.dtype), v.shape, v.tobytes().hex()))
        elif isinstance(v, (np.generic, float, int, bool, str, type(None))):
            out.append(repr(v))
        else:
            out.append(type(v).__name__)
    return out
keras.backend.clear_session()
keras.utils.set_random_seed(0)
"""

CELLS: dict[str, tuple[str, Any]] = {}


def cell(name: str, source: str, mark: Any = None) -> None:
    CELLS[name] = (textwrap.dedent(source), mark)
