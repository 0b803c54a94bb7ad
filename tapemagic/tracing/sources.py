"""The sources of a gradient call as records: Keras variables, tf.Variables, tensors.

Imports TensorFlow. A ``tf.distribute`` strategy's mirrored variable counts as a variable: it is
no ``BaseResourceVariable``, but its ``handle`` is the current replica's component's
(``DistributedVariable.handle``, tensorflow/python/distribute/values.py), the one the replica
function's ops read and ``tape.gradient`` takes (``backprop._handle_or_self``).
"""

from __future__ import annotations

from typing import Any

from tapemagic.trace import SourceRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import keras_state
from tapemagic.tracing._tf_private.distribute import DistributedVariable
from tapemagic.tracing._tf_private.keras_private import inner_variable
from tapemagic.tracing.recorder import Recorder
from tapemagic.tracing.results import shape_of


def source_record(rec: Recorder, source: Any) -> SourceRecord:
    """Return the record of one flattened source, registering its handle (or tensor) with ``rec``.

    A Keras 3 ``Variable`` is named by its ``path``, a ``tf.Variable`` by its name without
    ``:0``, a tensor ``tensor#<serial>`` (the gradient call names it from its argument later).
    """
    keras_cls: Any = keras_state.keras_variable_class()
    if keras_cls is not None and isinstance(source, keras_cls):
        inner = inner_variable(source)
        rec.variables_seen.setdefault(id(source), source)
        return SourceRecord(str(source.path), "keras-variable", str(source.dtype),
                            tuple(source.shape), bool(source.trainable),
                            rec.handle_serial(inner.handle), None)
    handle = getattr(source, "handle", None)
    if handle is not None and isinstance(source, (tfp.BaseResourceVariable, DistributedVariable)):
        rec.variables_seen.setdefault(id(source), source)
        # `synchronization` is public on every tf.Variable (an enum: its name, no import)
        on_read = getattr(getattr(source, "synchronization", None), "name", "") == "ON_READ"
        return SourceRecord(str(source.name).removesuffix(":0"), "variable",
                            tfp.dtype_name(source.dtype), shape_of(source),
                            bool(source.trainable), rec.handle_serial(handle), None,
                            on_read=on_read)
    serial = rec.ids.hold(source) if hasattr(source, "dtype") else None
    return SourceRecord(f"tensor#{serial}", "tensor", tfp.dtype_name(getattr(
        source, "dtype", None)), shape_of(source), True, None, serial)
