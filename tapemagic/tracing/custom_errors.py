"""A ``tf.custom_gradient`` that TensorFlow refused before any gradient call: name its weights.

Reads frames only (no TensorFlow import). A function decorated with
``@tf.custom_gradient`` that reads variables must have a gradient function accepting
``variables=``; when it does not, TensorFlow raises ``TypeError`` from the decorator itself
(tensorflow/python/ops/custom_gradient.py, ``_graph_mode_decorator`` and
``_eager_mode_decorator``) as the forward pass calls the function, inside the tape, so the
gradient call the code was heading for never runs and nothing was recorded to explain. The
decorator's frame, innermost in the traceback of the error (or of the error a Keras layer
re-raised it from) as it leaves the tape, holds the decorated
function, its gradient function and the ``variables`` it read: those are the weights the step
cannot train, and the gradient function's definition is the line to change
(``Trace.custom_gradient_errors``). The error itself leaves unchanged.
"""

from __future__ import annotations

from types import FrameType
from typing import TYPE_CHECKING

from tapemagic import frames
from tapemagic.tracing.values import custom_gradient_of

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

_DECORATOR_MODULE = "tensorflow.python.ops.custom_gradient"


def note_failed(rec: Recorder, error: BaseException) -> None:
    """Remember a custom gradient's weights when ``error`` was raised by TF's decorator."""
    if not isinstance(error, Exception):
        return
    try:
        _note(rec, error)
    except Exception:  # noqa: BLE001 - the user's error leaves unchanged whatever happens here
        return


def _note(rec: Recorder, error: Exception) -> None:
    # Keras re-raises a layer's error as a new one with the original as its context, and
    # filters the new one's traceback: the decorator's frame is in the original's
    for link in frames.error_chain(error, 8):
        tb = link.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None and tb.tb_frame.f_globals.get("__name__") == _DECORATOR_MODULE:
            _note_frame(rec, tb.tb_frame, link)
            return


def _note_frame(rec: Recorder, frame: FrameType, error: BaseException) -> None:
    """Record the fact from the decorator's frame that raised ``error``."""
    found = custom_gradient_of(frame)
    variables = frame.f_locals.get("variables")
    if found is None or not isinstance(variables, (list, tuple)):
        return
    name, definition = found
    with rec.quiet():
        handles = []
        for variable in variables:
            if getattr(variable, "trainable", False) and hasattr(variable, "handle"):
                handles.append(rec.handle_serial(variable.handle))
                rec.variables_seen.setdefault(id(variable), variable)
    if not handles:
        return
    fact = (definition, name, tuple(handles), f"{type(error).__name__}: {error}")
    if all(f[:3] != fact[:3] for f in rec.trace.custom_gradient_errors):
        rec.trace.custom_gradient_errors.append(fact)
