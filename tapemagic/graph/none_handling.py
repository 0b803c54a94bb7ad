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
    from tapemagic.graph.analysis import CallAnalysis

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
                _tests_none(n, _bound(stmt.target)) for s in stmt.body
                for n in (ast.walk(s.test) if isinstance(s, ast.If) else _kept(s))):
            return stmt.lineno  # `if g is None: continue` / `g = zeros if g is None else g`
        if isinstance(stmt, ast.For):
            continue
        for node in _kept(stmt):
            if isinstance(node, _COMPREHENSIONS):
                for gen in node.generators:
                    bound = _bound(gen.target)
                    if _iterates(gen.iter, names, line) and any(
                            _tests_none(n, bound) for n in ast.walk(node)):
                        return node.lineno
    return None


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
        if line is None or not any(s.source.result == "ok" for s in analysis.sources):
            continue
        # a later run's None is one the code is ready for too: no "later run" note
        analysis.call.regressions = [(run, results) for run, results in
                                     analysis.call.regressions if "none" not in results]
        names = []
        for source in analysis.sources:
            if (source.verdict == "severed" and source.source.result == "none" and source.causes
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


def _bound(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _tests_none(node: ast.AST, bound: set[str]) -> bool:
    """Tell whether ``node`` is ``x is None`` / ``x is not None`` for a bound name ``x``."""
    return (isinstance(node, ast.Compare) and len(node.ops) == 1
            and isinstance(node.ops[0], (ast.Is, ast.IsNot))
            and isinstance(node.comparators[0], ast.Constant)
            and node.comparators[0].value is None
            and isinstance(node.left, ast.Name) and node.left.id in bound)
