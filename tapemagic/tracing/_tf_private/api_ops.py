"""TensorFlow's op definitions and API decorators, for the static checker's op catalog.

Read only by :mod:`tapemagic.tracing.api_catalog` when the catalog is regenerated (and by its
test): ``op_def_registry`` (tensorflow/python/framework/op_def_registry.py) holds every
registered op's definition, ``tf_decorator.unwrap`` (tensorflow/python/util/tf_decorator.py)
finds the function a public API name decorates.
"""

from __future__ import annotations

from typing import Any

from tensorflow.python.framework import dtypes, op_def_registry
from tensorflow.python.util import tf_decorator

#: Integer and boolean dtypes: no gradient crosses a tensor of one (backprop_util.IsTrainable).
_INTEGERS = frozenset({dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                       dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.bool})


def unwrap(obj: Any) -> Any:
    """Return the function a public API object decorates (itself when it decorates none)."""
    return tf_decorator.unwrap(obj)[1]


def first_output_integer(op_type: str) -> bool:
    """Whether the first output of ``op_type`` is always integer or boolean.

    A fixed output type, or a type attribute whose allowed values are all integer types
    (``ArgMax``'s ``output_type``).
    """
    found = op_def_registry.get(op_type)
    if found is None or not found.output_arg:
        return False
    first = found.output_arg[0]
    if first.type:
        return dtypes.as_dtype(first.type) in _INTEGERS
    attrs = {a.name: a for a in found.attr}
    allowed = list(attrs[first.type_attr].allowed_values.list.type) if first.type_attr in \
        attrs else []
    return bool(allowed) and all(dtypes.as_dtype(t) in _INTEGERS for t in allowed)
