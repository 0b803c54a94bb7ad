"""Where the user set a layer's initial weights to values that start its units dead.

TF-free; read from the source index. A dead ReLU found on the first checked step of a layer
whose weights the user initialised to one value for every element (``kernel_initializer=
"zeros"``, ``bias_initializer=Constant(-10.0)``) is dead because of those initial values, not
because training drove it there: the line to change is the initialiser argument, and the
layer's line stays in the finding's path. Keras' own defaults (a random kernel, a zero bias)
are not the user's choice and are never blamed, nor is any random initialiser.
"""

from __future__ import annotations

import ast

from tapemagic.locations import SourceIndex
from tapemagic.trace import RawLocation

#: initialisers that give every element one value (Keras' names, classes and functions)
_CONSTANT = frozenset({"zeros", "ones", "constant", "Zeros", "Ones", "Constant"})


def user_initializer(index: SourceIndex, layer: RawLocation) -> RawLocation | None:
    """Return the keyword argument of the layer call at ``layer`` that fixes its start values.

    A ``kernel_initializer`` of one value (zeros, ones, a constant: every unit computes the
    same pre-activation), or a ``bias_initializer`` that is a negative constant (every
    pre-activation starts below a ReLU's threshold); given inline or as a name bound once
    before the call. None when the call sets no such initialiser.
    """
    tree = index.tree(layer.file)
    if tree is None:
        return None
    call = next((n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and n.lineno == layer.line and n.col_offset == layer.col), None)
    if call is not None and isinstance(call.func, ast.Call):
        call = call.func  # a layer made and applied at once: `Dense(...)(h)`
    if call is None:
        return None
    for keyword in call.keywords:
        if keyword.arg not in ("kernel_initializer", "bias_initializer"):
            continue
        value = _bound(tree, keyword.value, call.lineno)
        if value is None or not _constant(value):
            continue
        if keyword.arg == "bias_initializer" and not _negative(value):
            continue  # a zero bias is Keras' default: nothing the user chose
        return RawLocation(layer.file, keyword.value.lineno, keyword.value.end_lineno,
                           keyword.value.col_offset, keyword.value.end_col_offset,
                           layer.function)
    return None


def _bound(tree: ast.Module, value: ast.expr, line: int) -> ast.expr | None:
    """Return ``value``, or for a name the value of its one assignment before ``line``."""
    if not isinstance(value, ast.Name):
        return value
    found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and n.lineno < line
             and any(isinstance(t, ast.Name) and t.id == value.id for t in n.targets)]
    return found[0] if len(found) == 1 else None


def _constant(value: ast.expr) -> bool:
    if isinstance(value, ast.Constant):
        return value.value in _CONSTANT
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        return name in _CONSTANT
    return False


def _negative(value: ast.expr) -> bool:
    """Return True for ``Constant(v)`` with ``v`` a negative number written in the call."""
    if not isinstance(value, ast.Call):
        return False
    args = [*value.args, *(k.value for k in value.keywords if k.arg == "value")]
    if not args:
        return False
    try:
        number = ast.literal_eval(args[0])
    except ValueError:
        return False
    return isinstance(number, (int, float)) and number < 0
