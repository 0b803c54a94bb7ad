"""Keep the host value for the code that needs one when a conversion leaves the loss path.

TF-free. TM301's fix drops ``float(...)`` (or ``.numpy()``) from ``NAME = float(EXPR)`` inside
a tape's block, so ``NAME`` is a tensor on the loss path. Code after the block that read the
Python number (``round(NAME, 5)``, a ``%`` format, a dict key) would then get a tensor and may
raise: the program must keep working. So the conversion is made again, on ``NAME``, right
before the first later statement that reads it: the loss keeps the tensor, the rest of the
program the host value it had. Not when the tape's own call reads ``NAME`` (it is the loss).
"""

from __future__ import annotations

import libcst as cst

from tapemagic.fixes import statements
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit, Location


def unwrap_float(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``float(t.numpy())`` → ``t`` (and ``float(K.eval(t))``...): both conversions dropped."""
    from tapemagic import fixes

    if not (isinstance(node, cst.Call) and fixes.dotted(node.func) == "float"
            and len(node.args) == 1 and node.args[0].keyword is None
            and node.args[0].star == ""):
        return None
    return fixes.drop_numpy(node.args[0].value)


def keep_host_value(index: SourceIndex, location: Location, edit: Edit) -> Edit | None:
    """Return the edit that converts ``NAME`` again after the block; None when not needed.

    ``edit`` is the fix's rewrite of the conversion at ``location`` (the whole right-hand side
    of ``NAME = ...`` in a statement directly in a ``with tf.GradientTape() as TAPE:`` body).
    """
    found = statements.single_statement(index, location.file, location.line)
    original = index.text(location)
    if found is None or original is None or edit.text not in original:
        return None
    src, stmt, small = found
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)):
        return None
    value = src.positions[small.value]
    if (value.start.line, value.start.column, value.end.column) != \
            (location.line, location.col, location.end_col):
        return None  # the host value is part of a bigger expression: its type is not known
    name = small.targets[0].target.value
    block = src.enclosing_with(stmt)
    tape = src.tape_with(block) if block is not None else None
    where = src.statement_of(block) if block is not None else None
    if tape is None or where is None:
        return None
    reader = _first_reader(src, where, name, tape)
    if reader is None:
        return None
    line, col = reader
    again = original.replace(edit.text, name, 1)
    return Edit(line, 0, line, 0, f"{' ' * col}{name} = {again}\n")


def _first_reader(src: statements.Source, where: statements.Stmt, name: str,
                  tape: str) -> tuple[int, int] | None:
    """Return the line and indent to convert ``name`` at: before its first later reader.

    Looks after the ``with`` statement in its block, then after each enclosing statement up to
    the function; None when nothing reads ``name`` later or the tape's own call reads it.
    """
    at: statements.Stmt | None = where
    while at is not None:
        for node in at.block[at.index + 1:]:
            if name not in statements.used_names(node):
                continue
            if statements.calls_tape(node, tape):
                return None  # the value is the gradient call's target: it stays a tensor
            if at is where:
                pos = src.positions[node].start
                return pos.line, pos.column
            # read after the enclosing loop or branch: convert once, after the block
            return src.positions[where.node].end.line + 1, where.col
        parent = src.parents.get(at.node)
        owner = src.parents.get(parent) if parent is not None else None
        if owner is None or isinstance(owner, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            return None
        at = src.statement_of(owner)
    return None
