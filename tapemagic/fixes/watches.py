"""Fixes for a ``tape.watch`` that raised (TM108), and for values read from outside (TM103/9).

TF-free; LibCST over the user's source, None when the shape differs.

- ``tape.watch(v)`` of a Keras 3 variable (it raises: a Keras ``Variable`` is not a
  ``tf.Variable``) → ``tape.watch(v.value)``, its backing ``tf.Variable``, and the same name
  passed as a gradient source of that tape → ``v.value``;
- ``tape.watch(model.inputs)`` (symbolic Keras tensors: it raises) → watch the batch the block
  feeds to ``model(...)``, first in the block, and use that batch as the gradient source;
- ``NAME = EXPR`` computed before a function (or lambda) that the tape runs reads ``NAME`` →
  that function computes ``EXPR`` itself (TM103: the value was made outside the tape);
- ``params = list(model.trainable_variables)`` taken before the model was built (an empty
  list, TM109) → the later reads of ``params`` read ``model.trainable_variables``.
"""

from __future__ import annotations

import libcst as cst

from tapemagic.fixes import dotted
from tapemagic.fixes.statements import Source, bound_names, single_statement, source_of
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit


def _watch(src: Source, line: int) -> tuple[cst.CSTNode, str, cst.BaseExpression] | None:
    stmt = src.statement(line)
    node = stmt.node if stmt else None
    if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1
            and isinstance(node.body[0], cst.Expr)):
        return None
    call = node.body[0].value
    if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "watch" and isinstance(call.func.value, cst.Name)
            and len(call.args) == 1):
        return node, call.func.value.value, call.args[0].value
    return None


def _gradient_sources(src: Source, tape: str, watched: cst.BaseExpression) -> list[Edit]:
    """Edits for ``tape.gradient(t, WATCHED)``: where WATCHED is passed as the source."""
    found: list[cst.CSTNode] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if (isinstance(call.func, cst.Attribute) and call.func.attr.value == "gradient"
                    and dotted(call.func.value) == tape and len(call.args) >= 2
                    and call.args[1].value.deep_equals(watched)):
                found.append(call.args[1].value)

    src.wrapper.module.visit(_Calls())
    return [Edit(p.start.line, p.start.column, p.end.line, p.end.column, "")
            for p in (src.positions[n] for n in found)]


def watch_value(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``tape.watch(v)`` → ``tape.watch(v.value)``, and ``v`` as a source → ``v.value``."""
    src = source_of(index, file)
    found = _watch(src, line) if src else None
    if src is None or found is None or not isinstance(found[2], (cst.Name, cst.Attribute)):
        return None
    _, tape, watched = found
    if isinstance(watched, cst.Attribute) and watched.attr.value in ("value", "inputs"):
        return None
    name = cst.Module([]).code_for_node(watched)
    pos = src.positions[watched]
    edits = [Edit(pos.start.line, pos.start.column, pos.end.line, pos.end.column,
                  f"{name}.value")]
    for edit in _gradient_sources(src, tape, watched):
        edits.append(Edit(edit.line, edit.col, edit.end_line, edit.end_col, f"{name}.value"))
    return tuple(edits)


def watch_model_input(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``tape.watch(model.inputs)`` → ``tape.watch(batch)`` first in the block (``model(batch)``).

    Only when the ``with`` block calls ``model`` on one plain name bound before the block.
    """
    src = source_of(index, file)
    found = _watch(src, line) if src else None
    stmt = src.statement(line) if src else None
    if src is None or found is None or stmt is None:
        return None
    _, tape, watched = found
    if not (isinstance(watched, cst.Attribute) and watched.attr.value == "inputs"):
        return None
    model = dotted(watched.value)
    block = src.enclosing_with(stmt)
    if block is None or not isinstance(block.body, cst.IndentedBlock):
        return None
    fed: list[str] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if dotted(call.func) == model and call.args \
                    and isinstance(call.args[0].value, cst.Name):
                fed.append(call.args[0].value.value)

    block.body.visit(_Calls())
    inside = set().union(*(bound_names(s) for s in block.body.body))
    if len(set(fed)) != 1 or fed[0] in inside:
        return None
    batch = fed[0]
    first = src.positions[block.body.body[0]]
    edits = [Edit(first.start.line, 0, first.start.line, 0,
                  " " * first.start.column + f"{tape}.watch({batch})\n"),
             Edit(stmt.line, 0, stmt.end_line + 1, 0, "")]
    edits += [Edit(e.line, e.col, e.end_line, e.end_col, batch)
              for e in _gradient_sources(src, tape, watched)]
    return tuple(sorted(edits, key=lambda e: (e.line, e.col)))


def inline_into_function(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``NAME = EXPR`` then a ``def``/``lambda`` reading ``NAME`` → the function computes it.

    For a one-line assignment to a plain name on ``line``, followed in its block by function
    definitions (or lambdas) that read ``NAME`` and never bind it: their reads become
    ``(EXPR)``. The assignment stays (other code may use the value).
    """
    found = single_statement(index, file, line)
    if found is None:
        return None
    src, stmt, small = found
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)):
        return None
    name = small.targets[0].target.value
    text = cst.Module([]).code_for_node(small.value)
    reads: list[cst.Name] = []

    class _Reads(cst.CSTVisitor):
        def __init__(self) -> None:
            self.depth = 0

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.depth += 1

        def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.depth -= 1

        def visit_Lambda(self, node: cst.Lambda) -> None:
            self.depth += 1

        def leave_Lambda(self, node: cst.Lambda) -> None:
            self.depth -= 1

        def visit_Name(self, node: cst.Name) -> None:
            if self.depth and node.value == name:
                reads.append(node)

    for later in stmt.block[stmt.index + 1:]:
        if name in bound_names(later) and not isinstance(later, cst.FunctionDef):
            break
        if isinstance(later, cst.FunctionDef) and name in bound_names(later.body):
            return None
        later.visit(_Reads())
    if not reads:
        return None
    return tuple(Edit(p.start.line, p.start.column, p.end.line, p.end.column, f"({text})")
                 for p in (src.positions[n] for n in reads))


def sources_direct(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``params = list(m.trainable_variables)`` → later reads of ``params`` read the property."""
    found = single_statement(index, file, line)
    if found is None:
        return None
    src, stmt, small = found
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)):
        return None
    value = small.value
    if isinstance(value, cst.Call) and dotted(value.func) == "list" and len(value.args) == 1:
        value = value.args[0].value
    if not (isinstance(value, cst.Attribute)
            and value.attr.value in ("trainable_variables", "trainable_weights")):
        return None
    name, text = small.targets[0].target.value, cst.Module([]).code_for_node(value)
    edits: list[Edit] = []
    positions = src.positions

    class _Reads(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name:
                pos = positions[node]
                edits.append(Edit(pos.start.line, pos.start.column, pos.end.line,
                                  pos.end.column, text))

    for later in stmt.block[stmt.index + 1:]:
        if name in bound_names(later):
            return None
        later.visit(_Reads())
    return tuple(edits) or None
