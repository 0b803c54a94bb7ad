"""Reading tensors without running an op: host-value matching, dtypes, call sites.

Imports TensorFlow (through ``_tf_private``) and reads the tensors it is handed
(``_tf_private.numpy_of`` of an eager tensor is a view on CPU and runs no op, so nothing here
re-enters the op callback).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from tapemagic import frames
from tapemagic.trace import OPTIMIZER_WRITE, RawLocation
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import keras_state


def call_site(user: Any, loc: RawLocation | None) -> RawLocation | None:
    """Return where the user's code called the function ``user`` runs in (None at top level)."""
    if user.f_code.co_name == "<module>" or loc is None:
        return None
    caller, _ = frames.user_frame(user.f_back)
    return frames.location_of(caller) if caller is not None else None


#: a call site not looked up yet
_UNSET: Any = object()


class SiteMemo:
    """Where the op being recorded runs, remembered from one op to the next.

    Consecutive ops mostly run at one user instruction (the ops of a layer call, of a
    ``tape.gradient`` call): they share its location and call site, which are then looked up
    once. The memo holds no frame (that would keep a returned function's tensors alive): its
    key is the ids, code objects and instructions of the user's frame and of its caller, from
    which the location and the call site are read.
    """

    __slots__ = ("_key", "_loc", "_outer")

    def __init__(self) -> None:  # noqa: D107
        self._key: tuple[Any, ...] | None = None
        self._loc: RawLocation | None = None
        self._outer: Any = _UNSET

    def locate(self, start: Any) -> tuple[Any, Any, RawLocation | None]:
        """Return ``(user frame, API frame, location)`` of the op whose stack starts at ``start``.

        See :func:`frames.user_frame`; each is None when there is none.
        """
        user, api = frames.user_frame(start)
        if user is None:
            return None, api, None
        back = user.f_back
        key = (id(user), user.f_code, user.f_lasti, id(back),
               back.f_code if back is not None else None,
               back.f_lasti if back is not None else -1)
        last = self._key
        # code objects by identity: two with the same text compare equal whatever their file
        if (last is None or last[0] != key[0] or last[1] is not key[1] or last[2] != key[2]
                or last[3] != key[3] or last[4] is not key[4] or last[5] != key[5]):
            self._key, self._loc, self._outer = key, frames.location_of(user), _UNSET
        return user, api, self._loc

    def call_site(self, user: Any, loc: RawLocation | None) -> RawLocation | None:
        """Return :func:`call_site` of the frame :meth:`locate` returned last."""
        if self._outer is _UNSET:
            self._outer = call_site(user, loc)
        outer: RawLocation | None = self._outer
        return outer


class ScopeMemo:
    """The Keras name scope the op being recorded runs in, remembered while it stays on top.

    The ops of one layer call share its scope: its path (``sequential/dense``) and whether a
    variable write there is an optimizer's (:func:`write_label`) are read once per scope. The
    stack's top entry (held, so never another object at its address) and depth are the key:
    under that entry the stack cannot change. ``callers`` collects the Keras layers and
    optimizers whose scopes ops ran in (their variables name the handles at the end);
    ``stacks`` the callers' nesting under each path (``id()``s, outermost first): which layer
    ran inside which one's call, which a path alone does not say (Keras builds it from the
    parent path a layer had when it was built).
    """

    __slots__ = ("callers", "stacks", "_top", "_depth", "_path", "_label")

    def __init__(self) -> None:  # noqa: D107
        self.callers: dict[int, Any] = {}
        self.stacks: dict[str, set[tuple[int, ...]]] = {}
        self._top: Any = None
        self._depth = 0
        self._path = ""
        self._label: str | None = None

    def layer(self) -> str:
        """Return the Keras name-scope path of the op being recorded (``""`` outside Keras)."""
        stack = keras_state.keras_name_scopes()
        if not stack:
            return ""
        top = stack[-1]
        if top is self._top and len(stack) == self._depth:
            return self._path  # same layer call as the previous op
        nesting = []
        for entry in stack:
            caller = getattr(entry, "caller", None)
            if caller is not None:
                self.callers.setdefault(id(caller), caller)
                nesting.append(id(caller))
        self._top, self._depth = top, len(stack)
        self._path = keras_state.keras_layer_path()
        self.stacks.setdefault(self._path, set()).add(tuple(nesting))
        self._label = None  # asked at the scope's first variable write
        return self._path

    def write_label(self, layer: str) -> str:
        """Return :func:`write_label` for a write whose :meth:`layer` was ``layer``."""
        if not layer:
            return write_label()
        if self._label is None:
            self._label = write_label()
        return self._label

    def clear(self) -> None:
        """Drop what the memo holds (the end of a run)."""
        self.callers.clear()
        self.stacks.clear()
        self._top = self._label = None
        self._depth, self._path = 0, ""


