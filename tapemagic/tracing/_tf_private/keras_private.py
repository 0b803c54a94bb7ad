"""Keras 3's private attributes and the one private method tapemagic wraps (the quarantine).

Imports TensorFlow (the package does); reads Keras only through the objects it is handed, and
``keras.src.backend`` once Keras has loaded it. Keras 3's name-scope state is read in
``tracing/keras_state`` (TensorFlow-free).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

#: ``keras.src.backend.common.variables.Variable._initialize_with_initializer``: where a
#: Keras variable calls its initialiser (``initializers.InitializerHooks``)
_INITIALISE = "_initialize_with_initializer"


def inner_variable(variable: Any, default: Any = None) -> Any:
    """Return the ``tf.Variable`` a Keras 3 ``Variable`` keeps (``_value``), else ``default``.

    keras/src/backend/tensorflow/core.py ``Variable._initialize``: ``self._value =
    tf.Variable(...)``.
    """
    return getattr(variable, "_value", default)


def components(variable: Any) -> tuple[Any, ...]:
    """Return the per-replica components of a distributed ``tf.Variable`` (``_values``), or ().

    tensorflow/python/distribute/values.py ``DistributedValues._values``.
    """
    return tuple(getattr(variable, "_values", ()))


def is_layer_like(obj: Any) -> bool:
    """Return True for a Keras layer or model: it tracks sublayers (``_flatten_layers``)."""
    return hasattr(obj, "_flatten_layers")


def initializer_patch(make: Callable[[Any], Any]) -> tuple[type, str, Any] | None:
    """Return the patch of Keras 3's ``Variable._initialize_with_initializer``, or None.

    ``make(original)`` builds the replacement (called as ``(variable, initializer)``). None
    when Keras 3 is not loaded. The result is ``(class, attribute, replacement)``: the class
    in the backend ``Variable``'s MRO that defines the method.
    """
    backend = getattr(sys.modules.get("keras.src.backend"), "Variable", None)
    cls = next((c for c in getattr(backend, "__mro__", ()) if _INITIALISE in c.__dict__), None)
    if cls is None:
        return None
    return cls, _INITIALISE, make(cls.__dict__[_INITIALISE])


def compiled_trainable(model: Any) -> dict[Any, bool]:
    """Return each layer's ``trainable`` flag when ``model.compile()`` last ran, or ``{}``.

    keras/src/trainers/trainer.py ``Trainer.compile``: ``self._compiled_trainable_state =
    {layer: layer.trainable for layer in self._flatten_layers()}`` (Keras 3.15; its only
    other writer, ``_warn_if_trainable_state_changed``, is never reached there). Keras 3
    reads ``trainable`` when it traces the train step, not when it compiles.
    """
    state = getattr(model, "_compiled_trainable_state", None)
    return dict(state) if isinstance(state, dict) else {}


def history_operation(tensor: Any) -> Any:
    """Return the Keras operation that made a symbolic ``KerasTensor`` (an ``InputLayer``).

    keras/src/backend/common/keras_tensor.py: ``KerasTensor._keras_history`` is
    ``(operation, node_index, tensor_index)`` (keras/src/ops/node.py ``KerasHistory``).
    """
    history = getattr(tensor, "_keras_history", None)
    return getattr(history, "operation", None)


#: ``keras.src.layers.layer.Layer._track_variable``: where a layer takes a new variable into
#: its tracking and, when the layer itself is frozen (``self.trainable`` False, as a saved
#: config restores it), sets ``variable.trainable = False`` (Keras 3.15)
_TRACK_VARIABLE = "_track_variable"


def track_variable_patch(make: Callable[[Any], Any]) -> tuple[type, str, Any] | None:
    """Return the patch of Keras 3's ``Layer._track_variable``, or None.

    ``make(original)`` builds the replacement (called as ``(layer, variable)``). None when
    Keras 3's ``Layer`` is not loaded. The result is ``(class, attribute, replacement)``.
    """
    layer = getattr(sys.modules.get("keras.src.layers.layer"), "Layer", None)
    cls = next((c for c in getattr(layer, "__mro__", ()) if _TRACK_VARIABLE in c.__dict__), None)
    if cls is None:
        return None
    return cls, _TRACK_VARIABLE, make(cls.__dict__[_TRACK_VARIABLE])


def flat_layers(model: Any) -> list[Any]:
    """Return every layer of ``model`` and ``model`` itself (``_flatten_layers``), or [].

    keras/src/layers/layer.py ``Layer._flatten_layers(include_self=True, recursive=True)``.
    """
    flatten = getattr(model, "_flatten_layers", None)
    try:
        return list(flatten()) if flatten is not None else []
    except Exception:  # noqa: BLE001 - an object that only looks like a layer
        return []
