"""Every private TensorFlow API tapemagic touches, in one place (the quarantine).

Keras 3's private state is read in ``keras_state`` (it needs no TensorFlow import).

Imports TensorFlow. Each name below is verified at import time; :func:`self_test` checks that
the hooks built on them still behave on tiny tensors. If a TensorFlow release moves one of
them, this module is the only one to change, and the error names the supported range.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf
from tensorflow.python import pywrap_tfe
from tensorflow.python.eager import backprop, backprop_util, context, record
from tensorflow.python.eager.polymorphic_function import (
    atomic_function,
    eager_function_run,
    polymorphic_function,
)
from tensorflow.python.framework import dtypes, func_graph, op_callbacks, ops
from tensorflow.python.framework import tensor as tensor_lib
from tensorflow.python.ops import resource_variable_ops, script_ops

from tapemagic.tracing._tf_private import stacks

#: The TensorFlow releases tapemagic is tested with (inclusive lower, exclusive upper bound).
SUPPORTED = ((2, 16), (2, 22))

GradientTape = backprop.GradientTape
EagerTensorBase = ops._EagerTensorBase  # dunders patched for host round-trips
#: The concrete class of eager tensors. Its ``_id`` comes from one process-wide counter
#: (``get_uid()`` in pywrap_tensor.cc, shared with graph tensors' ``ops.uid()``) and is never
#: reused, unlike ``id()``: the gradient tape keys tensors by it (``FastTensorId``).
EagerTensor = ops.EagerTensor
TensorBase = tensor_lib.Tensor  # __iter__ lives here
BaseResourceVariable = resource_variable_ops.BaseResourceVariable
ResourceVariable = resource_variable_ops.ResourceVariable  # overrides assign*
VariableWatcher = record.VariableWatcher
Function = polymorphic_function.Function
run_functions_eagerly_module = eager_function_run  # tf.config.run_functions_eagerly lives here
add_op_callback = op_callbacks.add_op_callback
remove_op_callback = op_callbacks.remove_op_callback
script_ops_module = script_ops
UnconnectedGradients = tf.UnconnectedGradients
executing_eagerly = context.executing_eagerly


def numpy_of(tensor: Any) -> Any:
    """Return an eager tensor's value as an ndarray, running no op (``_numpy()``).

    ``_EagerTensorBase._numpy`` (tensorflow/python/framework/ops.py): on CPU a view of the
    tensor's buffer, the same copy NumPy's buffer read makes; not the ``.numpy()`` that
    tapemagic's host round-trip hook wraps.
    """
    return tensor._numpy()


def trainable_read_patch(on_read: Any) -> tuple[type, str, property]:
    """Return the patch that calls ``on_read(variable)`` when ``_trainable`` is read.

    TensorFlow's C fast path reads ``BaseResourceVariable._trainable`` before it reads a
    variable with no op callback (pywrap_tfe_src.cc ``ReadVariableOp``); the value itself
    stays in the instance dict. The result is ``(class, attribute, replacement)``.
    """

    def getter(variable: Any) -> Any:
        on_read(variable)
        return variable.__dict__["_trainable"]

    def setter(variable: Any, value: Any) -> None:
        variable.__dict__["_trainable"] = value

    return BaseResourceVariable, "_trainable", property(getter, setter)


def tape_flags(tape: Any) -> tuple[bool, bool]:
    """Return a GradientTape's ``(persistent, watch_accessed_variables)`` (backprop.py)."""
    return (bool(getattr(tape, "_persistent", False)),
            bool(getattr(tape, "_watch_accessed_variables", True)))


def thread_op_callbacks() -> list[Any]:
    """Return the calling thread's op-callback list itself (``context.op_callbacks``).

    The list lives in ``context.context()._thread_local_data`` (tensorflow/python/eager/
    context.py, ``add_op_callback`` appends to it): with it empty, an eager op takes the C
    fast path (``TFE_Py_FastPathExecute``) and calls no Python.
    """
    return context.context().op_callbacks


