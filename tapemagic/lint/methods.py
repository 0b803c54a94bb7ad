"""Where a member ``self.x = ...`` of a user's class is written: its method and that scope.

TF-free, syntax only. The interpreter never runs ``__init__`` or ``build``: it evaluates a
member's assignment when the member is first read (:mod:`tapemagic.lint.objects`). The
expression names the method's parameters and locals, which are no module globals, so that
scope is rebuilt here: the method holding the assignment, which of its parameters hold host
values (hyperparameters such as ``rank=2``, a ``build``'s input shape), and the locals it
assigned before the member.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

Function = ast.FunctionDef | ast.AsyncFunctionDef

#: Annotations of parameters that hold Python scalars: never a weight, never a tensor.
_HOST_ANNOTATIONS = frozenset({"int", "float", "bool", "str", "complex"})
#: Keras methods whose parameters Keras itself passes, as shapes (host values).
_SHAPE_METHODS = frozenset({"build", "compute_output_shape"})


def member_assignment(cls: ast.ClassDef, attr: str) -> tuple[Function | None, ast.Assign] | None:
    """Return (its method or None, the statement) of the first ``self.attr = ...`` in ``cls``."""
    stmt = next((n for n in ast.walk(cls) if isinstance(n, ast.Assign)
                 for t in n.targets if isinstance(t, ast.Attribute) and t.attr == attr
                 and isinstance(t.value, ast.Name) and t.value.id == "self"), None)
    if stmt is None:
        return None
    method: Function | None = None
    for fn in ast.walk(cls):  # the innermost function holding it
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                (method is None or fn.lineno >= method.lineno) and \
                any(node is stmt for node in ast.walk(fn)):
            method = fn
    return method, stmt


def parameters(fn: Function) -> list[tuple[ast.arg, ast.expr | None, int | None]]:
    """Return a method's parameters but ``self``: (parameter, default or None, position).

    The position counts the arguments a call passes positionally (None: keyword-only,
    ``*args``, ``**kwargs``). A function nested in a method takes ``self`` from its closure.
    """
    positional = [*fn.args.posonlyargs, *fn.args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(fn.args.defaults))
    defaults += fn.args.defaults
    skip = 1 if positional and positional[0].arg == "self" else 0
    out: list[tuple[ast.arg, ast.expr | None, int | None]] = [
        (param, default, index - skip)
        for index, (param, default) in enumerate(zip(positional, defaults, strict=True))
        if index >= skip]
    out += [(param, default, None)
            for param, default in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True)]
    out += [(param, None, None) for param in (fn.args.vararg, fn.args.kwarg) if param]
    return out


def host_parameter(fn: Function, param: ast.arg, default: ast.expr | None) -> bool:
    """Whether a parameter nobody passes holds a host value (never a weight, never a tensor).

    A literal default (``rank=2``, ``alpha=4.0``, ``shape=(3, 3)``, ``act="relu"``) or a scalar
    annotation (``rank: int``) is a hyperparameter; a ``build``'s shape comes from Keras.
    ``None`` is not one: ``encoder=None`` often stands for a layer passed in.
    """
    if default is not None:
        try:
            if ast.literal_eval(default) is not None:
                return True
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
    annotation = param.annotation
    if isinstance(annotation, ast.Name) and annotation.id in _HOST_ANNOTATIONS:
        return True
    return fn.name in _SHAPE_METHODS and len(fn.args.args) == 2 and param is fn.args.args[1]


def locals_before(fn: Function, stmt: ast.stmt) -> Iterator[ast.Assign | ast.AnnAssign]:
    """Yield the assignments of ``fn``'s own scope written before ``stmt``, in source order.

    Nested functions, lambdas and classes are other scopes and are left out.
    """
    end = (stmt.lineno, stmt.col_offset)
    pending: list[ast.AST] = list(reversed(fn.body))
    while pending:
        node = pending.pop()
        if (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)) >= end:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and all(_names_only(t) for t in targets):
                yield node  # `self.x = ...` is another member, read when it is read
            continue
        pending.extend(reversed([child for child in ast.iter_child_nodes(node)
                                 if isinstance(child, ast.stmt)]))


def _names_only(target: ast.expr) -> bool:
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_names_only(e) for e in target.elts)
    if isinstance(target, ast.Starred):
        return _names_only(target.value)
    return isinstance(target, ast.Name)


def class_freeze(tree: ast.Module, cls: ast.ClassDef, attr: str) -> ast.Assign | None:
    """Return ``self.attr.trainable = False`` when that is the only ``trainable`` set on it.

    Made in the class (its ``__init__``, the Keras 2 GAN recipe), with no other assignment
    of ``<anything>.attr.trainable`` anywhere in the source: the member stays frozen for
    every method the class runs later (its ``train_step``).
    """
    found: list[ast.Assign] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if not (isinstance(target, ast.Attribute) and target.attr == "trainable"
                    and isinstance(target.value, ast.Attribute)
                    and target.value.attr == attr):
                continue
            owner = target.value.value
            mine = isinstance(owner, ast.Name) and owner.id == "self" and any(
                n is node for n in ast.walk(cls))
            frozen = isinstance(node.value, ast.Constant) and node.value.value is False
            if not (mine and frozen):
                return None  # set elsewhere, or to something else: not frozen for good
            found.append(node)
    return found[0] if len(found) == 1 else None
