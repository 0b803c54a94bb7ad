"""Syntactic matchers: cuts the source spells out without any dataflow.

TF-free. These look at the shape of the code only, for the few cuts whose meaning does not
depend on values flowing anywhere (a custom gradient that returns None for its variables).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint.names import Imports

CUSTOM_GRADIENT = frozenset({"tensorflow.custom_gradient", "keras.ops.custom_gradient"})


def custom_gradient(fn: ast.AST, imports: Imports) -> bool:
    """Whether ``fn`` is a function decorated with ``tf.custom_gradient``.

    Its forward ops are never differentiated: TensorFlow calls the ``grad`` function it
    returns instead (a ``tf.round`` there is the point, not a cut).
    """
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in fn.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (imports.dotted(target) or "") in CUSTOM_GRADIENT:
            return True
    return False


def _all_none(node: ast.expr) -> bool:
    """Whether ``node`` is ``None``, ``[None, ...]`` or ``[None for _ in ...]``."""
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_all_none(e) for e in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _all_none(node.elt)
    return False


def custom_gradient_nones(tree: ast.Module, imports: Imports) -> Iterator[tuple[str, ast.expr]]:
    """Yield (function name, expression) where a ``tf.custom_gradient`` grad returns None.

    The grad function takes ``variables`` (TensorFlow passes it when the decorated function
    reads variables) and returns ``(input_grads, <None for every variable>)``.
    """
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not custom_gradient(fn, imports):
            continue
        for grad in fn.body:
            if not isinstance(grad, ast.FunctionDef):
                continue
            params = [a.arg for a in [*grad.args.args, *grad.args.kwonlyargs]]
            if "variables" not in params:
                continue
            for node in ast.walk(grad):
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and \
                        len(node.value.elts) == 2 and _all_none(node.value.elts[1]):
                    yield fn.name, node.value.elts[1]