#: The graph a ``tf.function`` body is traced into (``graph`` argument of trace-time callbacks).
FuncGraph = func_graph.FuncGraph
#: One traced function as the runtime calls it; ``call_flat`` runs it (eagerly or as a call op
#: in an outer graph): tensorflow/python/eager/polymorphic_function/atomic_function.py.
AtomicFunction = atomic_function.AtomicFunction
#: Graph tensors (no value): what a tf.function body holds while it is traced.
SymbolicTensor = ops.SymbolicTensor
get_default_graph = ops.get_default_graph
#: Autograph writes converted functions to files with this in their name.
AUTOGRAPH_FILE_MARK = "__autograph_generated_file"


def is_traced_graph(graph: Any) -> bool:
    """Return True for the graph of a ``tf.function`` or Keras train function being traced.

    tf.data functions (``Dataset.map`` and the like) also trace into FuncGraphs, named
    ``Dataset_*`` (tensorflow/python/data/ops/structured_function.py); they never hold a
    gradient tape, so they are left out.
    """
    return isinstance(graph, FuncGraph) and not str(graph.name).startswith("Dataset_")


def runtime_started() -> bool:
    """Return True once TensorFlow's eager runtime is initialised (the first op or tensor).

    ``context.Context._initialized`` (tensorflow/python/eager/context.py): before it, thread
    pools and devices may still be configured (``tf.config.threading``, visible devices).
    """
    return bool(getattr(context.context(), "_initialized", True))


def graph_captures(graph: Any) -> list[tuple[Any, Any]]:
    """Return ``(external, internal)`` pairs a FuncGraph captured by value so far.

    ``FuncGraph.captures`` (tensorflow/python/framework/func_graph.py): the internal tensor is
    the placeholder inside the graph, the external one the eager tensor, variable handle or
    outer-graph tensor it stands for.
    """
    try:
        return list(graph.captures)
    except Exception:  # noqa: BLE001 - a graph being torn down has nothing to say
        return []


def cached_function_graph(function: Any) -> Any:
    """Return the FuncGraph an AtomicFunction was traced from, or None.

    Only the cached graph: ``AtomicFunction.graph`` would otherwise rebuild one from the
    FunctionDef, creating ops (and op callback events) nobody asked for.
    """
    return getattr(function, "_cached_graph", None)


_CALL_FLAT_CODE = AtomicFunction.call_flat.__code__


def calling_function(frame: Any) -> Any:
    """Return the AtomicFunction whose ``call_flat`` is running below ``frame``, or None.

    An eager call of a traced function reaches op callbacks as one op named after the
    function (``__inference_f_15``); the function object (and its FuncGraph) is ``self`` of
    the ``call_flat`` frame a few frames up (atomic_function.py ``call_flat`` ->
    ``context.call_function`` -> ``execute``).
    """
    for _ in range(12):
        if frame is None or frame.f_code is _CALL_FLAT_CODE:
            return None if frame is None else frame.f_locals.get("self")
        frame = frame.f_back
    return None


_CAPTURE_AS_CONST_CODE = getattr(getattr(EagerTensorBase, "_capture_as_const", None),
                                 "__code__", None)


def const_capture_source(frame: Any) -> Any:
    """Return the eager tensor a ``Const`` being created in a FuncGraph stands for, or None.

    A tf.function captures a small eager tensor (at most 128 elements) by value, as a ``Const``
    op in its graph (tensorflow/core/function/capture/capture_container.py,
    ``_EAGER_CONST_THRESHOLD``), made by ``EagerTensor._capture_as_const`` (ops.py): that frame,
    a few frames above the op callback, has the eager tensor as ``self``. Without this link a
    kernel computed once in ``build()`` (outside every tape) looks like a constant.
    """
    if _CAPTURE_AS_CONST_CODE is None:
        return None
    for _ in range(6):
        if frame is None or frame.f_code is _CAPTURE_AS_CONST_CODE:
            return None if frame is None else frame.f_locals.get("self")
        frame = frame.f_back
    return None


