"""Name what the run touched: variables by their Keras path or TF name, APIs by ``tf.*`` name.

Imports TensorFlow (through ``_tf_private``). Nothing here scans the Python heap: variables are
named from the objects the run handed the recorder (hooks, tapes, the owners found on the stack
when an op read or wrote a handle, the Keras layers and optimizers whose scopes ops ran in).
"""

from __future__ import annotations

import os
from types import FrameType
from typing import Any

from tapemagic import frames
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import keras_state
from tapemagic.tracing._tf_private.ids import handle_or_none
from tapemagic.tracing._tf_private.keras_private import inner_variable

#: where tapemagic's own modules live (their frames are skipped by find_owner)
_OWN_FILES = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def find_owner(handle: Any, seen: dict[int, Any], start: FrameType | None) -> None:
    """Add to ``seen`` the variables on the stack from ``start`` whose handle is ``handle``.

    A read or write op runs inside the variable's own methods: a frame's ``self`` is the
    ``tf.Variable``, and for Keras 3 an outer frame's ``self`` is the ``keras.Variable`` whose
    ``_value`` it is. Only library frames below the user's are looked at (at most 64), up to
    the first Keras variable.
    Reading ``f_locals`` of a running frame only copies its locals into a dict.
    """
    keras_cls = keras_state.keras_variable_class()
    frame = start
    for _ in range(64):
        if frame is None or not frames.is_library(frame):
            return
        code = frame.f_code
        # tapemagic's own frames (the op callback, a patched method: its original runs further
        # in) never hold the variable: their `f_locals` would only be copied for nothing
        if code.co_argcount and code.co_varnames[0] == "self" \
                and not code.co_filename.startswith(_OWN_FILES):
            owner = frame.f_locals.get("self")
            is_keras = keras_cls is not None and isinstance(owner, keras_cls)
            inner = inner_variable(owner) if is_keras else owner
            found = handle_or_none(inner)
            # A variable under construction has no handle attribute yet (its initial assign
            # runs first): keep it, by the end of the run its handle tells.
            if found is handle or (found is None and (
                    is_keras or isinstance(owner, tfp.BaseResourceVariable))):
                seen.setdefault(id(owner), owner)
                if is_keras:
                    # the outermost owner a handle can have: a frame further out adds only
                    # variables under construction, which their own VarHandleOp adds (the
                    # walk to the user's frame read ~20 frames' locals per weight built)
                    return
        frame = frame.f_back


def name_handles(handles: dict[int, Any], seen: dict[int, Any],
                  callers: dict[int, Any]) -> dict[int, str]:
    """Name each handle: Keras ``path`` when a Keras variable wraps it, else the TF name.

    Only variables the run touched are looked at: the ones hooks and tapes handed over
    (``seen``) and the variables of the Keras layers and optimizers whose scopes ops ran in.
    """
    by_handle = {id(h): serial for serial, h in handles.items()}
    names: dict[int, str] = {}
    keras_cls = keras_state.keras_variable_class()
    candidates = list(seen.values())
    for caller in callers.values():
        try:
            candidates.extend(caller.variables)
        except Exception:  # noqa: BLE001 - an unbuilt layer or a foreign object: no names
            continue
    for obj in candidates:
        is_keras = keras_cls is not None and isinstance(obj, keras_cls)
        inner = inner_variable(obj) if is_keras else obj
        handle = handle_or_none(inner)
        serial = by_handle.get(id(handle)) if handle is not None else None
        if serial is None:
            continue
        if is_keras:  # a Keras path beats the inner tf.Variable's name
            names[serial] = str(obj.path)
        else:
            names.setdefault(serial, str(obj.name).removesuffix(":0"))
    for serial in handles:
        names.setdefault(serial, f"variable#{serial}")
    return names


#: ``tf.Variable(value)`` runs ``VariableMetaclass.__call__`` (tensorflow/python/ops/variables.py)
#: and the class's ``__init__``: its ops (the initial value's assign) are the constructor's
_VARIABLE_CONSTRUCTORS = frozenset({
    ("tensorflow.python.ops.variables", "__call__"),
    ("tensorflow.python.ops.resource_variable_ops", "__init__"),
})


def api_label(key: tuple[str, str], module_globals: dict[str, Any]) -> str:
    """Name the API the user called: its public ``tf.*`` name when it has one."""
    module, function = key
    public = tfp.public_api_names().get(key)
    if public:
        return public
    if key in _VARIABLE_CONSTRUCTORS:  # the variable class's metaclass: a new variable
        return "tf.Variable"
    if function.startswith("__") and function.endswith("__"):
        return f"Tensor.{function}"
    short = module.rsplit(".", 1)[-1]
    return f"{short}.{function}"


def note_trainable(serial_by_handle_id: dict[int, int], seen: dict[int, Any],
                   callers: dict[int, Any], frozen: dict[int, bool]) -> None:
    """Record in ``frozen`` each known Keras variable's ``trainable`` flag, by handle serial.

    A frozen Keras 3 layer (``trainable=False``) leaves its inner ``tf.Variable`` trainable, so
    the tape still watches it; its Keras flag is what says it is meant to stay fixed. A
    variable frozen at any analysed call counts as frozen.
    """
    keras_cls = keras_state.keras_variable_class()
    if keras_cls is None:
        return
    objects: list[Any] = [*seen.values()]
    for caller in callers.values():
        try:
            objects.extend(caller.variables)
        except Exception:  # noqa: BLE001 - an unbuilt layer or a foreign object
            continue
    for obj in objects:
        if not isinstance(obj, keras_cls):
            continue
        handle = handle_or_none(inner_variable(obj))
        serial = serial_by_handle_id.get(id(handle)) if handle is not None else None
        if serial is not None:
            frozen[serial] = frozen.get(serial, True) and bool(getattr(obj, "trainable", True))
