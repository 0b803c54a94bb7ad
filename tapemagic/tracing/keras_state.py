"""Keras 3's private state tapemagic reads: name scopes, its Variable class, its backend.

Imports neither TensorFlow nor Keras: each function reads a module Keras has already loaded
(``sys.modules``) and answers "none" when Keras is not loaded (a plain TensorFlow program, or
Keras 2 / tf_keras, which keep no such state).
"""

from __future__ import annotations

import sys
from typing import Any


def keras_backend_module() -> Any:
    """Return ``keras.src.backend`` when Keras 3 is loaded, else None.

    ``keras.ops.convert_to_numpy`` looks ``convert_to_numpy`` up on this module at call time.
    """
    return sys.modules.get("keras.src.backend")


def keras_version() -> str | None:
    """Return the Keras version if Keras is importable without side effects, else None."""
    keras = sys.modules.get("keras")
    return str(getattr(keras, "__version__", "")) or None if keras else None


def keras_variable_class() -> type | None:
    """Return Keras 3's ``Variable`` base class when Keras is already imported, else None."""
    if "keras" not in sys.modules:
        return None
    try:
        from keras.src.backend.common.variables import Variable
    except ImportError:  # Keras 2 (tf_keras) has no such class
        return None
    return Variable  # type: ignore[no-any-return]


#: the module that defines Keras 3's ``Layer`` (``keras.layers.Layer``)
LAYER_MODULE = "keras.src.layers.layer"


def keras_layer_class() -> type | None:
    """Return Keras 3's ``Layer`` class once its module ran (Keras itself may still be loading)."""
    layer = getattr(getattr(sys.modules.get("keras"), "layers", None), "Layer", None)
    if not isinstance(layer, type):
        layer = getattr(sys.modules.get(LAYER_MODULE), "Layer", None)
    return layer if isinstance(layer, type) else None


def keras_name_scopes() -> list[Any]:
    """Return Keras 3's name-scope stack (entries with ``.name``, ``.caller``), or ``[]``.

    ``Layer.__call__`` and the optimizers open ``backend.name_scope(self.name, caller=self)``
    (keras/src/backend/common/name_scope.py); the stack is thread-local global state.
    """
    mod = sys.modules.get("keras.src.backend.common.global_state")
    if mod is None:
        return []
    # asked once per op: the thread-local behind `get_global_attribute` is read directly
    tracker = getattr(mod, "GLOBAL_STATE_TRACKER", None)
    try:
        stack = (getattr(tracker, "name_scope_stack", None) if tracker is not None
                 else mod.get_global_attribute("name_scope_stack"))
    except Exception:  # noqa: BLE001 - never let naming break the user's cell
        return []
    return stack if isinstance(stack, list) else []


def keras_layer_path() -> str:
    """Return the Keras name-scope path of the op being run (``sequential/dense``), or ``""``."""
    mod = sys.modules.get("keras.src.backend.common.name_scope")
    if mod is None:
        return ""
    try:
        return str(mod.current_path())
    except Exception:  # noqa: BLE001 - never let naming break the user's cell
        return ""


def keras_call_codes() -> tuple[Any, ...]:
    """Return the code objects of Keras 3's ``Layer.__call__`` and ``Operation.__call__``.

    A frame running either holds the layer or operation called as ``self``
    (keras/src/layers/layer.py, keras/src/ops/operation.py); ``Layer.__call__`` is wrapped by
    ``traceback_utils.filter_traceback`` (``functools.wraps``). ``()`` when Keras 3 is not loaded.
    """
    codes = []
    for module, name in (("keras.src.layers.layer", "Layer"),
                         ("keras.src.ops.operation", "Operation")):
        method: Any = getattr(sys.modules.get(module), name, None)
        method = method.__dict__.get("__call__") if isinstance(method, type) else None
        while getattr(method, "__wrapped__", None) is not None:
            method = method.__wrapped__
        code = getattr(method, "__code__", None)
        if code is not None:
            codes.append(code)
    return tuple(codes)


def keras_construction_hooks() -> tuple[type, type] | None:
    """Return (the backend layer class, ``Node``), or None when Keras 3 is not loaded.

    Their ``__init__`` see a Keras layer made and applied: ``Layer.__init__`` calls
    ``BackendLayer.__init__(self)`` explicitly (the backend's own class, ``TFLayer``, whose
    ``__init__`` no Keras class inherits: patching it changes no signature Keras reads), and a
    call on symbolic tensors records a ``Node(operation, ...)`` (keras/src/ops/node.py).
    """
    backend = getattr(sys.modules.get("keras.src.layers.layer"), "BackendLayer", None)
    node = getattr(sys.modules.get("keras.src.ops.node"), "Node", None)
    if not isinstance(backend, type) or not isinstance(node, type):
        return None
    if "__init__" not in backend.__dict__ or "__init__" not in node.__dict__:
        return None
    return backend, node


def keras_operation_class() -> type | None:
    """Return Keras 3's ``Operation`` (the base of every layer and ``keras.ops`` op), or None."""
    operation = getattr(sys.modules.get("keras.src.ops.operation"), "Operation", None)
    return operation if isinstance(operation, type) else None
