"""Quick fixes that rewrite one statement, or a statement and the reads after it in its block.

TF-free. Built on :mod:`tapemagic.fixes.statements` (LibCST positions and blocks); each
function returns None when the code does not have its shape.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from tapemagic.fixes import dotted, precedence
from tapemagic.fixes.statements import (
    bound_names,
    method_call_on,
    single_statement,
    source_of,
    used_names,
)
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit

SmallTransform = Callable[[cst.BaseSmallStatement], cst.BaseSmallStatement | None]


def rewrite_statement(index: SourceIndex, file: str, line: int,
                      transform: SmallTransform) -> tuple[Edit, ...] | None:
    """Replace the one-line simple statement on ``line`` by ``transform``'s result."""
    text = index.line(file, line)
    stripped = text.lstrip()
    indent = len(text) - len(stripped)
    try:
        node = cst.parse_statement(stripped)
    except cst.ParserSyntaxError:
        return None
    if not isinstance(node, cst.SimpleStatementLine) or len(node.body) != 1:
        return None
    new = transform(node.body[0])
    if new is None:
        return None
    old_code = cst.Module([]).code_for_node(node.body[0].with_changes(
        semicolon=cst.MaybeSentinel.DEFAULT))
    if not stripped.startswith(old_code):
        return None
    code = cst.Module([]).code_for_node(new)
    return (Edit(line, indent, line, indent + len(old_code), code),)


def assign_to_use(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``v.assign(t)`` then reads of ``v`` → drop the assignment and read ``t`` directly.

    For a statement ``X.assign(NAME)`` on ``line`` (``NAME`` a plain name) followed, in the same
    block, by reads of ``X`` and no other write to ``X`` or rebinding of ``NAME``. The reads are
    replaced by ``NAME``; the assignment line is removed.
    """
    found = method_call_on(index, file, line, "assign")
    if found is None:
        return None
    src, stmt, call, value = found
    assert isinstance(call.func, cst.Attribute)
    target = call.func.value
    edits = [Edit(stmt.line, 0, stmt.end_line + 1, 0, "")]
    for later in stmt.block[stmt.index + 1:]:
        if value in bound_names(later):
            return None
        for node in _equal_nodes(later, target):
            parent = src.parents.get(node)
            if isinstance(parent, cst.Attribute) and parent.value is node \
                    and parent.attr.value.startswith("assign"):
                return None  # written again
            pos = src.positions[node]
            edits.append(Edit(pos.start.line, pos.start.column, pos.end.line,
                              pos.end.column, value))
    return tuple(edits) if len(edits) > 1 else None


def _equal_nodes(root: cst.CSTNode, target: cst.BaseExpression) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class _Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, type(target)) and node.deep_equals(target):
                found.append(node)
                return False
            return True

    root.visit(_Find())
    return found


def branch_to_where(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``if c: y = a`` / ``else: y = b`` → ``y = tf.where(c, a, b)`` (one line).

    Only for an ``if`` on ``line`` with an ``else`` (no ``elif``) whose two branches are one
    assignment each, to the same plain name.
    """
    src = source_of(index, file)
    stmt = src.statement(line) if src else None
    if src is None or stmt is None or not isinstance(stmt.node, cst.If):
        return None
    node = stmt.node
    if not isinstance(node.orelse, cst.Else):
        return None
    sides = [_single_assign(node.body), _single_assign(node.orelse.body)]
    if sides[0] is None or sides[1] is None or sides[0][0] != sides[1][0]:
        return None
    where = precedence.call("tf.where", node.test, sides[0][1], sides[1][1])  # (a, b) kept
    text = f"{sides[0][0]} = {precedence.code(where)}"
    end = src.positions[node].end
    return (Edit(stmt.line, stmt.col, end.line, end.column, text),)


def _single_assign(block: cst.BaseSuite) -> tuple[str, cst.BaseExpression] | None:
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    assign = line.body[0]
    if (isinstance(assign, cst.Assign) and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)):
        return assign.targets[0].target.value, assign.value
    return None


#: What the initialiser fix changes (said in the fix's title).
NEW_INITIAL_WEIGHTS = ("the layer starts from new random weights instead of zeros, so the "
                       "loss changes from the first step on")


def zero_initializer(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``kernel_initializer="zeros"`` of the layer defined on ``line`` → ``"glorot_uniform"``.

    All-zero kernels before a ReLU give every unit the same zero pre-activation, so no unit is
    ever active; Keras' default initialiser breaks the symmetry.
    """
    src = source_of(index, file)
    if src is None:
        return None
    for node, pos in src.positions.items():
        if isinstance(node, cst.Call) and pos.start.line == line:
            for arg in node.args:
                if (arg.keyword is not None and arg.keyword.value == "kernel_initializer"
                        and isinstance(arg.value, cst.SimpleString)
                        and arg.value.evaluated_value == "zeros"):
                    at = src.positions[arg.value]
                    quote = arg.value.value[0]
                    return (Edit(at.start.line, at.start.column, at.end.line, at.end.column,
                                 f"{quote}glorot_uniform{quote}"),)
    return None


def create_once(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``self.w = tf.Variable(...)`` on every call → created on the first call only.

    The statement is wrapped in ``if getattr(self, "w", None) is None:`` so later calls reuse
    the variable the sources (and the optimizer) hold.
    """
    found = single_statement(index, file, line)
    if found is None:
        return None
    src, stmt, small = found
    target = _variable_target(small)
    if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
        return None
    owner, attr = target.value.value, target.attr.value
    indent = " " * stmt.col
    edits = [Edit(stmt.line, 0, stmt.line, 0,
                  f'{indent}if getattr({owner}, "{attr}", None) is None:\n')]
    edits += [Edit(n, 0, n, 0, "    ") for n in range(stmt.line, stmt.end_line + 1)]
    return tuple(edits)


def create_before_loop(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``v = tf.Variable(...)`` inside a training loop → created once, right before the loop.

    Only when the loop (the nearest ``for``/``while`` around it, in the same function) binds
    none of the names the creation reads: the one variable is then made from the same values.
    """
    found = single_statement(index, file, line)
    if found is None:
        return None
    src, stmt, small = found
    if not (isinstance(small, cst.Assign) and isinstance(_variable_target(small), cst.Name)):
        return None
    node: cst.CSTNode | None = stmt.node
    while node is not None and not isinstance(node, (cst.For, cst.While)):
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            return None
        node = src.parents.get(node)
    loop = src.statement_of(node) if node is not None else None
    if loop is None or stmt.end_line != stmt.line or used_names(small.value) & bound_names(
            loop.node):
        return None
    text = " " * loop.col + src.lines[stmt.line - 1][stmt.col:] + "\n"
    return (Edit(loop.line, 0, loop.line, 0, text), Edit(stmt.line, 0, stmt.line + 1, 0, ""))


def _variable_target(small: cst.BaseSmallStatement) -> cst.BaseAssignTargetExpression | None:
    """Return what ``TARGET = ....Variable(...)`` assigns to (one target), else None."""
    if (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.value, cst.Call)
            and dotted(small.value.func).split(".")[-1] == "Variable"):
        return small.targets[0].target
    return None
