"""Statement-level quick fixes: move a line into the tape's ``with`` block, add a ``watch``.

TF-free. These edits work on whole statements of the user's source (a cell or a script), found
with LibCST (positions from ``PositionProvider``, blocks from ``ParentNodeProvider``), and they
move code only where nothing in between depends on it: a statement is moved past another only
when that other statement neither reads nor writes a name the moved one binds or reads. Every
function returns None when the code does not have the expected shape (never a guess).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit


@dataclass(frozen=True)
class Stmt:
    """A statement, the block that holds it, its index there and its first/last line and column."""

    node: cst.CSTNode
    block: Sequence[cst.CSTNode]
    index: int
    line: int
    end_line: int
    col: int


class Source:
    """One file parsed with LibCST, with the position and the block of every statement."""

    def __init__(self, text: str) -> None:
        self.wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        self.positions = self.wrapper.resolve(PositionProvider)
        self.parents = self.wrapper.resolve(ParentNodeProvider)
        self.lines = text.splitlines()

    def statement(self, line: int) -> Stmt | None:
        """Return the simple or compound statement that starts on ``line``."""
        for node, pos in self.positions.items():
            if pos.start.line == line and isinstance(
                    node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return self.statement_of(node)
        return None

    def statement_of(self, node: cst.CSTNode) -> Stmt | None:
        """Return the statement ``node`` is, with its block and place (None if not in one)."""
        parent = self.parents.get(node)
        if isinstance(parent, (cst.IndentedBlock, cst.Module)):
            block = parent.body
        else:
            return None
        pos = self.positions[node]
        index = next(i for i, n in enumerate(block) if n is node)
        return Stmt(node, block, index, pos.start.line, pos.end.line, pos.start.column)

    def code(self, stmt: Stmt) -> str:
        """Return the source lines of ``stmt``, newline-terminated."""
        return "\n".join(self.lines[stmt.line - 1:stmt.end_line]) + "\n"

    def tape_with(self, node: cst.CSTNode) -> str | None:
        """Return the ``as`` name of a ``with ...GradientTape(...) as NAME:`` statement."""
        if not isinstance(node, cst.With):
            return None
        for item in node.items:
            call = item.item
            if (isinstance(call, cst.Call) and _dotted(call.func).endswith("GradientTape")
                    and item.asname is not None and isinstance(item.asname.name, cst.Name)):
                return item.asname.name.value
        return None

    def enclosing_with(self, stmt: Stmt) -> cst.With | None:
        """Return the ``with`` statement whose body holds ``stmt``, if any."""
        parent = self.parents.get(stmt.node)
        owner = self.parents.get(parent) if parent is not None else None
        return owner if isinstance(owner, cst.With) else None


def source_of(index: SourceIndex, file: str) -> Source | None:
    """Parse ``file`` as the source index holds it (None when unknown or not valid Python)."""
    text = "".join(index.lines(file))
    if not text:
        return None
    try:
        return Source(text)
    except cst.ParserSyntaxError:
        return None


def single_statement(index: SourceIndex, file: str, line: int,
                     ) -> tuple[Source, Stmt, cst.BaseSmallStatement] | None:
    """Return the one small statement on ``line`` (``x = f()``, ``f(x)``) with its source.

    None when the file is unknown or the line holds a compound statement or several ``;``-joined
    ones: a quick fix rewrites only a statement it sees whole.
    """
    src = source_of(index, file)
    stmt = src.statement(line) if src else None
    if src is None or stmt is None or not isinstance(stmt.node, cst.SimpleStatementLine) \
            or len(stmt.node.body) != 1:
        return None
    return src, stmt, stmt.node.body[0]


def method_call_on(index: SourceIndex, file: str, line: int, method: str,
                   ) -> tuple[Source, Stmt, cst.Call, str] | None:
    """Return the statement ``X.method(NAME)`` on ``line``: its source, statement, call, NAME.

    None when the statement on ``line`` has another shape (NAME must be a plain name).
    """
    found = single_statement(index, file, line)
    if found is None:
        return None
    src, stmt, small = found
    call = small.value if isinstance(small, cst.Expr) else None
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == method and len(call.args) == 1
            and isinstance(call.args[0].value, cst.Name)):
        return None
    return src, stmt, call, call.args[0].value.value


def move_into_tape(index: SourceIndex, file: str, line: int,
                   tape_line: int | None = None) -> tuple[Edit, ...] | None:
    """Move the statement on ``line`` into the ``with tf.GradientTape()`` block of the tape.

    ``tape_line``: where the tape of the gradient call that lost the weights was made; its
    block is the one the statement goes into (another tape's block in between is passed like
    any statement). Without it, the neighbouring block. A statement before the block goes first
    in its body, one after it goes last: only when the statements between them do not use the
    names it binds or reads. One before the block whose value statements in between also read
    (a GAN step: the discriminator's tape reads ``fake`` too) is copied into the block, not
    moved, when none of them rebinds a name it reads: the tape records its own run of it. One
    after the block takes along the consecutive statements that compute from it, up to the
    tape's gradient call (the loss built from the moved value would be cut there too).
    None otherwise.
    """
    src = source_of(index, file)
    stmt = src.statement(line) if src else None
    if src is None or stmt is None or not isinstance(stmt.node, cst.SimpleStatementLine):
        return None
    names = used_names(stmt.node)
    bound = bound_names(stmt.node)
    for step in (1, -1):
        at, copy = stmt.index + step, False
        while 0 <= at < len(stmt.block):
            other = stmt.block[at]
            tape = src.tape_with(other)
            if tape is not None and (tape_line is None or _made_at(src, other, tape_line)):
                group = [stmt]
                if step == -1:
                    group = _loss_path(src, stmt, tape, stmt.block[at + 1:stmt.index])
                edits = _move(src, group, other, before=step == 1,
                              adjacent=abs(at - stmt.index) == 1)
                return edits[1:] if copy else edits
            if step == 1 and tape_line is not None and bound & used_names(other) \
                    and not bound_names(other) & names:
                copy = True  # read in between, never rebound: the block runs its own copy
            elif names & used_names(other) or bound & used_names(other):
                break
            at += step
    return None


def _made_at(src: Source, with_node: cst.CSTNode, line: int) -> bool:
    """Return True when ``line`` is in the header of the ``with`` statement ``with_node``."""
    assert isinstance(with_node, cst.With) and isinstance(with_node.body, cst.IndentedBlock)
    body = src.positions[with_node.body.body[0]]
    return src.positions[with_node].start.line <= line < body.start.line


def _loss_path(src: Source, stmt: Stmt, tape: str,
               between: Sequence[cst.CSTNode]) -> list[Stmt]:
    """Return ``stmt`` and the simple statements right after it that read what it binds.

    Stops at the tape's own gradient call, at a compound statement, at one that reads nothing
    the group binds, and before one that the statements ``between`` the block and ``stmt``
    touch (they stay where they are).
    """
    group, bound = [stmt], bound_names(stmt.node)
    touched = set().union(*(used_names(n) for n in between)) if between else set()
    for node in stmt.block[stmt.index + 1:]:
        if (not isinstance(node, cst.SimpleStatementLine) or calls_tape(node, tape)
                or not used_names(node) & bound or used_names(node) & touched):
            break
        found = src.statement(src.positions[node].start.line)
        if found is None:
            break
        group.append(found)
        bound |= bound_names(node)
    return group


def calls_tape(node: cst.CSTNode, tape: str) -> bool:
    """Return True when ``node`` calls a method of the tape (``tape.gradient(...)``)."""
    return any(isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)
               and call.func.value.value == tape for call in _walk_calls(node))


def _move(src: Source, group: list[Stmt], with_node: cst.CSTNode, before: bool,
          adjacent: bool) -> tuple[Edit, ...]:
    assert isinstance(with_node, cst.With) and isinstance(with_node.body, cst.IndentedBlock)
    body = with_node.body.body
    first, last = src.positions[body[0]], src.positions[body[-1]]
    indent = " " * first.start.column
    start, end, col = group[0].line, group[-1].end_line, group[0].col
    pieces = "\n".join(src.lines[start - 1:end]).splitlines(keepends=True)
    text = "".join(indent + piece.lstrip() if i == 0 else piece if not piece.strip()
                   else indent + piece[col:] for i, piece in enumerate(pieces)) + "\n"
    delete = Edit(start, 0, end + 1, 0, "")
    if before:
        return (delete, Edit(first.start.line, 0, first.start.line, 0, text))
    if adjacent:  # right after the block: indenting it puts it last in the block
        return tuple(Edit(s.line, 0, s.line, s.col, indent) for s in group)
    return (Edit(last.end.line + 1, 0, last.end.line + 1, 0, text), delete)


def add_watch(index: SourceIndex, file: str, line: int,
              names: Sequence[str]) -> tuple[Edit, ...] | None:
    """Insert ``TAPE.watch(NAME)`` first in the ``with`` block of the tape made on ``line``.

    Only for names bound before the ``with`` statement (in its block, or a parameter/global
    the block does not rebind). None otherwise.
    """
    src = source_of(index, file)
    stmt = src.statement(line) if src else None
    if src is None or stmt is None or not names:
        return None
    tape = src.tape_with(stmt.node)
    if tape is None or not isinstance(stmt.node, cst.With):
        return None
    body = stmt.node.body
    assert isinstance(body, cst.IndentedBlock)
    inside = set().union(*(bound_names(s) for s in body.body))
    if any(n in inside or not n.isidentifier() for n in names):
        return None
    first = src.positions[body.body[0]]
    text = "".join(" " * first.start.column + f"{tape}.watch({n})\n" for n in names)
    return (Edit(first.start.line, 0, first.start.line, 0, text),)


def watch_earlier(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """Move the ``TAPE.watch(X)`` statement on ``line`` up to just after ``X`` is made.

    The statement goes right after the last earlier statement of its block that binds ``X``
    (or first in the tape's block when none does). None when it is already there.
    """
    found = method_call_on(index, file, line, "watch")
    if found is None:
        return None
    src, stmt, call, name = found
    target = 0
    for at in range(stmt.index - 1, -1, -1):
        if name in bound_names(stmt.block[at]):
            target = at + 1
            break
    if target == 0 and src.enclosing_with(stmt) is None:
        return None
    if target == stmt.index:
        return None
    where = src.positions[stmt.block[target]].start.line
    return (Edit(where, 0, where, 0, src.code(stmt)),
            Edit(stmt.line, 0, stmt.end_line + 1, 0, ""))


def hoist_target(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """``TAPE.gradient(f(x), ...)`` after the block → compute ``f(x)`` last inside the block.

    For a gradient call on ``line`` whose target is a call computed in the argument list, and a
    ``with ... as TAPE`` block earlier in the same block of statements, with nothing between
    them that rebinds a name the target reads. The value gets the name ``loss`` (``loss_``
    when ``loss`` is taken).
    """
    src = source_of(index, file)
    stmt = src.statement(line) if src else None
    if src is None or stmt is None or not isinstance(stmt.node, cst.SimpleStatementLine):
        return None
    found = _gradient_call(stmt.node)
    if found is None:
        return None
    tape, target = found
    reads = used_names(target)
    for at in range(stmt.index - 1, -1, -1):
        other = stmt.block[at]
        if src.tape_with(other) == tape:
            break
        if reads & bound_names(other):
            return None
    else:
        return None
    assert isinstance(other, cst.With) and isinstance(other.body, cst.IndentedBlock)
    taken = set().union(*(used_names(s) for s in stmt.block))
    name = "loss" if "loss" not in taken else "loss_"
    pos = src.positions[target]
    if pos.start.line != pos.end.line:
        return None
    last = src.positions[other.body.body[-1]]
    code = cst.Module([]).code_for_node(target)
    indent = " " * src.positions[other.body.body[0]].start.column
    return (Edit(last.end.line + 1, 0, last.end.line + 1, 0, f"{indent}{name} = {code}\n"),
            Edit(pos.start.line, pos.start.column, pos.end.line, pos.end.column, name))


def _gradient_call(node: cst.CSTNode) -> tuple[str, cst.BaseExpression] | None:
    for call in _walk_calls(node):
        func = call.func
        if (isinstance(func, cst.Attribute) and func.attr.value == "gradient"
                and isinstance(func.value, cst.Name) and call.args
                and isinstance(call.args[0].value, cst.Call)):
            return func.value.value, call.args[0].value
    return None


def _walk_calls(node: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    node.visit(_Calls())
    return found


def used_names(node: cst.CSTNode) -> set[str]:
    """Every bare name in ``node`` (read or bound)."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            attr.value.visit(self)
            return False  # `x.shape`: only `x` is a name

    node.visit(_Names())
    return found


def bound_names(node: cst.CSTNode) -> set[str]:
    """Return the names a statement binds (assignment targets, for/with targets, defs, imports)."""
    found: set[str] = set()

    class _Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, t: cst.AssignTarget) -> None:
            found.update(_plain(t.target))

        def visit_AnnAssign(self, a: cst.AnnAssign) -> None:
            found.update(_plain(a.target))

        def visit_AugAssign(self, a: cst.AugAssign) -> None:
            found.update(_plain(a.target))

        def visit_For(self, f: cst.For) -> None:
            found.update(_plain(f.target))

        def visit_AsName(self, a: cst.AsName) -> None:
            found.update(_plain(a.name))

        def visit_FunctionDef(self, f: cst.FunctionDef) -> bool:
            found.add(f.name.value)
            return False

        def visit_ClassDef(self, c: cst.ClassDef) -> bool:
            found.add(c.name.value)
            return False

    node.visit(_Targets())
    return found


def _plain(target: cst.CSTNode) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_plain(e.value) for e in target.elements))
    return set()


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""
