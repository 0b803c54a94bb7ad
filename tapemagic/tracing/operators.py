"""Tell a NumPy binary operator from a direct ufunc call, for ``ndarray <op> tensor``.

No TensorFlow import (NumPy is looked up lazily through ``sys.modules``). Why this is needed: once
:mod:`tapemagic.tracing.hooks` gives eager tensors an ``__array_ufunc__``, ``ndarray + tensor``
no longer defers to ``Tensor.__radd__`` (NumPy's ``binop_should_defer`` only defers to a class
with ``__array_ufunc__ = None``; without one it defers by ``__array_priority__``, which tensors
set to 100). NumPy then calls ``np.add(ndarray, tensor)``, which reaches the hook exactly as a
user's ``np.add(ndarray, tensor)`` does. Plainly the first gives TensorFlow's Tensor and the
second NumPy's ndarray, so the hook must know which one the user wrote. It reads the calling
Python frame: a binary or comparison opcode is an operator; a call whose callee (or a direct
argument, as in ``functools.reduce(np.add, ...)``) is a NumPy ufunc is a ufunc call; any other
call reached NumPy through C code applying an operator (``sum()``, ``operator.add``,
``functools.reduce(operator.add, ...)``, ``divmod``).
"""

from __future__ import annotations

import ast
import builtins
import dis
import functools
import operator
import sys
from collections.abc import Callable
from types import CodeType, FrameType, ModuleType
from typing import Any

from tapemagic import frames
from tapemagic.locations import source_lines

# ufunc name -> (the operator Python applies, its in-place form): only ufuncs an operator maps
# to (NumPy's n_ops table). NumPy 2 names `/` "divide", 1.x "true_divide".
OPERATORS: dict[str, tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any] | None]] = {
    "add": (operator.add, operator.iadd),
    "subtract": (operator.sub, operator.isub),
    "multiply": (operator.mul, operator.imul),
    "true_divide": (operator.truediv, operator.itruediv),
    "divide": (operator.truediv, operator.itruediv),
    "floor_divide": (operator.floordiv, operator.ifloordiv),
    "power": (operator.pow, operator.ipow),
    "matmul": (operator.matmul, operator.imatmul),
    "remainder": (operator.mod, operator.imod),
    "divmod": (divmod, None),
    "left_shift": (operator.lshift, operator.ilshift),
    "right_shift": (operator.rshift, operator.irshift),
    "bitwise_and": (operator.and_, operator.iand),
    "bitwise_or": (operator.or_, operator.ior),
    "bitwise_xor": (operator.xor, operator.ixor),
    "less": (operator.lt, None),
    "less_equal": (operator.le, None),
    "greater": (operator.gt, None),
    "greater_equal": (operator.ge, None),
    "equal": (operator.eq, None),
    "not_equal": (operator.ne, None),
}
_OPERATOR_OPCODES = frozenset(
    op for op in dis.opmap
    if op in {"BINARY_OP", "COMPARE_OP"} or op.startswith(("BINARY_", "INPLACE_"))
)
_CALL_OPCODES = frozenset(op for op in dis.opmap if op.startswith(("CALL", "PRECALL")))
Dotted = tuple[str, ...]
_call_site_cache: dict[tuple[CodeType, int], tuple[Dotted, ...] | None] = {}


def is_operator_call(frame: FrameType) -> bool:
    """Return True when ``frame`` reached a NumPy ufunc by applying an operator, not by calling it.

    Parameters
    ----------
    frame : FrameType
        The Python frame that was executing when NumPy called ``__array_ufunc__``.

    Returns
    -------
    bool
        True for ``a + t`` and for operators applied from C (``sum([a, t])``); False for
        ``np.add(a, t)``, ``functools.reduce(np.add, ...)``, and whenever the call site cannot
        be read (no source: the ufunc reading, tapemagic's behaviour before this check).
    """
    code = frame.f_code
    index = frame.f_lasti
    if not 0 <= index < len(code.co_code):
        return False
    name = dis.opname[code.co_code[index]]
    if name in _OPERATOR_OPCODES:
        return True
    if name not in _CALL_OPCODES:
        return False  # e.g. FOR_ITER over map(...): keep the ufunc reading
    key = (code, index)
    if key not in _call_site_cache:
        _call_site_cache[key] = _call_site_names(code, index, *frames.source_of(frame))
    names = _call_site_cache[key]
    if names is None:
        return False
    return not any(_is_ufunc(_resolve(dotted, frame)) for dotted in names)


def _call_site_names(code: CodeType, index: int, file: str, shift: int,
                     ) -> tuple[Dotted, ...] | None:
    """Return the dotted names of a call's callee and direct arguments (nested calls' too).

    ``file`` and ``shift``: where the code's lines are read (a ``%%time`` body's in its cell).
    """
    positions = getattr(code, "co_positions", None)  # Python 3.11+
    if positions is None:
        return None
    try:
        line, end_line, col, end_col = list(positions())[index // 2]
    except (IndexError, ValueError):
        return None
    lines = source_lines(file)
    if None in (line, end_line, col, end_col) or not lines:
        return None
    assert line is not None and end_line is not None and col is not None and end_col is not None
    line, end_line = line + shift, end_line + shift
    if end_line > len(lines):
        return None
    # co_positions columns are UTF-8 byte offsets
    chunk = [text.encode("utf-8") for text in lines[line - 1:end_line]]
    chunk[-1] = chunk[-1][:end_col]
    chunk[0] = chunk[0][col:]
    try:
        tree = ast.parse("(\n" + b"".join(chunk).decode("utf-8") + "\n)", mode="eval")
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(tree.body, ast.Call):
        return None
    found: list[Dotted] = []
    _collect(tree.body, found)
    return tuple(found)


def _collect(call: ast.Call, found: list[Dotted]) -> None:
    for node in (call.func, *call.args, *(k.value for k in call.keywords)):
        if isinstance(node, ast.Starred):
            node = node.value
        if isinstance(node, ast.Call):
            _collect(node, found)
            continue
        dotted = _dotted(node)
        if dotted:
            found.append(dotted)


def _dotted(node: ast.expr) -> Dotted | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


def _resolve(dotted: Dotted, frame: FrameType) -> Any:
    """Look a dotted name up as the frame would, without running user code.

    Attributes are only read on modules and ufuncs (no properties, no ``__getattr__`` of
    user classes run).
    """
    first = dotted[0]
    value: Any = None
    for scope in (frame.f_locals, frame.f_globals, vars(builtins)):
        if first in scope:
            value = scope[first]
            break
    else:
        return None
    for attr in dotted[1:]:
        if not (isinstance(value, ModuleType) or _is_ufunc(value)):
            return None
        value = getattr(value, attr, None)
    return value


def _is_ufunc(value: Any) -> bool:
    numpy = sys.modules.get("numpy")
    if numpy is None or value is None:
        return False
    if isinstance(value, functools.partial):
        value = value.func
    return isinstance(value, numpy.ufunc) or isinstance(getattr(value, "__self__", None),
                                                        numpy.ufunc)


__all__ = ["OPERATORS", "is_operator_call"]
