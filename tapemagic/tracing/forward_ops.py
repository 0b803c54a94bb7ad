"""Which forward op's registered gradient made a gradient op traced in a graph.

Imports TensorFlow (through ``_tf_private``). A cut or a zero a gradient op makes (a
``ResizeBicubicGrad`` with no gradient of its own, a ``ReluGrad`` whose second-order input
gets zeros) is a property of the forward op it differentiates: the Keras layer that ran it,
with its arguments, is the line the user changes. TensorFlow runs each op's gradient through
one function whose locals name the forward op's type and hold the inputs and outputs the
gradient reads (``grad_frames.differentiated``): the producer of those outputs, or the
recorded op of that type on those inputs, is that op (``OpRecord.grad_of``).
"""

from __future__ import annotations

from typing import Any

from tapemagic.trace import Trace
from tapemagic.tracing._tf_private.grad_frames import differentiated
from tapemagic.tracing._tf_private.ids import TensorIds

#: recorded ops searched back for the forward op when only its inputs are known
_SEARCHED = 4000


def forward_of(ids: TensorIds, trace: Trace, frame: Any) -> int | None:
    """Return the seq of the recorded forward op whose gradient function runs above ``frame``."""
    found = differentiated(frame)
    if found is None:
        return None
    op_type, inputs, outputs = found
    if outputs:
        serial = ids.serial_of(outputs[0])
        record = trace.tensors.get(serial) if serial is not None else None
        if record is not None and record.producer:
            return record.producer[0]
    # the inputs it read that the recorder knows (a shape argument may be a fresh constant)
    known = [(i, s) for i, t in enumerate(inputs) if (s := ids.serial_of(t)) is not None]
    if not known:
        return None  # a gradient that reads neither (an Add's): nothing to tell it by
    for op in reversed(trace.ops[-_SEARCHED:]):
        if op.op_type == op_type and not op.in_gradient and len(op.inputs) == len(inputs) and all(
                op.inputs[i] == s for i, s in known):
            return op.seq
    return None
