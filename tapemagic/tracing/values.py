"""Reading tensor values without running an op: saturation, host-value matching, call sites.

Imports TensorFlow objects only through the tensors it is handed (``_numpy()`` of an eager
tensor is a view on CPU and runs no op, so nothing here re-enters the op callback).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapemagic.trace import RawLocation
from tapemagic.tracing import frames


def call_site(user: Any, loc: RawLocation | None) -> RawLocation | None:
    """Return where the user's code called the function ``user`` runs in (None at top level)."""
    if user.f_code.co_name == "<module>" or loc is None:
        return None
    caller, _ = frames.user_frame(user.f_back)
    return frames.location_of(caller) if caller is not None else None


def saturated(op_type: str, inputs: Any, outputs: Any) -> bool:
    """Return True when ``op_type``'s gradient to input 0 is zero at every element."""
    try:
        x = np.asarray(inputs[0]._numpy())  # noqa: SLF001 - a view on CPU, no op is run
        if op_type == "Relu":
            return not np.any(x > 0)
        if op_type == "Relu6":
            return bool(np.all((x <= 0) | (x >= 6)))
        if op_type == "ClipByValue":
            lo, hi = np.asarray(inputs[1]._numpy()), np.asarray(inputs[2]._numpy())  # noqa: SLF001
            return bool(np.all((x < lo) | (x > hi)))
        other = np.asarray(inputs[1]._numpy())  # noqa: SLF001
        return bool(np.all(x < other) if op_type == "Maximum" else np.all(x > other))
    except Exception:  # noqa: BLE001 - symbolic or remote tensors: unknown, so not saturated
        return False


def host_value(tensor: Any) -> np.ndarray | None:
    """Return a tensor's (or a variable's) value as an ndarray, or None when it has none."""
    try:
        return np.asarray(tensor._numpy())  # noqa: SLF001 - no op is run, unlike tf.identity
    except Exception:  # noqa: BLE001 - symbolic, remote or unreadable tensors have no value
        try:
            return np.asarray(tensor.read_value()._numpy())  # noqa: SLF001
        except Exception:  # noqa: BLE001
            return None


def same_value(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    """Return True when ``a`` equals ``b`` elementwise once cast to ``b``'s dtype."""
    if a is None or b is None or a.shape != b.shape:
        return False
    try:
        return bool(np.array_equal(a.astype(b.dtype, copy=False), b))
    except (TypeError, ValueError):
        return False
