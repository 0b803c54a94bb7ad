"""``tf.py_function``'s machinery: its registry of bodies and ``EagerFunc`` (the quarantine).

Imports TensorFlow (``tensorflow/python/ops/script_ops.py``). ``py_bodies`` builds on these to
see a body run and what it hands back; the private names are read nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tensorflow.python.ops import script_ops

#: The registry a py_function op's kernel calls with the op's ``token``; its ``__call__`` runs
#: the body.
FuncRegistry = script_ops.FuncRegistry
#: The callable registered for a ``tf.py_function`` (its gradient's too).
EagerFunc = script_ops.EagerFunc


def registered_function(token: str) -> Any:
    """Return what ``token`` names in the registry (``script_ops._py_funcs``), or None."""
    return script_ops._py_funcs.get(token)


def body_tape(token: Any) -> Any:
    """Return the tape ``EagerFunc.__call__`` ran the body of ``token`` under, else None.

    ``script_ops.tape_cache`` keeps it (bytes token -> (tape, args, outputs)) from the body's
    run until its gradient runs; there is none when no gradient can be asked of the body.
    """
    entry = script_ops.tape_cache.get(token if isinstance(token, bytes) else str(token).encode())
    return entry[0] if entry else None


def is_gradient(func: Any) -> bool:
    """Return True for the ``EagerFunc`` of a py_function's gradient (``_is_grad_func``)."""
    return bool(func._is_grad_func)


def wrapped_function(func: Any) -> Any:
    """Return the Python callable an ``EagerFunc`` runs (``_func``), else ``func`` itself."""
    return getattr(func, "_func", func)


def convert_patch(before: Callable[[Any, Any], None]) -> tuple[type, str, Any]:
    """Return the patch of ``EagerFunc._convert`` that calls ``before(func, value)`` first.

    ``_convert`` turns each value a body returns into a tensor ("we replace None objects
    with zeros" while a gradient runs). The result is ``(class, attribute, replacement)``,
    applied and undone by the caller; the replacement returns what the original returns.
    """
    convert = EagerFunc._convert

    def _convert(func: Any, value: Any, dtype: Any) -> Any:
        before(func, value)
        return convert(func, value, dtype)

    _convert.__doc__ = convert.__doc__
    return EagerFunc, "_convert", _convert