_DTYPES: dict[int, tuple[Any, tuple[str, bool]]] = {}


def dtype_info(dtype: Any) -> tuple[str, bool]:
    """Return (name, trainable) of a dtype (``float32``, True), computed once per dtype object.

    Keyed by identity: TensorFlow interns its ``DType`` objects (``dtypes._INTERN_TABLE``), and
    hashing one runs Python code, once per tensor recorded.
    """
    cached = _DTYPES.get(id(dtype))
    if cached is not None and cached[0] is dtype:
        return cached[1]
    info = (tfp.dtype_name(dtype), bool(dtype is not None and tfp.is_trainable_dtype(dtype)))
    if len(_DTYPES) > 256:  # stand-ins that make a new dtype object each time
        _DTYPES.clear()
    _DTYPES[id(dtype)] = (dtype, info)  # holds the dtype: its id stays its own
    return info


#: DataType enum (``EagerTensor._datatype_enum()``) -> (name, trainable), filled as they come
_ENUMS: dict[int, tuple[str, bool]] = {}


def enum_info(enum: int) -> tuple[str, bool]:
    """Return :func:`dtype_info` of the dtype whose ``DataType`` enum is ``enum``.

    An eager tensor answers ``_datatype_enum()`` from C; its ``dtype`` property builds the
    ``DType`` in Python (``dtypes.as_dtype``), once per tensor recorded.
    """
    info = _ENUMS.get(enum)
    if info is None:
        info = _ENUMS[enum] = dtype_info(tfp.as_dtype(enum))
    return info


def host_value(tensor: Any) -> np.ndarray | None:
    """Return a tensor's (or a variable's) value as an ndarray, or None when it has none."""
    try:
        return np.asarray(tfp.numpy_of(tensor))  # no op is run, unlike tf.identity
    except Exception:  # noqa: BLE001 - symbolic, remote or unreadable tensors have no value
        try:
            return np.asarray(tfp.numpy_of(tensor.read_value()))
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
            return (str(getattr(f, "__name__", "?")), frames.definition_of(code))
        frame = frame.f_back
    return None


def write_label() -> str:
    """Return the ``Trace.state_writes`` label of a variable write made now.

    ``OPTIMIZER_WRITE`` inside a Keras optimizer's name scope (``apply_gradients``, ``fit``'s
    update): Keras 3 optimizers open ``backend.name_scope(self.name, caller=self)`` around their
    updates (keras/src/optimizers/base_optimizer.py), and a user's subclass keeps Keras' module
    in its MRO. Else ``""``.
    """
    inside = any(_is_optimizer(type(getattr(entry, "caller", None)))
                 for entry in keras_state.keras_name_scopes())
    return OPTIMIZER_WRITE if inside else ""


#: by weak reference: a class defined in a notebook cell is not kept alive by this cache
_OPTIMIZER_TYPES: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()


def _is_optimizer(kind: type) -> bool:
    """Return True for a class with a Keras optimizer in its MRO (kept per class)."""
    found = _OPTIMIZER_TYPES.get(kind)
    if found is None:
        found = _OPTIMIZER_TYPES[kind] = any(
            cls.__module__.startswith("keras.src.optimizers") for cls in kind.__mro__)
    return found
