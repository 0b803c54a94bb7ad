"""Map autograph-generated code back to the user's expressions (columns included).

Stdlib only (no TensorFlow import). Inside a ``tf.function`` autograph runs a converted copy of
the user's function from a generated file; its source map (``_tf_private.autograph_origin``)
gives the user's line but no columns. Both sources are parsed (as linecache holds them): the
expression the generated instruction evaluates (a call, an operator, a subscript) is found in
the generated line, and the same expression (same callee or operator, same rank among its
kind on the line) in the user's line gives the columns an eager run would report.
"""

from __future__ import annotations

from types import CodeType

Position = tuple[int, int | None, int | None, int | None]


def user_span(generated: str, position: Position, file: str, line: int,
              ) -> tuple[int, int, int] | None:
    """Return (end_line, col, end_col) in ``file`` of the expression at generated ``position``."""
    return _call_span(file, line, _generated_callee(generated, position))


def header_lines(code: CodeType) -> range:
    """Return the generated lines of ``code``'s header: its decorators and its ``def``.

    Autograph puts a decorator of its own (``@ag__.autograph_artifact``), which maps to no
    user line, above each converted function; the first mapped line of the header (the user's
    decorator, else the ``def``) is where the user's function is defined.
    """
    first = code.co_firstlineno
    body = min((line for _, _, line in code.co_lines() if line and line > first),
               default=first + 1)
    return range(first, body)


def _generated_callee(file: str, position: Position) -> tuple[str, int] | None:
    """Return (name, rank) of the function a line of autograph-generated code calls here.

    Autograph writes ``f(x)`` as ``ag__.converted_call(f, (x,), None, fscope)``, with ``f``'s
    names wrapped in ``ag__.ld(...)``: the callee is the last name of the first argument.
    Operators, comparisons and subscripts stay as they are (named ``<Sub>``, ``<Gt>``,
    ``<[]>``). ``rank`` counts the expressions of the same name before this one on its line
    (``tf.cast(tf.cast(...))``), which keep their order in the user's line.
    """
    line, end_line, col, end_col = position
    if col is None:
        return None
    calls = _calls(file).get(line, [])
    for name, last, start, end in calls:  # the expression this instruction evaluates
        if (start, last, end) == (col, end_line, end_col) and name is not None:
            rank = sum(1 for other in calls if other[0] == name and other[2] < col)
            return name, rank
    return None


def _last_name(node: object) -> str | None:
    import ast

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "converted_call" and node.args:
        return _last_name(node.args[0])  # autograph's call of the user's API
    if isinstance(node, ast.Call):
        return _last_name(node.func)
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


_Call = tuple[str | None, int, int, int]  # node key, end line, col, end col


def _key(node: object) -> str | None:
    """Name an expression that runs ops: a call by its callee, an operator by its kind."""
    import ast

    if isinstance(node, ast.Call):
        return _last_name(node)
    if isinstance(node, ast.BinOp):
        return f"<{type(node.op).__name__}>"
    if isinstance(node, ast.Subscript):
        return "<[]>"
    if isinstance(node, ast.Compare):  # autograph leaves comparisons as written
        return f"<{type(node.ops[0]).__name__}>"
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):  # `not` is a call
        return f"<{type(node.op).__name__}>"
    return None
_call_index: dict[str, tuple[int, dict[int, list[_Call]]]] = {}


def _calls(file: str) -> dict[int, list[_Call]]:
    """Index the calls of a source file (as linecache has it) by their first line."""
    import ast

    from tapemagic.locations import source_lines

    lines = source_lines(file)
    cached = _call_index.get(file)
    if cached is None or cached[0] != len(lines):
        calls: dict[int, list[_Call]] = {}
        try:
            tree = ast.parse("".join(lines))
        except (SyntaxError, ValueError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            key = _key(node)
            if key is not None and getattr(node, "end_lineno", None) is not None:
                calls.setdefault(node.lineno, []).append(  # type: ignore[attr-defined]
                    (key, node.end_lineno, node.col_offset,  # type: ignore[attr-defined]
                     node.end_col_offset or 0))  # type: ignore[attr-defined]
        for found in calls.values():
            found.sort(key=lambda c: c[2])
        cached = _call_index[file] = (len(lines), calls)
    return cached[1]


def _call_span(file: str, line: int, callee: tuple[str, int] | None,
               ) -> tuple[int, int, int] | None:
    """Return (end_line, col, end_col) of the call ``callee`` (name, rank) on ``line``.

    Read from the user's own source (a cell's text, as IPython registers it in linecache);
    None when the callee is unknown or the line has no such call.
    """
    if callee is None:
        return None
    name, rank = callee
    found = [c for c in _calls(file).get(line, []) if c[0] == name]
    return (found[rank][1], found[rank][2], found[rank][3]) if rank < len(found) else None
