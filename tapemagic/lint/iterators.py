"""A one-shot iterator of (gradient, variable) pairs consumed before the optimizer reads it.

TF-free, syntactic. Python's ``zip``, ``map``, ``filter``, ``enumerate``, ``reversed`` and
``iter`` return iterators: the first loop over one consumes it, and every later reader gets
nothing. ``grads_and_vars = zip(grads, model.trainable_variables)``, a loop that logs each
gradient's norm, then ``optimizer.apply_gradients(grads_and_vars)``: the optimizer gets no
pair and no weight is updated (Keras 3 raises inside it). So does an optimizer given a list
that a second comprehension made of it (the pairs split between two optimizers, as larq's Bop
did: larq/larq#287). Certain only in straight-line code:
the binding and both readers are statements of one block (a reader inside an ``if`` or a
loop body may not run), readers that surely consume (a ``for``, a list comprehension,
``list(...)`` and the like, ``apply_gradients``), the name not bound again between.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

#: Builtins that return a one-shot iterator.
_ITERATORS = frozenset({"zip", "map", "filter", "enumerate", "reversed", "iter"})
#: Builtins that consume every element of their first argument.
_CONSUMERS = frozenset({"list", "tuple", "set", "dict", "sorted", "sum", "any", "all", "max",
                        "min"})
_EAGER_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp)


def consumed_twice(tree: ast.Module) -> Iterator[tuple[ast.Assign, str, str]]:
    """Yield (binding, name, first reader's text) for each iterator read again by an optimizer."""
    shadowed = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Store)} | {
        a.asname or a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names} | {n.name for n in ast.walk(tree)
                             if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    for body in _blocks(tree):
        for index, stmt in enumerate(body):
            name = _iterator_binding(stmt, shadowed)
            if name is None:
                continue
            readers: list[tuple[int, ast.AST]] = []
            for at, later in enumerate(body[index + 1:], index + 1):
                readers += [(at, n) for r in _heads(later) for n in ast.walk(r)
                            if _consumes(n, name, r)]
                if _rebinds(later, name):
                    break
            if any(_applies(n, name) or _feeds_optimizer(body, at, n)
                   for at, n in readers[1:]):
                yield stmt, name, _describe(readers[0][1])  # type: ignore[misc]


def _blocks(tree: ast.Module) -> Iterator[list[ast.stmt]]:
    """Yield every statement list of the module (bodies of functions, loops, branches)."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            found = getattr(node, field, None)
            if isinstance(found, list) and found and isinstance(found[0], ast.stmt):
                yield found


def _iterator_binding(stmt: ast.stmt, shadowed: set[str]) -> str | None:
    """Return ``name`` for ``name = zip(...)`` (a builtin the source does not rebind)."""
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or \
            not isinstance(stmt.targets[0], ast.Name):
        return None
    value = stmt.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
            value.func.id in _ITERATORS and value.func.id not in shadowed:
        return stmt.targets[0].id
    return None


def _heads(stmt: ast.stmt) -> list[ast.AST]:
    """Return the parts of ``stmt`` that surely run when it does (not a compound's body)."""
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt]  # its loop reads the iterator (its body is only run per element)
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [i.context_expr for i in stmt.items]
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        return []
    return [stmt]


def _describe(reader: ast.AST) -> str:
    """Return a short text for the reader that consumed the iterator first."""
    line = getattr(reader, "lineno", 0)
    if isinstance(reader, (ast.For, ast.AsyncFor)):
        return f"the `for` loop on line {line}"
    text = ast.unparse(reader)
    return f"`{text if len(text) <= 50 else text[:47] + '...'}` on line {line}"


def _is(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _consumes(node: ast.AST, name: str, head: ast.AST) -> bool:
    """Whether ``node`` surely reads every element of the iterator ``name``."""
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return node is head and _is(node.iter, name)
    if isinstance(node, _EAGER_COMPREHENSIONS):
        return _is(node.generators[0].iter, name)
    if isinstance(node, ast.Call) and node.args and _is(node.args[0], name):
        func = node.func
        return (isinstance(func, ast.Name) and func.id in _CONSUMERS) or \
            (isinstance(func, ast.Attribute) and func.attr == "apply_gradients")
    return False


def _applies(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr == "apply_gradients" and bool(node.args) and _is(node.args[0], name)


def _feeds_optimizer(body: list[ast.stmt], at: int, reader: ast.AST) -> bool:
    """Whether ``name = <reader>`` at ``body[at]`` is handed to a later ``apply_gradients``.

    ``float_pairs = [(g, v) for g, v in pairs if ...]`` after another comprehension consumed
    ``pairs``: the list is empty, and the optimizer given it updates nothing.
    """
    stmt = body[at]
    if not isinstance(stmt, ast.Assign) or stmt.value is not reader or len(stmt.targets) != 1 \
            or not isinstance(stmt.targets[0], ast.Name):
        return False
    made = stmt.targets[0].id
    return any(_applies(n, made) for later in body[at + 1:] for r in _heads(later)
               for n in ast.walk(r))


def _rebinds(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for n in ast.walk(stmt))
