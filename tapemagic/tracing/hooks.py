"""Host round-trip hooks: every way a tensor's value leaves TensorFlow for Python or NumPy.

Imports TensorFlow. :class:`HostHooks` patches, for one run, the ``_EagerTensorBase`` dunders
(``numpy``, ``__float__``, ``__int__``, ``__index__``, ``__complex__``, ``__bool__``), injects
NumPy's ``__array_ufunc__``/``__array_function__`` protocol on eager tensors (NumPy reads tensors
through the buffer protocol, so ``__array__`` is never called), wraps ``tf.numpy_function``'s
eager path, and watches the ``_trainable`` attribute that TensorFlow's C fast path reads before
an implicit variable read. Every patch returns what the original returns, and :meth:`remove`
restores each class dict exactly.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from tapemagic import frames
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import foreign, keras_state, py_bodies
from tapemagic.tracing.operators import OPERATORS, is_operator_call
from tapemagic.tracing.recorder import Recorder

_MISSING = object()
#: the function a tf.function runs once to give the variables made by its first trace their
#: initial values (polymorphic_function.py, _initialize_uninitialized_variables): no update
_INITIALISER = ("tensorflow.python.eager.polymorphic_function.polymorphic_function",
                "initialize_variables")


def _initialiser(frame: Any) -> bool:
    return (frame.f_code.co_name == _INITIALISER[1]
            and frame.f_globals.get("__name__") == _INITIALISER[0])
# Library functions that hand the user a host value: their internal `.numpy()` calls count.
HOST_APIS: dict[tuple[str, str], str] = {
    ("keras.src.legacy.backend", "eval"): "tf.keras.backend.eval",
    ("keras.src.legacy.backend", "get_value"): "tf.keras.backend.get_value",
    ("keras.src.legacy.backend", "batch_get_value"): "tf.keras.backend.batch_get_value",
    ("keras.src.ops.core", "convert_to_numpy"): "keras.ops.convert_to_numpy",
    ("keras.src.backend.tensorflow.trainer", "predict"): "Model.predict",
    ("keras.src.backend.tensorflow.trainer", "predict_on_batch"): "Model.predict_on_batch",
    ("keras.src.layers.layer", "get_weights"): "Layer.get_weights",
    ("keras.src.models.model", "get_weights"): "Model.get_weights",
    ("keras.src.backend.common.variables", "numpy"): "Variable.numpy()",
    ("keras.src.backend.tensorflow.core", "numpy"): "Variable.numpy()",
    ("keras.src.backend.common.variables", "__array__"): "np.asarray()",
}
class HostHooks:
    """Install and remove the host round-trip patches for one :class:`Recorder`."""

    def __init__(self, recorder: Recorder) -> None:
        self.rec = recorder
        self._saved: list[tuple[type, str, Any]] = []
        self._saved_module: list[tuple[Any, str, Any]] = []
        self._array_ufunc, self._array_function = _make_numpy_protocol(self)

    # -- install / remove --------------------------------------------------------------------
    def install(self) -> None:
        """Patch the tensor classes; idempotent per instance."""
        base = tfp.EagerTensorBase
        self._patch(base, "numpy", self._wrap_conversion(base.numpy, "numpy", ".numpy()"))
        for name, api in (("__float__", "float()"), ("__int__", "int()"),
                          ("__index__", "__index__"), ("__complex__", "complex()")):
            self._patch(base, name, self._wrap_conversion(getattr(base, name), "scalar", api))
        self._patch(base, "__bool__", self._wrap_bool(base.__bool__))
        variable = tfp.BaseResourceVariable
        for name, kind, api in (("numpy", "numpy", ".numpy()"), ("__float__", "scalar", "float()"),
                                ("__int__", "scalar", "int()"), ("__complex__", "scalar",
                                                                 "complex()"),
                                ("__array__", "numpy", "np.asarray()"),
                                ("__bool__", "bool", "if")):
            original = variable.__dict__.get(name)
            if original is not None:  # a variable converted directly: its handle is the source
                self._patch(variable, name, self._wrap_conversion(original, kind, api))
        self._patch(base, "__array_ufunc__", self._array_ufunc)
        self._patch(base, "__array_function__", self._array_function)
        self._patch(*tfp.trainable_read_patch(self._on_trainable_read))
        for cls in (variable, tfp.ResourceVariable):
            for name in ("assign", "assign_add", "assign_sub"):
                # cheap, and on while the op callback is detached: which variables a run
                # updates (a target network's moving average is an update, not a weight left
                # untrained)
                if name in cls.__dict__:
                    self._patch(cls, name, self._wrap_write(cls.__dict__[name]))
        for cls, name, value in py_bodies.patches(self.rec):
            self._patch(cls, name, value)
        module = tfp.script_ops_module
        self._saved_module.append((module, "py_func_common", module.py_func_common))
        module.py_func_common = self._wrap_py_func(module.py_func_common)
        keras_backend = keras_state.keras_backend_module()
        convert = getattr(keras_backend, "convert_to_numpy", None)
        if convert is not None:
            # np.array(tensor) inside it reads the buffer protocol: no hook of ours sees it
            self._saved_module.append((keras_backend, "convert_to_numpy", convert))
            keras_backend.convert_to_numpy = self._wrap_function_conversion(
                convert, "keras.ops.convert_to_numpy")

    def remove(self) -> None:
        """Restore every patched attribute (deleting the ones that did not exist)."""
        for cls, name, old in reversed(self._saved):
            if old is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, old)
        for module, name, old in reversed(self._saved_module):
            setattr(module, name, old)
        self._saved.clear()
        self._saved_module.clear()

    def _patch(self, cls: type, name: str, value: Any) -> None:
        self._saved.append((cls, name, cls.__dict__.get(name, _MISSING)))
        setattr(cls, name, value)

    # -- attribution -------------------------------------------------------------------------
    def caller(self, depth: int = 2, body: bool = False) -> tuple[Any, str | None] | None:
        """Return (user location, host API label) for a conversion the user asked for, else None.

        A conversion counts when user code made it directly, or through a library function on
        the ``HOST_APIS`` list; TensorFlow's own `.numpy()` calls (shapes in gradient code)
        do not. ``body``: made in a traced py_function's body, on TensorFlow's thread.
        """
        if not body and (not self.rec.recording() or self.rec.gradient_depth):
            return None  # our own work, another thread, or detached: nothing to record
        start = sys._getframe(depth)
        if not frames.is_library(start):
            return frames.location_of(start), None
        api = None
        frame: Any = start
        while frame is not None and frames.is_library(frame):
            label = HOST_APIS.get((frames.frame_module(frame), frame.f_code.co_name))
            if label is not None:
                api = label
            frame = frame.f_back
        if api is None or frame is None:
            return None
        return frames.location_of(frame), api

    def in_body(self, kind: str, api: str, values: tuple[Any, ...]) -> None:
        """Note a conversion of ``values`` made in a traced py_function's body (its thread)."""
        run = py_bodies.current()
        if run is not None and run.body is not None:
            where = self.caller(3, body=True)
            if where is not None:
                py_bodies.note_conversion(self.rec, run, kind, where[1] or api, where[0],
                                          values)

    # -- wrappers -------------------------------------------------------------------------------
    def _wrap_conversion(self, original: Any, kind: str, api: str) -> Any:
        hooks = self

        def conversion(tensor: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            result = original(tensor, *args, **kwargs)
            where = hooks.caller()
            if where is None:
                hooks.in_body(kind, api, (tensor,))
                return result
            rec = hooks.rec
            with rec.quiet():
                handle = getattr(tensor, "handle", None) if isinstance(
                    tensor, tfp.BaseResourceVariable) else None
                source = rec.handle_serial(handle) if handle is not None else rec.ids.hold(tensor)
                rec.variables_seen.setdefault(id(tensor), tensor) if handle is not None else None
                value = None if kind == "bool" else result
                rec.add_host_event(kind, where[1] or api, (source,), (), where[0], value)
            return result

        conversion.__name__ = getattr(original, "__name__", api)
        conversion.__doc__ = getattr(original, "__doc__", None)
        return conversion

    def _wrap_write(self, original: Any) -> Any:
        rec = self.rec

        def write(variable: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            if rec.mine() and not rec.busy and not _initialiser(sys._getframe(1)):
                with rec.quiet():
                    rec.trace.variable_writes[rec.handle_serial(variable.handle)] = \
                        rec.next_seq()
            return original(variable, *args, **kwargs)

        write.__name__ = original.__name__
        write.__doc__ = original.__doc__
        return write

    def _wrap_function_conversion(self, original: Any, api: str) -> Any:
        """Wrap a library function ``f(tensor) -> ndarray`` as a host round-trip of ``api``."""
        hooks = self

        def conversion(value: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            result = original(value, *args, **kwargs)
            where = hooks.caller()
            if where is None or not isinstance(value, tfp.EagerTensorBase):
                if isinstance(value, tfp.EagerTensorBase):
                    hooks.in_body("numpy", api, (value,))
                return result
            rec = hooks.rec
            with rec.quiet():
                rec.add_host_event("numpy", where[1] or api, (rec.ids.hold(value),), (), where[0],
                                   result)
            return result

        conversion.__name__ = getattr(original, "__name__", api)
        conversion.__doc__ = getattr(original, "__doc__", None)
        return conversion

    def _wrap_bool(self, original: Any) -> Any:
        hooks = self

        def __bool__(tensor: Any) -> bool:
            __tracebackhide__ = True
            result = bool(original(tensor))
            where = hooks.caller()
            if where is not None:
                rec = hooks.rec
                with rec.quiet():
                    rec.add_host_event("bool", "if", (rec.ids.hold(tensor),), (), where[0])
            return result

        return __bool__

    def _on_trainable_read(self, variable: Any) -> None:
        rec = self.rec
        if rec.recording():
            rec.pending_reads.append(variable)
            rec.variables_seen.setdefault(id(variable), variable)
        elif rec.foreign_threads:
            foreign.note_read(rec, variable)  # a thread the user's code started (foreign.py)

    def _wrap_py_func(self, original: Any) -> Any:
        hooks = self

        def py_func_common(func: Any, inp: Any, Tout: Any, stateful: Any = True,  # noqa: N803
                           name: Any = None) -> Any:
            __tracebackhide__ = True
            result = original(func, inp, Tout, stateful=stateful, name=name)
            rec = hooks.rec
            if not rec.recording() or not tfp.executing_eagerly():
                return result
            start = sys._getframe(1)
            user, _ = frames.user_frame(start)
            with rec.quiet():
                sources = tuple(rec.ids.hold(t) for t in _flat(inp) if hasattr(t, "dtype"))
                loc = frames.location_of(user) if user is not None else None
                event = rec.add_host_event("numpy_function", "tf.numpy_function", sources, (),
                                           loc)
                for out in _flat(result):
                    if out is not None:
                        rec.link_leaf(out, event)
            return result

        return py_func_common


def _flat(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _flat(v)]
    return [value]


def _make_numpy_protocol(hooks: HostHooks) -> tuple[Any, Any]:
    rec = hooks.rec
    tensor_type = tfp.EagerTensorBase

    def to_numpy(value: Any, sources: list[int] | None) -> Any:
        if isinstance(value, tensor_type):
            if sources is not None:
                sources.append(rec.ids.hold(value))
            return tfp.numpy_of(value)  # the same copy NumPy's buffer read makes
        if type(value) in (list, tuple):
            return type(value)(to_numpy(v, sources) for v in value)
        return value

    def _collect(value: Any, sources: list[int]) -> None:
        if isinstance(value, tensor_type):
            sources.append(rec.ids.hold(value))
        elif type(value) in (list, tuple):
            for item in value:
                _collect(item, sources)

    def record(api: str, sources: list[int], parents: tuple[int, ...], result: Any,
               where: Any) -> Any:
        with rec.quiet():
            rec.add_host_event("ufunc", api, tuple(sources), parents, where[0], result)
        return result

    def __array_ufunc__(tensor: Any, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        if method == "__call__":
            deferred = _as_operator(tensor_type, ufunc, inputs, kwargs, sys._getframe(1))
            if deferred is not _MISSING:
                return deferred
        sources: list[int] = []
        name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
        if not rec.recording():  # another thread, or detached: convert as NumPy would
            args = [to_numpy(x, None) for x in inputs]
            if "out" in kwargs:
                kwargs["out"] = tuple(to_numpy(x, None) for x in kwargs["out"])
            result = getattr(ufunc, method)(*args, **kwargs)
            hooks.in_body("ufunc", f"np.{name}", inputs)  # a py_function body, graph mode
            return result
        with rec.quiet():
            args = [to_numpy(x, sources) for x in inputs]
            if "out" in kwargs:
                kwargs["out"] = tuple(to_numpy(x, sources) for x in kwargs["out"])
        result = getattr(ufunc, method)(*args, **kwargs)
        where = hooks.caller()
        if where is None:
            hooks.in_body("ufunc", f"np.{name}", inputs)
            return result
        return record(f"np.{name}", sources, (), result, where)

    def __array_function__(tensor: Any, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        __tracebackhide__ = True
        sources: list[int] = []
        if rec.recording():  # not for another thread, nor once detached
            with rec.quiet():
                for value in (*args, *kwargs.values()):
                    _collect(value, sources)
        implementation = getattr(func, "_implementation", None)
        if implementation is not None:
            # exactly what NumPy does without the hook (np.shape(t) is t's TensorShape, ...)
            result = implementation(*args, **kwargs)
        else:
            result = func(*[to_numpy(a, None) for a in args],
                          **{k: to_numpy(v, None) for k, v in kwargs.items()})
        where = hooks.caller()
        if where is None:
            hooks.in_body("ufunc", f"np.{func.__name__}", (*args, *kwargs.values()))
            return result
        return record(f"np.{func.__name__}", sources, (), result, where)

    return __array_ufunc__, __array_function__


def _as_operator(tensor_type: type, ufunc: Any, inputs: tuple[Any, ...],
                 kwargs: dict[str, Any], caller: FrameType) -> Any:
    """Return ``ndarray <op> tensor`` as Python's operator protocol gives it, or ``_MISSING``.

    NumPy only got here because of the hook (``caller``'s instruction is that operator); the
    operator is applied again with the hook off, so Python's own protocol runs as without
    tapemagic (Tensor.__radd__'s result, or Python's TypeError naming the operator).
    ``_MISSING`` for a direct ufunc call.
    """
    __tracebackhide__ = True
    forms = OPERATORS.get(ufunc.__name__)
    if (forms is None or len(inputs) != 2 or not isinstance(inputs[1], tensor_type)
            or isinstance(inputs[0], tensor_type) or not is_operator_call(caller)):
        return _MISSING
    out = kwargs.get("out")
    inplace = (forms[1] is not None and isinstance(out, tuple) and len(out) == 1
               and out[0] is inputs[0])
    # an operator passes no keyword but `out` for its in-place form (dtype=, where= only come
    # from a real ufunc call)
    if len(kwargs) != (1 if inplace else 0):
        return _MISSING
    return _without_ufunc_hook(tensor_type, forms[1] if inplace else forms[0], inputs[0],
                               inputs[1])


def _without_ufunc_hook(cls: type, apply: Any, left: Any, right: Any) -> Any:
    """Return ``apply(left, right)`` run while ``cls`` has its own ``__array_ufunc__`` again."""
    __tracebackhide__ = True
    hook = cls.__dict__.get("__array_ufunc__", _MISSING)
    if hook is _MISSING:
        return apply(left, right)
    delattr(cls, "__array_ufunc__")  # tensors define none of their own (checked by the self-test)
    try:
        return apply(left, right)
    finally:
        setattr(cls, "__array_ufunc__", hook)  # noqa: B010 - the pair of the delattr above


__all__ = ["HostHooks"]
