"""Reading tensor values without running an op: saturation, host-value matching, call sites.

Imports TensorFlow objects only through the tensors it is handed (``_numpy()`` of an eager
tensor is a view on CPU and runs no op, so nothing here re-enters the op callback).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapemagic.trace import OPTIMIZER_WRITE, RawLocation
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import frames


def call_site(user: Any, loc: RawLocation | None) -> RawLocation | None:
    """Return where the user's code called the function ``user`` runs in (None at top level)."""
    if user.f_code.co_name == "<module>" or loc is None:
        return None
    caller, _ = frames.user_frame(user.f_back)
    return frames.location_of(caller) if caller is not None else None


def saturated(op_type: str, inputs: Any, outputs: Any) -> bool:
    """Return True when ``op_type``'s gradient to input 0 is zero at every element.

    A ``Softmax`` counts when every row of its output is one-hot to float precision (its
    largest probability is exactly 1.0): its gradient is then zero, or below round-off.
    """
    try:
        if op_type == "Softmax":  # one-hot to float precision on every row
            p = np.asarray(outputs[0]._numpy())  # noqa: SLF001
            return bool(p.size) and bool(np.all(np.max(p, axis=-1) == 1.0))
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


_CUSTOM_GRADIENT_FRAMES = ("_eager_mode_decorator", "_graph_mode_decorator")


def custom_gradient_of(start: Any) -> tuple[str, RawLocation] | None:
    """Return (function name, gradient function's definition) of a ``tf.custom_gradient``.

    The decorator's frame on the stack from ``start`` holds ``f`` and ``grad_fn`` as locals
    (tensorflow/python/ops/custom_gradient.py); None when there is no such frame.
    """
    frame = start
    for _ in range(16):
        if frame is None:
            return None
        if frame.f_code.co_name in _CUSTOM_GRADIENT_FRAMES:
            f, grad_fn = frame.f_locals.get("f"), frame.f_locals.get("grad_fn")
            code = getattr(grad_fn, "__code__", None)
            if code is None:
                return None
            return (str(getattr(f, "__name__", "?")),
                    RawLocation(code.co_filename, code.co_firstlineno, None, None, None,
                                code.co_name))
        frame = frame.f_back
    return None


def write_label() -> str:
    """Return the ``Trace.state_writes`` label of a variable write made now.

    ``OPTIMIZER_WRITE`` inside a Keras optimizer's name scope (``apply_gradients``, ``fit``'s
    update): Keras 3 optimizers open ``backend.name_scope(self.name, caller=self)`` around their
    updates (keras/src/optimizers/base_optimizer.py), and a user's subclass keeps Keras' module
    in its MRO. Else ``""``.
    """
    inside = any(cls.__module__.startswith("keras.src.optimizers")
                 for entry in tfp.keras_name_scopes()
                 for cls in type(getattr(entry, "caller", None)).__mro__)
    return OPTIMIZER_WRITE if inside else ""