def nested_function(op: Any, attr: str = "f") -> Any:
    """Return the AtomicFunction a ``(Stateful)PartitionedCall`` op in a FuncGraph calls.

    Its ``f`` attr (``then_branch``/``else_branch`` for ``If``) names the function; the
    calling graph (or one it is nested in) holds it in its function library
    (``ops.Graph._get_function``).
    """
    try:
        name = op.get_attr(attr).name
    except Exception:  # noqa: BLE001 - not a function call op
        return None
    graph = op.graph
    while graph is not None:
        found = graph._get_function(name)
        if found is not None:
            return found
        graph = getattr(graph, "outer_graph", None)
    return None


def is_static_zero(tensor: Any) -> bool:
    """Return True when a symbolic tensor is all zeros by construction (known at trace time).

    ``tape.gradient`` in a traced function returns ``zeros_like`` for an unconnected source in
    ``UnconnectedGradients.ZERO`` mode (a Const once folded, else a ZerosLike op), and
    ``_SignGrad`` a ZerosLike; ``tf.get_static_value`` folds what it can.
    """
    try:
        if tensor.op.type == "ZerosLike":
            return True
        value = tf.get_static_value(tensor)
    except Exception:  # noqa: BLE001 - a value that cannot be folded is not known to be zero
        return False
    return value is not None and not bool(np.any(value))



# tf_stack and autograph (stacks.py)
autograph_origin = stacks.autograph_origin
keep_origins = stacks.keep_origins
converted_origin = stacks.converted_origin
hide_from_op_tracebacks = stacks.hide_from_op_tracebacks
hide_from_filtered_tracebacks = stacks.hide_from_filtered_tracebacks
excluded_traceback_paths = stacks.excluded_traceback_paths

#: True when no tape (nor a variable watcher) records on this thread: the C call behind
#: ``could_possibly_record``, without its Python frame (asked once per op)
tape_set_is_empty = pywrap_tfe.TFE_Py_TapeSetIsEmpty
#: a context in which no tape of the thread records (the check's own reads of the weights)
stop_recording = record.stop_recording




def tf_version() -> str:
    """Return ``tf.__version__``."""
    return str(tf.__version__)




def check_version() -> str | None:
    """Return a one-line complaint if this TensorFlow is outside :data:`SUPPORTED`, else None."""
    try:
        major, minor = (int(p) for p in tf.__version__.split(".")[:2])
    except ValueError:
        return None
    lo, hi = SUPPORTED
    if not lo <= (major, minor) < hi:
        return (f"tapemagic is tested with TensorFlow {lo[0]}.{lo[1]} to {hi[0]}.{hi[1] - 1}; "
                f"this is {tf.__version__}, so the analysis may be incomplete")
    return None


def registry_entry(op_type: str) -> str:
    """Look ``op_type`` up in TensorFlow's gradient registry (ops.py ``_gradient_registry``).

    Returns ``"fn"`` (a gradient function is registered), ``"none"`` (registered with
    ``tf.no_gradient`` / ``ops.NotDifferentiable``) or ``"missing"`` (``LookupError``).
    """
    try:
        fn = ops._gradient_registry.lookup(op_type)
    except LookupError:
        return "missing"
    return "none" if fn is None else "fn"


#: The registry's lookup, and the stand-in op eager backprop hands a gradient function
#: (eager/backprop.py ``_gradient_function``): tracing/witness.py asks them the same way
gradient_lookup = ops._gradient_registry.lookup  # noqa: SLF001
MockOp = backprop._MockOp  # noqa: SLF001


def gradient_module(op_type: str) -> str:
    """Return the module defining ``op_type``'s registered gradient function ("" if none)."""
    try:
        fn = ops._gradient_registry.lookup(op_type)
    except LookupError:
        return ""
    return str(getattr(fn, "__module__", "") or "")


