"""What a traced graph's ``Const`` ops hold, noted as the graph is traced.

Imports TensorFlow. A Python number a ``tf.function`` reads is frozen into its graph as a
``Const``; the analysis needs two facts of such numbers: a float constant whose every element
is 0 (``Trace.zero_constants``: a loss term multiplied by a frozen 0.0) and the value of a
scalar constant (``Trace.scalar_constants``: a clip bound, a band's bounds), which decide
whether an op's property comes from its arguments rather than from the values it was given.
``tf.get_static_value`` reads a ``Const`` without running anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import tensorflow as tf

from tapemagic.tracing import _tf_private as tfp

if TYPE_CHECKING:
    from tapemagic.trace import Trace


def note(trace: Trace, serial: int | None, tensor: Any) -> None:
    """Note the facts of ``Const`` output ``tensor`` (recorded as ``serial``) in ``trace``."""
    if serial is None:
        return
    dtype = tfp.dtype_name(tensor.dtype)
    if dtype.startswith(("float", "bfloat")) and tfp.is_static_zero(tensor):
        trace.zero_constants.add(serial)
    if not dtype.startswith(("float", "bfloat", "int", "uint")) or tensor.shape.rank != 0:
        return
    try:
        value = tf.get_static_value(tensor)
    except Exception:  # noqa: BLE001 - a value that cannot be read is not known
        return
    if value is not None and np.isfinite(value):
        trace.scalar_constants[serial] = float(value)
