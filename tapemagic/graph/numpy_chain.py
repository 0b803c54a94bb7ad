"""The NumPy chain after a host round-trip, read from the user's source (static, TF-free).

Tracing ``np.*`` calls on plain arrays would need the array returned by ``.numpy()`` to be a
subclass, which changes the user's program (``type(a) is np.ndarray``). The chain is therefore
read from the code: starting at the statement that converted a tensor, names assigned from it
are followed forward through the enclosing function (or cell); each ``np.X(...)`` call that takes
one of them is a link. It names what the user wrote, in order, with its line and columns.
"""

from __future__ import annotations

import ast
import linecache
from dataclasses import dataclass

_NUMPY_ALIASES = frozenset({"np", "numpy", "onp"})
_MAX_LINKS = 12


@dataclass(frozen=True, slots=True)
class Link:
    """One NumPy call on a value derived from the conversion: ``np.sqrt`` at line, columns."""

    label: str
    line: int
    col: int
    end_col: int
    func_end_col: int


def numpy_chain(file: str, line: int, col: int | None = None) -> list[Link]:
    """Return the NumPy calls fed (directly or through assignments) by the conversion at ``line``.

    ``col`` (0-based) is where the conversion sits on its line: NumPy calls wrapped around it in
    the same statement come first. Lines are those of ``file`` as compiled (1-based); returns
    ``[]`` when the source is not available or does not parse.
    """
    source = "".join(linecache.getlines(file))
    if not source:
        return []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return numpy_chain_in(tree, line, col)


def numpy_chain_in(tree: ast.Module, line: int, col: int | None = None) -> list[Link]:
    """Like :func:`numpy_chain`, over an already parsed module (the source index's)."""
    scope = _innermost_scope(tree, line)
    statements, start = _statements(scope, line)
    if start is None:
        return []
    tainted = _targets(start)
    links = _wrapping(start, line, col) + _calls(start, tainted, after_line=line)
    for statement in statements:
        if statement.lineno <= (start.end_lineno or start.lineno) or isinstance(statement,
                                                                                _BLOCKS):
            continue
        uses = _uses(statement, tainted)
        if not uses:
            continue
        links += _calls(statement, tainted)
        tainted |= _targets(statement)
        if len(links) >= _MAX_LINKS:
            break
    return links[:_MAX_LINKS]


def _statements(scope: ast.AST, line: int) -> tuple[list[ast.stmt], ast.stmt | None]:
    """Return the statements of ``scope`` in source order and the plain one holding ``line``."""
    statements = sorted(
        (s for s in ast.walk(scope) if isinstance(s, ast.stmt) and s is not scope
         and _scope_of(s, scope)),
        key=lambda s: (s.lineno, s.col_offset),
    )
    start = next((s for s in statements if s.lineno <= line <= (s.end_lineno or s.lineno)
                  and not isinstance(s, _BLOCKS)), None)
    return statements, start


_BLOCKS = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _innermost_scope(tree: ast.Module, line: int) -> ast.AST:
    best: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.lineno <= line <= (node.end_lineno or node.lineno)):
            if best is tree or node.lineno >= getattr(best, "lineno", 0):
                best = node
    return best


def _scope_of(statement: ast.stmt, scope: ast.AST) -> bool:
    """Return True unless ``statement`` sits in a function nested inside ``scope``."""
    for node in ast.walk(scope):
        if node is scope or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if node.lineno < statement.lineno <= (node.end_lineno or node.lineno):
            return False
    return True


def _targets(statement: ast.stmt) -> set[str]:
    names: set[str] = set()
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        targets = [statement.target]
    for target in targets:
        names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def _uses(statement: ast.stmt, tainted: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in tainted and isinstance(n.ctx, ast.Load)
               for n in ast.walk(statement))


def _calls(statement: ast.stmt, tainted: set[str], after_line: int = 0) -> list[Link]:
    found: list[Link] = []
    for node in ast.walk(statement):
        if not isinstance(node, ast.Call) or node.lineno < after_line:
            continue
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id in _NUMPY_ALIASES):
            continue
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if any(_uses_expr(a, tainted) for a in arguments):
            found.append(Link(f"np.{func.attr}", node.lineno, node.col_offset,
                              node.end_col_offset or node.col_offset,
                              func.end_col_offset or func.col_offset))
    return sorted(found, key=lambda link: (link.line, -link.col))


def _wrapping(statement: ast.stmt, line: int, col: int | None) -> list[Link]:
    """NumPy calls on ``line`` whose arguments enclose column ``col`` (``np.real(t.numpy())``)."""
    if col is None:
        return []
    found = []
    for node in ast.walk(statement):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in _NUMPY_ALIASES and node.lineno == line
                and (node.func.end_col_offset or 0) <= col < (node.end_col_offset or 0)):
            found.append(Link(f"np.{node.func.attr}", node.lineno, node.col_offset,
                              node.end_col_offset or node.col_offset,
                              node.func.end_col_offset or node.col_offset))
    return sorted(found, key=lambda link: -link.col)


def _uses_expr(expr: ast.expr, tainted: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(expr))


def feeds_in(tree: ast.Module, line: int, target_line: int) -> bool | None:
    """Return whether a value made on ``line`` can reach the statement on ``target_line``.

    Follows assigned names forward through the enclosing function (or cell), as
    :func:`numpy_chain` does. None when the source cannot say: the two lines are in different
    scopes, the value is made in a loop (a later line may feed an earlier one) or a branch
    statement between them reads it (what it chooses is not followed).
    """
    scope = _innermost_scope(tree, line)
    if _innermost_scope(tree, target_line) is not scope:
        return None
    loops = (ast.For, ast.AsyncFor, ast.While)
    for node in ast.walk(scope):
        if (isinstance(node, loops) and node.lineno <= line <= (node.end_lineno or node.lineno)
                and _scope_of(node, scope)):
            return None
    statements, start = _statements(scope, line)
    if start is None:
        return None
    if start.lineno <= target_line <= (start.end_lineno or start.lineno):
        return True
    tainted = _targets(start)
    for statement in statements:
        if statement.lineno <= (start.end_lineno or start.lineno):
            continue
        if isinstance(statement, _BLOCKS):
            if statement.lineno <= target_line and _uses(statement, tainted):
                return None  # a branch or loop reads it: what it selects is not followed
            continue
        inside = statement.lineno <= target_line <= (statement.end_lineno or statement.lineno)
        if inside:
            return _uses(statement, tainted)
        if statement.lineno > target_line:
            return None
        if _uses(statement, tainted):
            tainted |= _targets(statement)
    return None
