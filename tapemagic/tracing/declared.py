"""Where an integer dtype Keras cast a value to was declared: an Input's or a layer's ``dtype``.

Imports no TensorFlow (Keras 3's classes come from ``keras_state``). Keras casts a value to a
dtype the user declared elsewhere: a functional model converts each input to its
``keras.Input(..., dtype=...)`` (keras/src/models/functional.py
``_convert_inputs_to_tensors``: ``ops.convert_to_tensor(x, dtype=input_tensor.dtype)``), and a
layer converts a floating input to its own dtype (keras/src/layers/layer.py ``__call__``:
``dtype_policy.convert_input(x, self.autocast, self.input_dtype)``). A float value reaching
an integer declaration is cut there by a ``Cast`` the user did not write; the line to change
is the declaration (the ``keras.Input`` line, the layer made with ``dtype="int32"``), not the
model call or ``fit`` where the cast ran.

The fact is read from Keras' own objects while the cast runs: the innermost Keras operation
whose call is under way between the op and the user's frame. When it is a functional model
and one of its own declared inputs of the cast's dtype is a local of that frame, that input's
``InputLayer`` made it; when it is a layer whose ``input_dtype`` is the cast's dtype, that
layer did. Anything else (a ``keras.ops.cast`` the user wrote: its operation is innermost and
declares nothing) is None, and the cast keeps its own place.
"""

from __future__ import annotations

from types import FrameType
from typing import Any

from tapemagic.trace import RawLocation
from tapemagic.tracing import keras_state, layer_sites
from tapemagic.tracing._tf_private import keras_private
from tapemagic.tracing.values import dtype_info


def integer_declared(start: FrameType | None, user: FrameType | None,
                     output: Any) -> RawLocation | None:
    """Return the declaration of a Keras ``Cast``'s integer or boolean result dtype, or None."""
    name, trainable = dtype_info(getattr(output, "dtype", None))
    if trainable or name in ("resource", "variant", "string"):
        return None
    return declared_at(start, user, name)


def declared_at(start: FrameType | None, user: FrameType | None,
                dtype: str) -> RawLocation | None:
    """Return the user's line that declared ``dtype`` for the Keras cast at ``start``, or None."""
    operation_class = keras_state.keras_operation_class()
    if operation_class is None or user is None:
        return None
    frame = start
    while frame is not None and frame is not user:
        owner = frame.f_locals.get("self") if "self" in frame.f_code.co_varnames or (
            "self" in frame.f_code.co_freevars) else None
        if isinstance(owner, operation_class):
            return _declaration(frame, owner, dtype)
        frame = frame.f_back
    return None


def _declaration(frame: FrameType, owner: Any, dtype: str) -> RawLocation | None:
    """Return where ``owner`` (the innermost Keras operation called) declared ``dtype``."""
    try:
        inputs = getattr(owner, "inputs", None)  # a functional model's (keras/src/ops/function.py)
    except Exception:  # noqa: BLE001 - a subclassed model's property may raise
        inputs = None
    if isinstance(inputs, (list, tuple)):
        local = {id(value) for value in frame.f_locals.values()}
        for declared in inputs:
            if id(declared) in local and _dtype(declared) == dtype:
                layer = keras_private.history_operation(declared)
                # keras.Input makes its InputLayer, which applies itself (a Node) at that line
                return (layer_sites.made_of(layer) or layer_sites.site_of(layer)
                        if layer is not None else None)
        return None
    if _dtype(owner, "input_dtype") == dtype:
        return layer_sites.made_of(owner)
    return None


def _dtype(obj: Any, attribute: str = "dtype") -> str | None:
    try:
        value = getattr(obj, attribute, None)
    except Exception:  # noqa: BLE001 - a property of a half-built layer may raise
        return None
    return str(getattr(value, "name", value)) if value is not None else None
