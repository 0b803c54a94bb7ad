"""An eager gradient call recorded as one op when its backward pass can run no user code.

Imports TensorFlow (through ``_tf_private``). The backward pass of an eager
``tape.gradient`` runs about as many ops as the forward pass (an eager ResNet50 step: 3,168 of
6,449), each one a Python call of the op callback. When nothing in it can run the user's code
and no tape records it, those ops are only TensorFlow's registered gradient functions at the
gradient call's line: no rule reads them one by one (rules skip ``in_gradient`` ops), only the
data flow from the call's targets to its results matters (an optimizer's writes, a host
round-trip of a gradient, a later tape). The call is then recorded as one ``Gradient`` op,
targets (and ``output_gradients``) in, results out, at the call's line.

User code can run in a backward pass through: a ``tf.custom_gradient`` function (its forward
op is made in ``tensorflow.python.ops.custom_gradient``), ``tf.py_function`` (``EagerPyFunc``:
its gradient runs the Python function again under a tape), a gradient registered outside
TensorFlow (``tf.RegisterGradient``), and a ``tf.function`` whose backward function is traced
lazily (a call op). Any such op recorded while the tape recorded keeps the call op by op, as
does a tape that recorded while the op callback was off, a tape made before the run, a tape
recording the backward pass (higher-order gradients: checked at the first backward op, after
TensorFlow stopped the differentiated tape, ``backprop.py`` ``GradientTape.gradient``), a
call inside a ``tf.function`` or on another thread, and ``jacobian``.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from tapemagic.optypes import is_function_call
from tapemagic.trace import GradientCallRecord, OpRecord, TapeRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import replicas
from tapemagic.tracing.results import flatten

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

#: The op type of a summarised gradient call (not a TensorFlow op: made up, never run).
SUMMARY_OP = "Gradient"
#: Ops whose gradient runs Python the user wrote (script_ops.py: ``EagerPyFunc``'s gradient
#: calls the function again under a tape).
PYTHON_BACKWARD_OPS = frozenset({"EagerPyFunc", "PyFunc", "PyFuncStateless"})
_BACKPROP_MODULE = "tensorflow.python.eager.backprop"
#: Modules whose registered gradient functions are TensorFlow's or Keras' own.
_OWN_GRADIENTS = ("tensorflow.", "keras.", "tf_keras.")


def python_backward(op_type: str) -> bool:
    """Return True when a backward pass through an ``op_type`` op may run the user's code.

    A py_function, a ``tf.function`` call, or an op type whose registered gradient function
    is not TensorFlow's or Keras' own (``tf.RegisterGradient`` in the user's code).
    """
    if op_type in PYTHON_BACKWARD_OPS or is_function_call(op_type):
        return True
    module = tfp.gradient_module(op_type)
    return bool(module) and not module.startswith(_OWN_GRADIENTS)


class Summary:
    """One eager gradient call whose backward ops may be left unrecorded (see the module)."""

    __slots__ = ("thread", "active", "skipped")

    def __init__(self, thread: int) -> None:  # noqa: D107
        self.thread = thread
        self.active: bool | None = None  # decided at the call's first backward op
        self.skipped = 0

    def skips(self) -> bool:
        """Return True when the op being reported belongs to the summarised backward pass."""
        if threading.get_ident() != self.thread:
            return False  # a replica thread's own ops are recorded as ever
        if self.active is None:
            # TensorFlow has stopped the differentiated (non-persistent) tape by now: a tape
            # that still records would record this backward pass (a higher-order gradient)
            self.active = not tfp.could_possibly_record()
        if self.active:
            self.skipped += 1
        return self.active


def begin(rec: Recorder, tape: TapeRecord, method: str) -> Summary | None:
    """Return the :class:`Summary` of an analysed gradient call, or None to record it op by op.

    ``tape``'s first recording span must postdate every op that can run user code in a backward
    pass (``Recorder.python_backward_seq``) and the op callback's attachment.
    """
    if (method != "gradient" or tape.made_before or tape.graph or not tape.spans
            or rec.trace.truncated or not rec.attached or not tfp.executing_eagerly()
            or threading.get_ident() != rec.thread):
        return None
    start = tape.spans[0][0]
    if start <= rec.python_backward_seq or start <= rec.attached_seq:
        return None
    found = Summary(rec.thread)
    if not tfp.could_possibly_record():
        # no tape records the backward pass: decided now, and no op of it calls the recorder
        found.active = True
        tfp.remove_op_callback(rec.callback)
    return found


def end(rec: Recorder) -> None:
    """After an analysed gradient call (returned or raised): the op callback is back on.

    Checked, not assumed: a Ctrl-C can land anywhere in :func:`begin`.
    """
    rec.summary = None
    if rec.attached and not replicas.has_op_callback(rec.callback):
        tfp.add_op_callback(rec.callback)


def record(rec: Recorder, call: GradientCallRecord, result: Any, output_gradients: Any) -> None:
    """Record the summarised call as one op: targets and output gradients in, results out."""
    rec.busy = True
    try:
        inputs = list(call.targets)
        inputs += [rec.hold(t) for t in flatten(output_gradients) if hasattr(t, "dtype")]
        seq = rec.next_seq()
        outputs: list[int] = []
        for leaf in flatten(result):
            if leaf is None:
                continue
            for tensor in tfp.tf.nest.flatten(leaf, expand_composites=True):
                if rec.serial_of(tensor) is None:  # (a tensor passed through keeps its origin)
                    outputs.append(rec.register(tensor, (seq, len(outputs)), None))
        key = (_BACKPROP_MODULE, "gradient")
        module = sys.modules.get(_BACKPROP_MODULE)
        if module is not None:
            rec.api_frames.setdefault(key, vars(module))
        rec.trace.ops.append(OpRecord(seq, SUMMARY_OP, tuple(inputs), tuple(outputs), call.loc,
                                      key[0], key[1], in_gradient=True))
        rec.trace.registry.setdefault(SUMMARY_OP, "fn")
    finally:
        rec.busy = False
