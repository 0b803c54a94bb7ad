"""Gradients the code expects to be None: unconnected sources of a call whose result is filtered.

TF-free, read from the user's source. Multi-task steps, heads trained in turn and GANs often take
one gradient call over every weight and then drop the None gradients or replace them by zeros
(``[tf.zeros_like(v) if g is None else g for g, v in zip(grads, variables)]``,
``[(g, v) for g, v in zip(grads, variables) if g is not None]``): the hand-written form of
``unconnected_gradients=tf.UnconnectedGradients.ZERO``. A source with no dataflow to the target
of such a call is then no cut, by design, as it is with ZERO (``graph/analysis.py``), as long as
some source of the call gets a gradient: when none does, nothing trains, and that stays a cut.
Only a filter whose result is kept counts (assigned, returned or passed to a call that is not
``print`` or a logger): ``print([g is None for g in grads])`` looks, it does not handle.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapemagic.graph.verdicts import CallAnalysis

_COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)
_LOGGERS = frozenset({"print", "debug", "info", "warning", "warn", "error", "log", "write",
                      "pprint", "display"})


def none_handled_in(tree: ast.Module, scope: ast.AST, line: int) -> int | None:
    """Return the line that filters the None gradients of the call at ``line``, if any.

    ``scope``: the function (or module) around the call; only statements of it from ``line`` on
    are read. The call's result must be bound to a name (``grads = tape.gradient(...)``) or be
    iterated in place (``zip(tape.gradient(...), variables)``).
    """
    names: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno <= line <= (node.end_lineno or line):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for stmt in _statements_from(scope, line):
        if isinstance(stmt, ast.For) and _iterates(stmt.iter, names, line) and any(
                _skips(s, _names(stmt.target)) for s in stmt.body):
            return stmt.lineno
        if isinstance(stmt, ast.For):
            continue
        for node in _kept(stmt):
            if isinstance(node, _COMPREHENSIONS) and any(
                    _iterates(gen.iter, names, line) and _keeps_gradients(node, gen)
                    for gen in node.generators):
                return node.lineno
    return None


def _keeps_gradients(node: ast.AST, gen: ast.comprehension) -> bool:
    """Tell whether a comprehension yields the gradients with their None ones handled.

    ``... for g, v in zip(grads, variables) if g is not None`` with ``g`` in the element, or an
    element ``zeros if g is None else g``. A list of the None ones (``[v.name for g, v in ...
    if g is None]``, what a user debugging the cut writes) handles nothing.
    """
    bound = _names(gen.target)
    element = [node.key, node.value] if isinstance(node, ast.DictComp) else [
        getattr(node, "elt", None)]
    used = {name for e in element if e is not None for name in _names(e)}
    if any(_tests_none(test, bound, kept=True) and _name(test) in used for test in gen.ifs):
        return True
    return any(isinstance(n, ast.IfExp) and _replaces(n, bound)
               for e in element if e is not None for n in ast.walk(e))


def _replaces(node: ast.IfExp, bound: set[str]) -> bool:
    """Tell whether ``node`` is ``zeros if g is None else g`` / ``g if g is not None else z``."""
    test = node.test
    if _tests_none(test, bound, kept=False):
        return _name(test) in _names(node.orelse)
    return _tests_none(test, bound, kept=True) and _name(test) in _names(node.body)


def _skips(stmt: ast.stmt, bound: set[str]) -> bool:
    """Tell whether a loop body statement skips the None gradients or uses only the others.

    ``if g is None: continue``, ``if g is not None: <uses g>`` or ``g = zeros if g is None else
    g``; a check that raises or prints on a None one handles nothing.
    """
    if isinstance(stmt, ast.If):
        if _tests_none(stmt.test, bound, kept=False):
            return all(isinstance(s, ast.Continue) for s in stmt.body)
        return _tests_none(stmt.test, bound, kept=True) and _name(stmt.test) in {
            n for s in stmt.body for n in _names(s)}
    return any(isinstance(n, ast.IfExp) and _replaces(n, bound) for n in _kept(stmt))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _name(test: ast.expr) -> str:
    return test.left.id if isinstance(test, ast.Compare) and isinstance(
        test.left, ast.Name) else ""


def forgive(analyses: list[CallAnalysis], handled_line: dict[str, int]) -> list[tuple[
        CallAnalysis, int, list[str]]]:
    """Mark the unconnected sources of None-handled calls as given no gradient by design.

    ``handled_line``: call id → the line filtering its result (:func:`none_handled_in`). Only a
    source whose gradient was None with no cause but "not connected" changes (verdict ``zero``,
    as ``unconnected_gradients=ZERO`` gets), in a call where another source got a gradient;
    later runs that returned None are dropped from the call's regressions.
    Returns (analysis, line, source names) for each call changed, for a note.
    """
    changed = []
    for analysis in analyses:
        line = handled_line.get(analysis.call.id)
        if line is None or not any(s.result == "ok" for s in analysis.sources):
            continue
        # a later run's None is one the code is ready for too: no "later run" note
        analysis.call.regressions = [(run, results) for run, results in
                                     analysis.call.regressions if "none" not in results]
        names = []
        for source in analysis.sources:
            if (source.verdict == "severed" and source.result == "none" and source.causes
                    and all(c.cause == "not-connected" for c in source.causes)):
                source.verdict, source.causes, source.path = "zero", [], []
                names.append(source.source.name)
        if names:
            changed.append((analysis, line, names))
    return changed


def _statements_from(scope: ast.AST, line: int) -> list[ast.stmt]:
    """Return the statements of ``scope`` ending at or after ``line``, nested ones too."""
    found = []
    for node in ast.walk(scope):
        if isinstance(node, ast.stmt) and (node.end_lineno or node.lineno) >= line and not (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and node is not scope):
            found.append(node)
    return found


def _kept(stmt: ast.stmt) -> list[ast.AST]:
    """Nodes of ``stmt`` whose value is kept: not under a print or logger call, not a test."""
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)):
        return []
    out: list[ast.AST] = []
    stack: list[ast.AST] = [stmt.value] if stmt.value is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call) and _callee(node.func) in _LOGGERS:
            continue
        if isinstance(node, ast.JoinedStr):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _iterates(expr: ast.expr, names: set[str], line: int) -> bool:
    """Tell whether ``expr`` iterates the call's result (by name, or the call on ``line``)."""
    items = expr.args if isinstance(expr, ast.Call) and _callee(expr.func) in (
        "zip", "enumerate") else [expr]
    return any((isinstance(i, ast.Name) and i.id in names)
               or (isinstance(i, ast.Call) and i.lineno <= line <= (i.end_lineno or i.lineno)
                   and _callee(i.func) in ("gradient", "jacobian"))
               for i in items)


def _tests_none(node: ast.AST, bound: set[str], kept: bool) -> bool:
    """Tell whether ``node`` is ``x is not None`` (``kept``) or ``x is None`` for bound ``x``."""
    return (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], ast.IsNot if kept else ast.Is)
            and isinstance(node.comparators[0], ast.Constant)
            and node.comparators[0].value is None
            and isinstance(node.left, ast.Name) and node.left.id in bound)
