"""Where the user's code made or applied a Keras layer: the line its own ops are placed at.

Imports no TensorFlow (Keras 3's classes come from ``keras_state``). An op a Keras layer runs
in Keras' own code (``Discretization``'s ``Bucketize``, a ``ReLU(max_value=...)``'s clip) has
no frame of the user's code inside the layer: its user frame is the line that called the model
(``model(x)``, ``model.fit(...)``), which says nothing about which layer cut the path. Keras 3
keeps no traceback of where a layer was made or called, so while a check runs two hooks note
it (:class:`LayerSiteHooks`):

- *applied*: a call on symbolic tensors records a ``Node`` (``x = Discretization(...)(h)`` in a
  functional model); the site counts when the user's code called that layer or operation
  itself (no other Keras object's method between: ``Sequential`` applying its entries in its
  own ``build`` is not the user's call);
- *made*: the backend layer's ``__init__``, run by every ``Layer.__init__``; the site counts
  when the user's code constructed the layer itself (the entry line of
  ``Sequential([... Discretization(...) ...])``), not a Keras function that built it (an
  application model).

:class:`Placer` then gives an op its layer's site (``OpRecord.layer_loc``) when every Keras
layer whose call is under way runs below the user frame: a user's ``call`` (a custom layer,
a ``Lambda``) is the user's own line and keeps it. The site is the one line the layer was
applied at, else the line it was made at; a layer applied at several lines and made by
Keras has none.
"""

from __future__ import annotations

import inspect
import sys
import threading
import weakref
from types import FrameType
from typing import Any

from tapemagic import frames
from tapemagic.trace import RawLocation
from tapemagic.tracing import keras_state


class _Site:
    """The user's lines that made and applied one Keras layer or operation."""

    __slots__ = ("ref", "made", "applied")

    def __init__(self, ref: weakref.ref[Any]) -> None:  # noqa: D107
        self.ref = ref
        self.made: RawLocation | None = None
        self.applied: list[RawLocation] = []

    def place(self) -> RawLocation | None:
        lines = {(a.file, a.line, a.col) for a in self.applied}
        if len(lines) == 1:
            return self.applied[0]
        return self.made if not lines or self.made is not None else None


#: id(layer or operation) -> its sites; kept across checks (a model built in one checked cell
#: and trained in the next), by weak reference, so no layer is kept alive
_SITES: dict[int, _Site] = {}


def _entry(obj: Any) -> _Site | None:
    site = _noted(obj)
    if site is not None:
        return site
    try:
        ref = weakref.ref(obj)
    except TypeError:
        return None
    if len(_SITES) >= 4096:  # drop the dead ones first
        for key in [k for k, s in _SITES.items() if s.ref() is None]:
            del _SITES[key]
    site = _SITES[id(obj)] = _Site(ref)
    return site


def _noted(obj: Any) -> _Site | None:
    """Return ``obj``'s sites, if noted (an entry of a dead object with the same id is not)."""
    site = _SITES.get(id(obj))
    return site if site is not None and site.ref() is obj else None


def site_of(obj: Any) -> RawLocation | None:
    """Return the line an op of ``obj`` (a Keras layer or operation) is placed at, or None."""
    site = _noted(obj)
    return site.place() if site is not None else None


def made_of(obj: Any) -> RawLocation | None:
    """Return the user's line that constructed ``obj`` (a Keras layer), or None."""
    site = _noted(obj)
    return site.made if site is not None else None


def _holds(frame: FrameType, obj: Any) -> bool:
    """Return True when a function frame has ``obj`` among its locals (its constructor's)."""
    if not frame.f_code.co_flags & inspect.CO_NEWLOCALS:
        return False  # a module's or class body's frame: its locals are its namespace
    return any(value is obj for value in frame.f_locals.values())


def made_at(start: FrameType | None, layer: Any) -> RawLocation | None:
    """Return the user's line constructing ``layer`` (the frames from ``start`` out), or None.

    The constructor's own frames (Keras' ``__init__`` chain, a user subclass's, a decorator's
    wrapper) hold the layer; the first frame that does not is its caller.
    """
    frame = start
    while frame is not None and _holds(frame, layer):
        frame = frame.f_back
    if frame is None or frames.is_library(frame):
        return None
    return frames.location_of(frame)


def applied_at(start: FrameType | None, operation: Any) -> RawLocation | None:
    """Return the user's line that called ``operation`` on symbolic tensors, or None.

    Between the ``Node`` and the user's frame, every method frame must be ``operation``'s own
    (``Layer.__call__``, ``symbolic_call``), and every plain function one of Keras' own
    operation functions or wrappers (``keras.ops.round``, ``keras.layers.add``, traceback
    wrappers). Another object's method (``Sequential.build``, a functional model's own
    symbolic call) or another library function (``keras.applications.ResNet50`` building its
    graph) means the library applied it, not the user.
    """
    frame = start
    while frame is not None and frames.is_library(frame):
        code = frame.f_code
        if code.co_argcount and code.co_varnames[0] == "self":
            if frame.f_locals.get("self") is not operation:
                return None
        elif not str(frame.f_globals.get("__name__", "")).startswith(_APPLYING_MODULES):
            return None
        frame = frame.f_back
    return frames.location_of(frame) if frame is not None else None


#: Keras 3's modules whose plain functions apply one operation for their caller: the
#: ``keras.ops`` functions, the functional layer helpers (``keras.layers.add``) and the
#: traceback filter that wraps every call
_APPLYING_MODULES = ("keras.src.ops.", "keras.src.layers.", "keras.src.utils.")


