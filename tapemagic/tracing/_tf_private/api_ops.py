"""TensorFlow's op definitions and API decorators, for the static checker's op catalog.

Read by :mod:`tapemagic.tracing.api_catalog` when the catalog is regenerated (and by its
test), and by :mod:`tapemagic.tracing.cancel` (:func:`is_stateful`): ``op_def_registry``
(tensorflow/python/framework/op_def_registry.py) holds every registered op's definition,
``tf_decorator.unwrap`` (tensorflow/python/util/tf_decorator.py) finds the function a public
API name decorates.
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


def keras_symbolic_test() -> Any:
    """Return Keras' ``any_symbolic_tensors``, the test each Keras op dispatches on."""
    from keras.src.backend import any_symbolic_tensors

    return any_symbolic_tensors


def composite_tensor() -> type:
    """Return ``CompositeTensor`` (framework/composite_tensor.py).

    The base class of sparse, ragged and other non-dense tensors an API may dispatch on.
    """
    from tensorflow.python.framework import composite_tensor

    return composite_tensor.CompositeTensor


def is_stateful(op_type: str) -> bool:
    """Whether ``op_type`` is declared stateful (a random draw); True when it is unregistered."""
    found = op_def_registry.get(op_type)
    return found is None or found.is_stateful


def has_outputs(op_type: str) -> bool:
    """Whether ``op_type`` has an output at all (``Assert``, ``PrintV2`` have none)."""
    found = op_def_registry.get(op_type)
    return found is not None and bool(found.output_arg)


def first_output_integer(op_type: str) -> bool:
    """Whether the first output of ``op_type`` is always integer or boolean.

    A fixed output type, or a type attribute whose allowed values are all integer types
    (``ArgMax``'s ``output_type``).
    """
    return _integer_outputs(op_type)[:1] == [True]


def outputs_integer(op_type: str) -> bool:
    """Whether every output of ``op_type`` is always integer or boolean.

    ``CTCBeamSearchDecoder`` is not: its decoded paths are integers, its log-probabilities
    floats; ``SparseReduceSumSparse`` gives integer indices and the sums' dtype.
    """
    found = _integer_outputs(op_type)
    return bool(found) and all(found)


def integer_inputs(op_type: str) -> list[bool]:
    """Return, per input of ``op_type``, whether it is always integer, boolean or a string.

    No gradient reaches such an input (``Sum``'s ``reduction_indices``, ``ArgMax``'s
    ``dimension``); a resource or variant input may carry one, so it is not listed.
    """
    found = op_def_registry.get(op_type)
    return _integer_args(found.input_arg, found) if found is not None else []


def _integer_outputs(op_type: str) -> list[bool]:
    """Return, per output of ``op_type``, whether it is always integer or boolean."""
    found = op_def_registry.get(op_type)
    return _integer_args(found.output_arg, found, strings=False) if found is not None else []


def _integer_args(args: Any, definition: Any, strings: bool = True) -> list[bool]:
    """Return, per argument of an op definition, whether its type is always an integer one."""
    kinds = _INTEGERS | ({dtypes.string} if strings else set())
    attrs = {a.name: a for a in definition.attr}
    out = []
    for arg in args:
        if arg.type:
            out.append(dtypes.as_dtype(arg.type) in kinds)
            continue
        allowed = list(attrs[arg.type_attr].allowed_values.list.type) if \
            arg.type_attr in attrs else []
        out.append(bool(allowed) and all(dtypes.as_dtype(t) in kinds for t in allowed))
    return out
