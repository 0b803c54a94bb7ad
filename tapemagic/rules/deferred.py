"""A lazy value built inside a tape's ``with`` block and run after it: where TM103 belongs.

TF-free. Python runs a generator expression, and the function a ``map`` or ``filter`` applies,
only when the iterator is consumed. Built inside the tape's block and consumed after it, the
forward pass runs when the tape no longer records, at the consuming line; the line to change is
the lazy value inside the block (materialise it there: a list). Two facts of the run, read
against the source:

- the op's own frame lies in a generator expression written inside the block, yet the op ran
  off the tape (the expression ran after the block: its consumer is the line the frame's caller
  is at, not the line to change);
- the op read a weight itself (the model ran off the tape, not only the loss after it), at a
  line after the block that reads a name the block bound to ``map(...)``, ``filter(...)`` or a
  generator expression (C iterators leave no frame of their own: the consuming line is all the
  stack shows).
"""

from __future__ import annotations

import ast

from tapemagic.locations import SourceIndex
from tapemagic.trace import OpRecord, RawLocation, TapeRecord

#: Python's builtins that return an iterator calling their function argument only when consumed
_LAZY_BUILTINS = frozenset({"map", "filter"})


def lazy_place(index: SourceIndex, tape: TapeRecord | None, op: OpRecord | None,
               raw: RawLocation | None, reads_weight: bool) -> RawLocation | None:
    """Return the lazy value inside ``tape``'s block that ran ``op`` after it, if one did.

    ``raw``: the op's place (its own frame); ``reads_weight``: the op took a weight (a source
    of the gradient call) as an input, so the weights were read off the tape.
    """
    if tape is None or tape.loc is None or op is None or raw is None or op.graph:
        return None
    if raw.file != tape.loc.file:
        return None
    tree = index.tree(raw.file)
    block = _with_block(tree, tape.loc) if tree is not None else None
    if tree is None or block is None:
        return None
    first, last = block.body[0].lineno, block.end_lineno or block.lineno
    if first <= raw.line <= last:
        found = _enclosing_genexp(block, raw)
        return _span(tape.loc, found) if found is not None else None
    if raw.line <= last or not reads_weight or raw.col is None:
        return None
    for name in _names_read(tree, raw):
        bound = index.assignment(raw, name)
        if bound is None or not first <= bound.line <= last:
            continue
        value = _assigned_value(block, bound.line, name)
        if value is not None and _lazy(value):
            return _span(tape.loc, value)
    return None


def _with_block(tree: ast.AST, tape_loc: RawLocation) -> ast.With | None:
    """Return the ``with`` statement whose items made the tape at ``tape_loc``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.With) and any(
                item.context_expr.lineno == tape_loc.line
                and (tape_loc.col is None or item.context_expr.col_offset == tape_loc.col)
                for item in node.items):
            return node
    return None


def _enclosing_genexp(block: ast.With, raw: RawLocation) -> ast.GeneratorExp | None:
    """Return the generator expression in ``block`` whose span holds ``raw``'s position."""
    for node in ast.walk(block):
        if isinstance(node, ast.GeneratorExp) and _holds(node, raw):
            return node
    return None


def _holds(node: ast.expr, raw: RawLocation) -> bool:
    start, end = (node.lineno, node.col_offset), (node.end_lineno or node.lineno,
                                                  node.end_col_offset or 0)
    return start <= (raw.line, raw.col if raw.col is not None else start[1]) <= end


def _names_read(tree: ast.AST, raw: RawLocation) -> list[str]:
    """Return the names loaded inside ``raw``'s span on its line, in source order."""
    end = raw.end_col if raw.end_line in (None, raw.line) and raw.end_col else None
    found = [node for node in ast.walk(tree)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
             and node.lineno == raw.line and node.col_offset >= (raw.col or 0)
             and (end is None or (node.end_col_offset or 0) <= end)]
    return [node.id for node in sorted(found, key=lambda n: n.col_offset)]


def _assigned_value(block: ast.With, line: int, name: str) -> ast.expr | None:
    for node in ast.walk(block):
        if (isinstance(node, ast.Assign) and node.lineno == line and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets)):
            return node.value
    return None


def _lazy(value: ast.expr) -> bool:
    return isinstance(value, ast.GeneratorExp) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
        and value.func.id in _LAZY_BUILTINS)


def _span(tape_loc: RawLocation, node: ast.expr) -> RawLocation:
    """Return ``node``'s place, in the tape's scope (the block is written there)."""
    return RawLocation(tape_loc.file, node.lineno, node.end_lineno, node.col_offset,
                       node.end_col_offset, tape_loc.function)
