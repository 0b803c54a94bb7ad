"""Provenance for NumPy values that came from a tensor: the NumPy chain after ``.numpy()``.

NumPy only (no TensorFlow import). While a run is traced, ``.numpy()`` called by the user
returns a :class:`HostArray`: an ``ndarray`` subclass that prints, pickles and computes exactly
like the plain array, and remembers which host event made it. NumPy calls on it
(``np.sqrt(p)``, ``p - q``, ``np.dot``) are recorded as further events, so the report can show
the chain ``.numpy() -> np.subtract -> np.sqrt -> np.real`` and link the final value back into
TensorFlow. Once the run ends, a HostArray left in the namespace behaves as a plain array
(results of NumPy calls on it are plain arrays again). Known difference: ``type(a) is
np.ndarray`` is False for the returned array itself.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class _Tracer(Protocol):
    def record_chain(self, api: str, parents: tuple[int, ...], result: Any) -> Any: ...


#: The hooks of the run in progress, or None (set by ``HostHooks`` install/remove).
ACTIVE: list[_Tracer] = []


class HostArray(np.ndarray):
    """A NumPy array that remembers the host round-trip (event id) that produced it."""

    _tm_event: int = 0

    def __array_finalize__(self, obj: Any) -> None:
        self._tm_event = getattr(obj, "_tm_event", 0)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if any(_foreign_override(x) for x in inputs):
            # `p - tensor`: let the other operand (a TensorFlow tensor) decide, as it would for
            # a plain array; its own hook records the host round-trip.
            return NotImplemented
        parents = tuple(sorted({event_of(x) for x in inputs if event_of(x)}))
        args = [_plain(x) for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(_plain(x) for x in kwargs["out"])
        result = getattr(ufunc, method)(*args, **kwargs)
        if result is NotImplemented or not ACTIVE:
            return result
        name = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
        return ACTIVE[-1].record_chain(f"np.{name}", parents, result)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        parents: set[int] = set()
        plain_args = tuple(_unwrap(a, parents) for a in args)
        plain_kwargs = {k: _unwrap(v, parents) for k, v in kwargs.items()}
        result = func(*plain_args, **plain_kwargs)
        if not ACTIVE:
            return result
        return ACTIVE[-1].record_chain(f"np.{func.__name__}", tuple(sorted(parents)), result)

    def __repr__(self) -> str:
        return repr(self.view(np.ndarray))

    def __str__(self) -> str:
        return str(self.view(np.ndarray))

    def __reduce__(self) -> Any:
        return self.view(np.ndarray).__reduce__()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return self.view(np.ndarray).__reduce_ex__(protocol)


def _foreign_override(value: Any) -> bool:
    if isinstance(value, (np.ndarray, np.generic, int, float, complex, bool)) or value is None:
        return False
    return getattr(type(value), "__array_ufunc__", None) is not None


# Printing, `type(a).__name__` and error messages read like a plain ndarray's.
HostArray.__module__ = "numpy"
HostArray.__qualname__ = HostArray.__name__ = "ndarray"


def tag(value: Any, event: int) -> Any:
    """Return ``value`` as a :class:`HostArray` tagged with ``event`` (scalars stay as they are)."""
    if type(value) is np.ndarray and value.ndim > 0:
        out = value.view(HostArray)
        out._tm_event = event
        return out
    if isinstance(value, HostArray):
        value._tm_event = event
    return value


def event_of(value: Any) -> int:
    """Return the host event id a value carries, or 0."""
    return int(getattr(value, "_tm_event", 0)) if isinstance(value, HostArray) else 0


def _plain(value: Any) -> Any:
    return value.view(np.ndarray) if isinstance(value, HostArray) else value


def _unwrap(value: Any, parents: set[int]) -> Any:
    if isinstance(value, HostArray):
        if value._tm_event:
            parents.add(value._tm_event)
        return value.view(np.ndarray)
    if type(value) in (list, tuple):
        return type(value)(_unwrap(v, parents) for v in value)
    return value