class LayerSiteHooks:
    """Patch the backend layer's and ``Node``'s ``__init__`` for one check (undone after)."""

    def __init__(self, thread: int) -> None:  # noqa: D107
        self.thread = thread
        self._saved: list[tuple[type, Any]] = []

    def install(self) -> None:
        """Wrap both methods (nothing to do when Keras 3 is not loaded)."""
        classes = keras_state.keras_construction_hooks()
        if classes is None:
            return
        backend, node = classes
        thread = self.thread
        made_init, node_init = backend.__dict__["__init__"], node.__dict__["__init__"]

        def layer_init(layer: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            if threading.get_ident() == thread:
                try:
                    where = made_at(_caller(), layer)
                    if where is not None:
                        site = _entry(layer)
                        if site is not None:
                            site.made = where
                except Exception:  # noqa: BLE001 - never break the user's layer for a place
                    pass
            return made_init(layer, *args, **kwargs)

        def new_node(node_: Any, operation: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            result = node_init(node_, operation, *args, **kwargs)
            if threading.get_ident() == thread:
                try:
                    where = applied_at(_caller(), operation)
                    if where is not None:
                        site = _entry(operation)
                        if site is not None:
                            site.applied.append(where)
                except Exception:  # noqa: BLE001
                    pass
            return result

        for cls, wrapper, original in ((backend, layer_init, made_init),
                                       (node, new_node, node_init)):
            self._saved.append((cls, original))
            cls.__init__ = wrapper  # type: ignore[misc]

    def remove(self) -> None:
        """Restore both methods."""
        while self._saved:
            cls, original = self._saved.pop()
            cls.__init__ = original  # type: ignore[misc]


def _caller() -> FrameType | None:
    """Return the frame that called the hook calling this (``Layer.__init__``, ``Node``'s maker)."""
    return sys._getframe(2)  # noqa: SLF001


class Placer:
    """Place the ops a Keras layer runs in Keras' own code at that layer's site.

    Asked for every op in a Keras name scope while some site is known, so the common case
    reads no frame's locals: the layers called are the name-scope stack's callers (read once
    per stack top, which is held so its address stays its own), and the walk from the op to
    the user's frame only counts ``Layer.__call__`` frames. A bare operation's call (a
    ``keras.ops`` function applied in a functional model) or a layer not yet in its scope (its
    inputs being converted, its ``build``) reads ``self`` from the call frames.
    """

    __slots__ = ("_codes", "_layer", "_top", "_depth", "_scoped")

    def __init__(self) -> None:  # noqa: D107
        self._codes: tuple[Any, ...] = ()
        self._layer: type | None = None
        self._top: Any = None
        self._depth = 0
        self._scoped: list[Any] = []  # the layers in the name-scope stack, outermost first

    def place(self, start: FrameType | None, user: FrameType | None) -> RawLocation | None:
        """Return the site of the op at ``start`` whose user frame is ``user``, or None.

        Every Keras layer in the name-scope stack must be called below ``user`` (the user's
        frame is outside all of them); the innermost layer or operation with a site wins.
        """
        if not _SITES or user is None or not self._ready():
            return None
        scoped = self._layers()
        if not scoped or not any(id(k) in _SITES for k in scoped):
            return None
        layer_call, operation_call = self._codes
        calls, first, second, frame = 0, None, None, start
        while frame is not None and frame is not user:
            code = frame.f_code  # by identity: code objects compare by content
            if code is layer_call or code is operation_call:
                calls += code is layer_call
                if first is None:
                    first = code
                elif second is None:
                    second = code
            frame = frame.f_back
        if frame is None or calls < len(scoped):
            return None  # the user's frame runs inside a layer's call: its line is the place
        # a layer's own call: its Operation.__call__ (super().__call__) inside its
        # Layer.__call__; anything else is a bare operation or a layer not in its scope yet
        if calls == len(scoped) and first is operation_call and second is layer_call:
            called = scoped[::-1]
        else:
            called = self._selves(start, user)
            if not {id(k) for k in scoped} <= {id(c) for c in called}:
                return None
        for obj in called:
            site = site_of(obj)
            if site is not None:
                return site
        return None

    def _ready(self) -> bool:
        if not self._codes:
            codes, layer_class = keras_state.keras_call_codes(), keras_state.keras_layer_class()
            if len(codes) != 2 or layer_class is None:
                return False
            self._codes, self._layer = codes, layer_class
        return True

    def _layers(self) -> list[Any]:
        """Return the distinct Keras layers whose name scopes are open, outermost first."""
        stack = keras_state.keras_name_scopes()
        if not stack:
            return []
        if stack[-1] is self._top and len(stack) == self._depth:
            return self._scoped
        layers: list[Any] = []
        kind: Any = self._layer
        for entry in stack:
            caller = getattr(entry, "caller", None)
            if isinstance(caller, kind) and all(c is not caller for c in layers):
                layers.append(caller)
        self._top, self._depth, self._scoped = stack[-1], len(stack), layers
        return layers

    def _selves(self, start: FrameType | None, user: FrameType) -> list[Any]:
        """Return the layers and operations whose calls run from ``start`` out to ``user``."""
        called: list[Any] = []
        layer_call, operation_call = self._codes
        frame = start
        while frame is not None and frame is not user:
            if frame.f_code is layer_call or frame.f_code is operation_call:
                called.append(frame.f_locals.get("self"))
            frame = frame.f_back
        return called

    def clear(self) -> None:
        """Drop the name-scope entry held (the end of a run)."""
        self._top, self._depth, self._scoped = None, 0, []
