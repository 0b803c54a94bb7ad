"""Trainable variables a compiled Keras loss closes over: ``fit`` never trains them (TM114).

TF-free. ``model.compile(loss=fn)`` hands Keras a function; ``fit`` differentiates the loss
with respect to ``model.trainable_variables`` only (``keras/src/backend/tensorflow/
trainer.py``, ``train_step``), and Keras tracks no variable a loss function reads: a
``tf.Variable`` the loss factory made and closed over (a learned noise level, a learned
temperature) is read on the loss path, gets no gradient, and keeps its initial value.

Found from the interpretation (:mod:`tapemagic.lint.context`'s Keras ``compile`` gradient
calls): a variable root the compiled loss reads live, made by ``tf.Variable``/
``keras.Variable`` in the source, trainable, that no weight list of the model holds and no
gradient call of the source takes as a source, and made with ``trainable=True`` (a variable
that only holds a loss factory's class weights is no weight meant to learn). Left alone,
precision first, when the source writes it (``assign``, ``set_value``: a KL weight a callback
anneals) or hands it over (a list of sources, a ``var_list``): someone else may train it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tapemagic.lint import untracked
from tapemagic.lint.names import VARIABLE
from tapemagic.lint.values import Site

if TYPE_CHECKING:
    from tapemagic.lint.context import LintContext

#: Calls that write a variable's value from outside (``K.set_value(v, x)``).
_SETTERS = frozenset({"set_value", "batch_set_value"})


def compiled_loss_variables(ctx: LintContext) -> Iterator[ast.Call]:
    """Yield each ``tf.Variable(...)`` call only a compiled loss reads (module docstring)."""
    trained = frozenset().union(*(run.roots.expand(call.sources) for call, run in ctx.calls))
    calls = {Site.of(n): n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)
             and ctx.imports.dotted(n.func) in VARIABLE}
    seen: set[int] = set()
    for call, run in ctx.calls:
        if call.tape is not None or not _compile(call.node):
            continue
        for root in sorted(call.target.live):
            made = run.made.get(root)
            variable = calls.get(made) if made is not None else None
            if variable is None or id(variable) in seen or root in trained or \
                    root in run.untrainable or root in run.assigned or \
                    run.roots.covered(root, call.sources) or not meant_to_train(variable):
                continue
            if _used_elsewhere(ctx.tree, variable, ctx.parents):
                continue
            seen.add(id(variable))
            yield variable


def meant_to_train(variable: ast.Call) -> bool:
    """Whether the call says ``trainable=True``.

    A variable made only to hold a constant (the class weights a loss factory was given) is
    no weight anyone meant to learn: precision first, only the explicit flag counts.
    """
    return untracked.trainable(variable) and any(
        k.arg == "trainable" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in variable.keywords)


def _compile(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr == "compile"


def _used_elsewhere(tree: ast.Module, variable: ast.Call,
                    parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether the source writes the variable or hands it over as a weight anywhere.

    The variable's names are what it was bound to (``log_noise = tf.Variable(...)``) and the
    attributes it was stored under (``loss.log_noise = log_noise``). Handed over: an element
    of a collection of weights (:func:`_collected`), or any argument of a call at module
    level but a value read through a method (``v.numpy()``). A read inside a function (the
    loss's own ``tf.exp(-log_noise)``) is the use this hint is about.
    """
    bound = parents.get(variable)
    if not isinstance(bound, ast.Assign) or len(bound.targets) != 1 or \
            not isinstance(bound.targets[0], ast.Name):
        return True  # kept somewhere we do not follow: say nothing
    names = {bound.targets[0].id}
    for node in ast.walk(tree):  # `holder.attr = name`: the attribute is another name of it
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and \
                node.value.id in names:
            names |= {t.attr for t in node.targets if isinstance(t, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and any(
                _last(e) in names for e in node.elts) and _collected(node, parents):
            return True
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr.startswith("assign") and \
                _last(func.value) in names:
            return True
        if _last(func) in _SETTERS and node.args and _last(node.args[0]) in names:
            return True
        if not _inside_function(node, parents) and _passed(node, names):
            return True
    return False


def _collected(node: ast.List | ast.Tuple | ast.Set, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether a literal holding the variable is a collection of weights, not a result.

    A list or set is (a source list); a tuple only where it is handed on (an argument, a
    concatenation): ``return loss, temperature`` gives the caller both, and that is no use.
    """
    parent = parents.get(node)
    return not isinstance(node, ast.Tuple) or isinstance(parent, (ast.Call, ast.keyword,
                                                                   ast.BinOp))


def _passed(node: ast.Call, names: set[str]) -> bool:
    """Whether a call takes the variable itself, not a value read from it."""
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        for part in ast.walk(arg):
            if _last(part) in names and not _read_through(part, arg):
                return True
    return False


def _read_through(part: ast.AST, arg: ast.AST) -> bool:
    """Whether ``part`` is only read through a method call inside ``arg`` (``v.numpy()``)."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.value is part and not node.func.attr.startswith("assign")
               for node in ast.walk(arg))


def _last(node: ast.AST) -> str:
    """Return the last identifier of a name or attribute chain (``a.b.c`` -> ``c``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _inside_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    while parent is not None:
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return True
        parent = parents.get(parent)
    return False
