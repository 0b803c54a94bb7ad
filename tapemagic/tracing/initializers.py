"""Keras weight initialisers run without recording their ops (only the variable they fill).

Imports nothing of TensorFlow itself. Building a Keras model eagerly runs each weight's
initialiser (random draws, fills, scalings: 698 of the 1,338 ops that build a ResNet50) and
then creates the ``tf.Variable`` from the value (``VarHandleOp``, then ``AssignVariableOp``).
The initial value reaches the weight only through that assign, which carries no gradient: no
rule reads how it was computed. While ``Variable._initialize_with_initializer`` runs
(keras/src/backend/tensorflow/core.py, which passes the initialiser to ``tf.Variable``) on the
traced thread, the recorder keeps only the
variable ops (``KEPT_OPS``): the handle, where it was made, and its write.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from tapemagic.optypes import CREATE_OPS, READ_OPS, WRITE_OPS

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

#: The ops recorded while an initialiser runs: the variable's creation, reads and writes.
KEPT_OPS = CREATE_OPS | READ_OPS | WRITE_OPS

_MODULE = "keras.src.backend"
_METHOD = "_initialize_with_initializer"


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