def is_trainable_dtype(dtype: Any) -> bool:
    """Return True when gradients can flow through ``dtype`` (``backprop_util.IsTrainable``)."""
    return bool(backprop_util.IsTrainable(dtype))


as_dtype = dtypes.as_dtype


def dtype_name(dtype: Any) -> str:
    """Return the short name of a TensorFlow dtype (``float32``, ``int64``, ``resource``)."""
    try:
        return str(dtypes.as_dtype(dtype).name)
    except TypeError:
        return str(dtype)


def shape_tuple(tensor: Any) -> tuple[int | None, ...] | None:
    """Return a tensor's static shape as a tuple (None when it has no known rank).

    Eager tensors answer from C (``_EagerTensorBase._shape_tuple``), several times faster than
    building a ``TensorShape``; symbolic and other tensors go through ``shape.as_list()``.
    """
    try:
        found = tensor._shape_tuple()
        return found if type(found) is tuple else tuple(found)
    except Exception:  # noqa: BLE001 - not an eager tensor (or unknown rank): the public way
        try:
            return tuple(tensor.shape.as_list())
        except (AttributeError, ValueError, TypeError):
            return None


_PUBLIC_NAMESPACES = ("", "math", "nn", "sets", "linalg", "random", "image", "signal", "strings",
                      "sparse", "ragged", "bitwise", "dtypes", "debugging")
_public_names: dict[tuple[str, str], str] = {}


def public_api_names() -> dict[tuple[str, str], str]:
    """Map (defining module, function name) to the shortest public ``tf.*`` name.

    Built once from the ``tf`` namespaces (decorators unwrapped with ``tf_decorator.unwrap``).
    """
    if _public_names:
        return _public_names
    from tensorflow.python.util import tf_decorator

    for namespace in _PUBLIC_NAMESPACES:
        module = tf
        for part in filter(None, namespace.split(".")):
            module = getattr(module, part, None)
        if module is None:
            continue
        prefix = f"tf.{namespace}." if namespace else "tf."
        for name in dir(module):
            if name.startswith("_"):
                continue
            try:
                target = tf_decorator.unwrap(getattr(module, name))[1]
            except Exception:  # noqa: BLE001 - lazy module attributes may fail to load
                continue
            key = (getattr(target, "__module__", None), getattr(target, "__name__", None))
            if None in key or not callable(target):
                continue
            label = prefix + name
            current = _public_names.get(key)  # type: ignore[arg-type]
            if current is None or len(label) < len(current):
                _public_names[key] = label  # type: ignore[index]
    return _public_names


def held_deprecation_warnings() -> Any:
    """Snapshot TensorFlow's "warned once" table; return the function that restores it.

    ``tensorflow/python/util/deprecation.py`` logs a deprecated API's warning on its first call
    and marks it in ``_PRINTED_WARNING``; a call tapemagic makes must not use up that warning.
    """
    from tensorflow.python.util import deprecation

    table = getattr(deprecation, "_PRINTED_WARNING", None)
    if not isinstance(table, dict):
        return lambda: None
    saved = dict(table)

    def restore() -> None:
        table.clear()
        table.update(saved)

    return restore



def host_variable(initial: Any) -> Any:
    """Return a plain resource variable of the check's own, made eagerly (``tf.init_scope``).

    Constructed as ``ResourceVariable`` itself (resource_variable_ops.py), not ``tf.Variable``:
    ``VariableMetaclass.__call__`` routes only ``tf.Variable(...)`` through the variable
    creator scopes, so a ``tf.function``'s "singleton variables on the first call" rule and a
    distribution strategy's mirrored creator never see it, and no Keras object tracks it.
    """
    return ResourceVariable(initial, trainable=False, name="tapemagic_probe")


def read_host_variable(variable: Any) -> np.ndarray | None:
    """Return a variable's value as an ndarray (one ReadVariableOp), or None if unreadable."""
    try:
        return np.asarray(variable.read_value()._numpy())
    except Exception:  # noqa: BLE001 - a variable gone with its device: no facts
        return None
