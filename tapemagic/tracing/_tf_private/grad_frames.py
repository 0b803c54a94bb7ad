"""The frames of TensorFlow's backward pass that an error raised inside a gradient function left.

A gradient call whose backward pass raised (``tf.linalg.qr(full_matrices=True)`` on a tall
matrix: ``_QrGrad`` raises ``NotImplementedError``) leaves, in the error's traceback, the frame
of ``backprop._gradient_function`` (tensorflow/python/eager/backprop.py), the one place every
tape gradient goes through, eager and traced alike. Its locals name the op (``op_name``) and
hold the forward op's ``outputs``, which the recorder knows by id. The traceback is read while
the error passes the tape hook, before ``tf.function``'s traceback filter drops those frames.
"""

from __future__ import annotations

from typing import Any

from tensorflow.python.eager import backprop
from tensorflow.python.ops import gradients_util

_GRADIENT_FUNCTION = backprop._gradient_function.__code__  # noqa: SLF001
#: ``tf.gradients`` (and a nested tf.function's backward) calls each op's gradient through it
_MAYBE_COMPILE = gradients_util._MaybeCompile.__code__  # noqa: SLF001


def raising_gradient(error: BaseException) -> tuple[str, tuple[Any, ...]] | None:
    """Return (op type, forward outputs) of the innermost gradient function ``error`` left.

    None when the error did not pass through a registered gradient function (it was raised
    before the backward pass, or by a ``tf.custom_gradient``'s own function, which the tape
    calls directly). The outputs are empty when the tape kept none: TensorFlow's gradient
    exclusions (pywrap_gradient_exclusions.cc) list the ops whose gradient reads neither
    inputs nor outputs, and the tape then hands both as None (``SparseSparseMaximum``).
    """
    found = None
    below = 0  # frames under the last gradient frame: an error the function raised itself
    tb = error.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        below += 1
        if frame.f_code is _GRADIENT_FUNCTION:
            local = frame.f_locals
            op_name, outputs = local.get("op_name"), local.get("outputs")
            if isinstance(outputs, (tuple, list)) and isinstance(op_name, str):
                found = (op_name, tuple(outputs))
            elif isinstance(op_name, str):
                # no output to tell the op by: only an error of the gradient function's own
                # (a call it cannot take, a raise in its body), never one of an op it ran
                # on these values (a shape error), which says nothing of the op type
                found, below = (op_name, ()), 0
        elif frame.f_code is _MAYBE_COMPILE:
            op: Any = frame.f_locals.get("op")
            if op is not None and isinstance(getattr(op, "type", None), str):
                found = (op.type, tuple(op.outputs))
        tb = tb.tb_next
    if found is not None and not found[1] and below > 1:
        return None
    return found


def differentiated(frame: Any,
                   depth: int = 150) -> tuple[str, tuple[Any, ...], tuple[Any, ...]] | None:
    """Return (op type, inputs, outputs) of the forward op whose gradient runs above ``frame``.

    An op created while a gradient function runs (at trace time, in a ``tf.function``) was
    made by that forward op's gradient: ``ResizeBicubicGrad`` by ``ResizeBicubic``'s,
    ``ReluGrad`` by ``Relu``'s. The tape keeps only what the gradient reads: the inputs, the
    outputs or neither may be empty. The innermost gradient frame within ``depth`` frames
    counts (an op function a gradient calls runs many frames below it). None: no gradient runs.
    """
    for _ in range(depth):
        if frame is None:
            return None
        code = frame.f_code
        if code is _GRADIENT_FUNCTION:
            local = frame.f_locals
            name, ins, outs = local.get("op_name"), local.get("inputs"), local.get("outputs")
            if not isinstance(name, str):
                return None
            return (name, tuple(ins) if isinstance(ins, (tuple, list)) else (),
                    tuple(outs) if isinstance(outs, (tuple, list)) else ())
        if code is _MAYBE_COMPILE:
            op: Any = frame.f_locals.get("op")
            kind = getattr(op, "type", None)
            return (kind, tuple(op.inputs), tuple(op.outputs)) if isinstance(kind, str) else None
        frame = frame.f_back
    return None
