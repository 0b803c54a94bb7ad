"""Keras weight initialisers' own ops left unrecorded (the variable they fill is recorded).

Imports nothing of TensorFlow itself. Building a Keras model eagerly runs each weight's
initialiser (random draws, fills, scalings: 698 of the 1,338 ops that build a ResNet50) and
then creates the ``tf.Variable`` from the value (``VarHandleOp``, then ``AssignVariableOp``).
An initial value made from nothing the run recorded reaches the weight only through that
assign, which carries no gradient, and no rule reads how it was computed. So while
``Variable._initialize_with_initializer`` runs (keras/src/backend/tensorflow/core.py, which
hands the initialiser to ``tf.Variable``) on the traced thread, the recorder leaves out every
op but the variable ops (``VARIABLE_OPS``) whose inputs are all unrecorded and that no pending
variable read feeds (:func:`own_op`). An initial value computed from a variable or a
recorded tensor (a tied decoder's ``tf.transpose(encoder.kernel)``, ``Constant(tensor)``) is
recorded as ever: the assign then cuts a path (TM402).
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from tapemagic.optypes import VARIABLE_OPS

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

_MODULE = "keras.src.backend"
_METHOD = "_initialize_with_initializer"


def own_op(rec: Recorder, name: str, inputs: Any) -> bool:
    """Return True for an op of an initialiser that reads nothing recorded (not to record).

    Called by the op callback while ``rec.variable_ops_only``; the variable's own ops, an op
    on a recorded tensor and one a pending (C fast path) variable read feeds are recorded.
    """
    return (name not in VARIABLE_OPS and threading.get_ident() == rec.thread
            and not rec.pending_reads and all(rec.serial_of(t) is None for t in inputs or ()))


class InitializerHooks:
    """Patch Keras 3's ``Variable._initialize_with_initializer`` for one :class:`Recorder`."""

    def __init__(self, recorder: Recorder) -> None:  # noqa: D107
        self.rec = recorder
        self._saved: tuple[type, Any] | None = None

    def install(self) -> None:
        """Wrap the method (nothing to do when Keras 3 is not loaded)."""
        backend = getattr(sys.modules.get(_MODULE), "Variable", None)  # the backend's class
        cls = next((c for c in getattr(backend, "__mro__", ()) if _METHOD in c.__dict__), None)
        if cls is None:
            return
        original = cls.__dict__[_METHOD]
        rec = self.rec

        def initialize_with_initializer(variable: Any, initializer: Any) -> Any:
            __tracebackhide__ = True
            if threading.get_ident() != rec.thread:
                return original(variable, initializer)
            rec.variable_ops_only += 1
            try:
                return original(variable, initializer)
            finally:
                rec.variable_ops_only -= 1

        self._saved = (cls, original)
        setattr(cls, _METHOD, initialize_with_initializer)

    def remove(self) -> None:
        """Restore the method."""
        if self._saved is not None:
            setattr(self._saved[0], _METHOD, self._saved[1])
            self._saved = None
