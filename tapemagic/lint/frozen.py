"""Python numbers a traced step may freeze: where the source binds attributes and globals.

TF-free, syntax only. A traced step reads a Python number once, when TensorFlow traces it.
Whether that number changes later, and from what, is said by the source's bindings: the
attribute of a class (``self.beta = 0.0`` in ``__init__``, ``beta = 0.0`` in its body), any
object's attribute set from outside (``trainer.beta = epoch / 4``, a callback's
``self.model.kl_weight = ...``), a module global (``beta = 0`` then ``beta += 0.1`` in the epoch
loop, or in a function that declares it ``global``). And whether a function is made once: one
defined, wrapped or compiled inside a loop's body is made (and traced) again each time round.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Bindings:
    """Which numbers start at a literal 0 and are bound again later (see the module docstring).

    Keys: ``Class.attr`` (bound by the class itself), ``.attr`` (bound on some object from
    outside its class), ``name`` (a module global).
    """

    frozen: frozenset[str]
    owned: frozenset[str]  # the ``Class.attr`` keys some class binds itself

    def attribute(self, classes: list[str], attr: str) -> bool:
        """Whether ``attr`` of an instance of ``classes`` (its class first) is such a number.

        The class that binds the attribute itself decides; with none, the bindings from
        outside do.
        """
        own = [key for key in (f"{c}.{attr}" for c in classes) if key in self.owned]
        return own[0] in self.frozen if own else f".{attr}" in self.frozen

    def global_name(self, name: str) -> bool:
        """Whether the module global ``name`` is such a number."""
        return name in self.frozen


def scan(tree: ast.Module) -> Bindings:
    """Return the :class:`Bindings` of a module."""
    writes: dict[str, list[tuple[int, ast.expr | None]]] = {}
    for key, line, value in _writes(tree):
        writes.setdefault(key, []).append((line, value))
    frozen = set()
    for key, found in writes.items():
        found.sort(key=lambda w: w[0])
        later = found[1:]
        if "." in key[1:]:  # Class.attr: bound again by the class or from outside
            later += writes.get(key[key.index("."):], [])
        if _zero(found[0][1]) and any(not _zero(value) for _, value in later):
            frozen.add(key)
    owned = frozenset(k for k in writes if not k.startswith(".") and "." in k)
    return Bindings(frozenset(frozen), owned)


def _writes(tree: ast.Module) -> list[tuple[str, int, ast.expr | None]]:
    """Return (key, line, value; None for ``+=``) of every binding :func:`scan` reads."""
    out: list[tuple[str, int, ast.expr | None]] = []
    declared = {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}
    # (node, in the module's own scope, the class whose methods hold it)
    pending: list[tuple[ast.AST, bool, str]] = [(tree, True, "")]
    while pending:
        node, top, owner = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                out += [(f"{child.name}.{t.id}", s.lineno, s.value) for s in child.body
                        if isinstance(s, ast.Assign) for t in s.targets
                        if isinstance(t, ast.Name)]  # class attributes
                pending.append((child, False, child.name))
                continue
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(child, ast.Assign):
                targets, value = child.targets, child.value
            elif isinstance(child, ast.AugAssign):
                targets = [child.target]
            line = getattr(child, "lineno", 0)
            for target in targets:
                if isinstance(target, ast.Attribute):
                    mine = owner and isinstance(target.value, ast.Name) and \
                        target.value.id == "self"
                    out.append((f"{owner if mine else ''}.{target.attr}", line, value))
                elif isinstance(target, ast.Name) and (top or target.id in declared):
                    out.append((target.id, line, value))
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            pending.append((child, inner, owner))
    return out


def made_once(tree: ast.Module) -> frozenset[ast.AST]:
    """Return the function definitions and calls of the source that no loop runs again.

    A ``tf.function`` defined (or ``model.compile`` called) in a loop's body is a new function
    each time round, traced again with the values of that time.
    """
    out: set[ast.AST] = set()
    pending: list[tuple[ast.AST, bool]] = [(tree, False)]
    while pending:
        node, looped = pending.pop()
        if not looped and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Call)):
            out.add(node)
        inner = looped or isinstance(node, (ast.For, ast.AsyncFor, ast.While))
        pending.extend((child, inner) for child in ast.iter_child_nodes(node))
    return frozenset(out)


def _zero(node: ast.expr | None) -> bool:
    """Whether ``node`` is a literal number equal to 0 (``0``, ``0.0``, ``-0.0``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and \
        node.value == 0
