"""The tensor-id table: which serial each tensor of one run has (part of the quarantine).

Imports TensorFlow. The one place that reads an eager tensor's ``_id`` and ``_datatype_enum()``
and a variable's ``_handle``. An eager tensor is known by its ``_id``: it comes from one
process-wide counter (``get_uid()`` in tensorflow/python/eager/pywrap_tensor.cc, shared with
graph tensors' ``ops.uid()``) and is never reused, unlike ``id()``; the gradient tape keys
tensors by it (``FastTensorId``). Any other object is known by ``id()`` and a weak reference
(its serial retires when it dies, because Python reuses ``id()`` at once). Only what
:meth:`TensorIds.hold` (or a ``strong`` registration) asks for is kept alive, until
:meth:`TensorIds.clear`.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Iterable
from typing import Any

from tensorflow.python.framework import ops

from tapemagic.trace import TensorRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing.values import dtype_info, enum_info

_EAGER = ops.EagerTensor
#: ``eager_uid(tensor)`` is an eager tensor's ``_id``: for the per-op loops of the recorder, which
#: look an op's inputs up in :attr:`TensorIds.by_uid` inline (a method call per input costs more)
eager_uid = operator.attrgetter("_id")


def handle_of(variable: Any) -> Any:
    """Return a ``BaseResourceVariable``'s resource handle without the ``handle`` property.

    ``_handle`` (tensorflow/python/ops/resource_variable_ops.py): the property checks the
    distribution context and, inside a graph, captures; the attribute is the handle itself.
    """
    return variable._handle


def handle_or_none(obj: Any) -> Any:
    """Return :func:`handle_of` ``obj``, or None when it has no ``_handle`` (yet)."""
    return getattr(obj, "_handle", None)


class TensorIds:
    """Give each tensor a run sees one serial, and its :class:`TensorRecord` in ``tensors``."""

    __slots__ = ("tensors", "by_uid", "_of_id", "_refs", "_strong", "_next")

    def __init__(self, tensors: dict[int, TensorRecord]) -> None:
        self.tensors = tensors  # the trace's records, by serial
        #: an eager tensor's ``_id`` (:func:`eager_uid`) -> serial; read-only outside this class
        self.by_uid: dict[int, int] = {}
        self._of_id: dict[int, int] = {}  # id() -> serial, for objects not eager tensors
        self._refs: dict[int, weakref.ref[Any]] = {}
        self._strong: dict[int, Any] = {}
        self._next = 1

    def serial_of(self, tensor: Any) -> int | None:
        """Return the serial of a tensor seen before, or None.

        Any object but an eager tensor counts only while its weak reference still points at
        this very object (no weakref callbacks: a Ctrl-C landing in one would be swallowed by
        Python).
        """
        if type(tensor) is _EAGER:
            return self.by_uid.get(tensor._id)
        serial = self._of_id.get(id(tensor))
        if serial is None:
            return None
        ref = self._refs.get(serial)
        if ref is not None:
            return serial if ref() is tensor else None
        return serial if self._strong.get(serial) is tensor else None

    def register(
        self, tensor: Any, producer: tuple[int, int] | None, leaf: str | None, strong: bool = False
    ) -> int:
        """Give ``tensor`` a new serial and record its dtype and shape."""
        serial = self._next
        self._next = serial + 1
        if type(tensor) is _EAGER:
            # read from C: the `dtype` property builds a Python object per tensor
            name, trainable = enum_info(tensor._datatype_enum())
            self.by_uid[tensor._id] = serial
        else:
            name, trainable = dtype_info(getattr(tensor, "dtype", None))
            self._of_id[id(tensor)] = serial
            if not strong:
                try:
                    self._refs[serial] = weakref.ref(tensor)
                except TypeError:  # not weak-referenceable: hold it for the run
                    strong = True
        self.tensors[serial] = TensorRecord(serial, name, tfp.shape_tuple(tensor), trainable,
                                            producer, leaf)
        if strong:
            self._strong[serial] = tensor
        return serial

    def new_serial(self) -> int:
        """Return a fresh serial (for a value that has no tensor object)."""
        self._next += 1
        return self._next - 1

    def reserve(self, count: int) -> int:
        """Set ``count`` consecutive serials aside; return the first (see :meth:`adopt`)."""
        first = self._next
        self._next = first + count
        return first

    def adopt(self, outputs: Iterable[Any], first: int, enums: list[int]) -> None:
        """Give eager ``outputs`` the serials from ``first`` on (set aside by :meth:`reserve`).

        Their records are made later (the backward pass's fast path, ``backward.flush``):
        their ``DataType`` enums are appended to ``enums`` for it.
        """
        by_uid = self.by_uid
        for offset, tensor in enumerate(outputs):
            by_uid[tensor._id] = first + offset
            enums.append(tensor._datatype_enum())

    def hold(self, tensor: Any) -> int:
        """Return the serial of ``tensor`` (registering it if new) and keep it alive for the run."""
        serial = self.serial_of(tensor)
        if serial is None:
            serial = self.register(tensor, None, "constant", strong=True)
        else:
            self._strong[serial] = tensor
        return serial

    def clear(self) -> None:
        """Forget every tensor (the records in ``tensors`` stay): the run is over."""
        for held in (self._strong, self._refs, self._of_id, self.by_uid):
            held.clear()
