"""The source index: every "where" question about the user's code, answered from one place.

TF-free. A ``%%gradcheck`` body is compiled with one blank line in front, so its line numbers
already equal the editor's (line 1 is the magic line). Earlier cells are found through
IPython's ``CachingCompiler._filename_map`` (filename → execution count); their lines are the
cell's own. Anything else (a script, the user's module) keeps its file and line. The body of
another cell magic (``%%time`` compiles it as ``<timed exec>``, lines counted from the body) is
moved to its cell's file and lines by ``magic_bodies.py``, which places the body's text
there with :func:`place_lines`: every reader of the user's source reads :func:`source_lines`.

One :class:`SourceIndex` serves one report: it reads each file's text once (from ``linecache``,
where IPython registers cells), parses it once, and answers the cell/line mapping, snippets, the
expression at a position, the call around a position and the NumPy chain after a conversion.
Stages never re-read ``linecache`` or re-parse on their own; positions travel as
:class:`~tapemagic.trace.RawLocation` / :class:`~tapemagic.report.model.Location` objects.
"""

from __future__ import annotations

import ast
import linecache
from dataclasses import dataclass, field

from tapemagic.graph.none_handling import none_handled_in
from tapemagic.graph.numpy_chain import Link, feeds_in, numpy_chain_in
from tapemagic.report.model import Location
from tapemagic.trace import RawLocation
from tapemagic.user_code import is_user_file

#: Text placed over a cell's own (IPython registers a ``%%time`` cell as its one-line
#: ``run_cell_magic`` call): compiled filename -> lines. Kept for the session, as linecache keeps
#: cells; never written to linecache, so IPython's tracebacks stay as they are.
_placed: dict[str, list[str]] = {}


def leading_blank_lines(text: str) -> int:
    """Return how many lines IPython's ``leading_empty_lines`` transform drops from ``text``.

    IPython/core/inputtransformer2.py: the leading empty or whitespace-only lines, none when
    every line is. ``shell.transform_cell`` applies it before a cell is compiled, so code
    compiled from a cell body counts its lines from the first line with code.
    """
    for count, line in enumerate(text.splitlines()):
        if line and not line.isspace():
            return count
    return 0


def source_lines(file: str) -> list[str]:
    """Return the lines of ``file`` as tapemagic reads it: placed text first, else linecache."""
    placed = _placed.get(file)
    return placed if placed is not None else linecache.getlines(file)


def place_lines(file: str, first: int, lines: list[str]) -> None:
    """Put ``lines`` at lines ``first``, ``first + 1``, ... (1-based) of ``file``'s text.

    The other lines stay as they were (the cell's magic call on line 1); blank lines pad.
    """
    text = list(source_lines(file))
    text += ["\n"] * (first - 1 + len(lines) - len(text))
    text[first - 1:first - 1 + len(lines)] = [line if line.endswith("\n") else line + "\n"
                                              for line in lines]
    _placed[file] = text


def unplace(file: str) -> None:
    """Drop the text placed over ``file`` (:func:`place_lines`): its own is read again."""
    _placed.pop(file, None)


@dataclass
class SourceIndex:
    """What the doors registered (compiled filename → execution count, cell id), plus caches."""

    cells: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _trees: dict[str, ast.Module | None] = field(default_factory=dict, repr=False)
    _locations: dict[RawLocation, Location] = field(default_factory=dict, repr=False)
    _chains: dict[tuple[str, int, int | None], tuple[Link, ...]] = field(
        default_factory=dict, repr=False)

    def add(self, filename: str, execution_count: int | None, cell_id: str | None) -> None:
        """Register a compiled cell."""
        self.cells[filename] = (execution_count, cell_id)

    # -- text ------------------------------------------------------------------------------------
    def lines(self, file: str) -> list[str]:
        """Return the lines of ``file`` as compiled (with line ends), read once; [] if unknown."""
        found = self._lines.get(file)
        if found is None:
            found = self._lines[file] = list(source_lines(file))
        return found

    def line(self, file: str, number: int) -> str:
        """Return line ``number`` (1-based) of ``file`` without its line end ('' if unknown)."""
        lines = self.lines(file)
        return lines[number - 1].rstrip("\n") if 0 < number <= len(lines) else ""

    def tree(self, file: str) -> ast.Module | None:
        """Return the parsed module of ``file`` (None when unknown or not valid Python)."""
        if file not in self._trees:
            source = "".join(self.lines(file))
            try:
                self._trees[file] = ast.parse(source) if source else None
            except SyntaxError:
                self._trees[file] = None
        return self._trees[file]

    # -- positions ---------------------------------------------------------------------------------
    def location(self, raw: RawLocation | None) -> Location | None:
        """Return the user-facing :class:`Location` of a raw frame position.

        None when there is none, or when ``raw`` is not in the user's code (autograph's
        generated copy, a library file): a report names only places the user can open.
        """
        if raw is None or not is_user_file(raw.file):
            return None
        found = self._locations.get(raw)
        if found is None:
            count, cell_id = self.cells.get(raw.file, (None, None))
            found = self._locations[raw] = Location(
                file=raw.file,
                line=raw.line,
                end_line=raw.end_line,
                col=raw.col,
                end_col=raw.end_col,
                source_line=self.line(raw.file, raw.line),
                function=None if raw.function == "<module>" else raw.function,
                execution_count=count,
                cell_id=cell_id,
            )
        return found

    def snippet(self, raw: RawLocation | None, limit: int = 60) -> str | None:
        """Return the source text of the expression at ``raw`` (first line only), if known."""
        if raw is None or raw.col is None:
            return None
        line = self.line(raw.file, raw.line)
        end = raw.end_col if raw.end_line in (None, raw.line) and raw.end_col else len(line)
        text = line[raw.col:end].strip()
        if not text:
            return None
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def text(self, location: Location) -> str | None:
        """Return the exact source text of a one-line ``location`` range (None otherwise)."""
        if location.col is None or location.end_col is None:
            return None
        if location.end_line not in (None, location.line):
            return None
        return self.line(location.file, location.line)[location.col:location.end_col]

    def call_at(self, raw: RawLocation | None) -> ast.Call | None:
        """Return the innermost call expression spanning ``raw``'s range, if the source has one."""
        if raw is None or raw.col is None:
            return None
        tree = self.tree(raw.file)
        if tree is None:
            return None
        best: ast.Call | None = None
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and node.lineno == raw.line
                    and node.col_offset <= raw.col
                    and (raw.end_col is None or (node.end_col_offset or 0) >= raw.end_col)):
                if best is None or node.col_offset >= best.col_offset:
                    best = node
        return best

    def line_call(self, raw: RawLocation | None) -> RawLocation | None:
        """Return the span of the call a one-line statement at ``raw``'s line makes, if one.

        For positions without columns (a graph's op traceback gives lines only): the value of
        an assignment, expression or return statement that is a call on one line
        (``pred = model(x)`` gives ``model(x)``).
        """
        tree = self.tree(raw.file) if raw is not None else None
        if raw is None or tree is None:
            return None
        found = [node for node in ast.walk(tree) if isinstance(node, (
            ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return))
            and node.lineno == raw.line]
        value = found[0].value if len(found) == 1 else None
        if not isinstance(value, ast.Call) or value.end_lineno != value.lineno:
            return None
        return RawLocation(raw.file, raw.line, raw.line, value.col_offset,
                           value.end_col_offset, raw.function)

    def assignment(self, raw: RawLocation, name: str, after: bool = False) -> RawLocation | None:
        """Return the last plain assignment to ``name`` before ``raw``, in ``raw``'s scope.

        ``after``: the first one after ``raw`` instead (a loop that rebinds the name later).
        """
        tree = self.tree(raw.file)
        if tree is None:
            return None
        scope = enclosing_function(tree, raw.line)
        found: ast.stmt | None = None
        for node in ast.walk(scope):
            if not (isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and any(
                    isinstance(t, ast.Name) and t.id == name for t in (
                        node.targets if isinstance(node, ast.Assign) else [node.target]))):
                continue
            if after and node.lineno > raw.line and (found is None
                                                      or node.lineno < found.lineno):
                found = node
            elif not after and node.lineno < raw.line and (found is None
                                                            or node.lineno > found.lineno):
                found = node
        if found is None:
            return None
        return RawLocation(raw.file, found.lineno, found.end_lineno, found.col_offset,
                           found.end_col_offset, raw.function)

    def callee_made(self, raw: RawLocation) -> RawLocation | None:
        """Return where the object called at ``raw``'s line was made (``name = Cls(...)``).

        A call on the line whose callee is a plain name that the file assigns a call's result
        exactly once (``td_loss = keras.losses.Huber(delta=0.0)``); None unless exactly one
        call on the line has such a name.
        """
        tree = self.tree(raw.file)
        if tree is None:
            return None
        names = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Name)
                 and node.lineno <= raw.line <= (node.end_lineno or node.lineno)}
        made = {name: [node for node in ast.walk(tree) if isinstance(node, ast.Assign)
                       and isinstance(node.value, ast.Call) and any(
                           isinstance(t, ast.Name) and t.id == name for t in node.targets)]
                for name in names}
        found = [nodes[0] for nodes in made.values() if len(nodes) == 1]
        if len(found) != 1:
            return None
        node = found[0]
        scope = enclosing_function(tree, node.lineno)
        return RawLocation(raw.file, node.lineno, node.end_lineno, node.col_offset,
                           node.end_col_offset, getattr(scope, "name", "<module>"))

    def ramped_factor(self, raw: RawLocation) -> bool | None:
        """Return True when a product at ``raw`` has a factor the code sets again and again.

        None when ``raw``'s source cannot be read (nothing can be said of the code's intent).

        ``loss = mse + self.aux_weight * xent`` with ``self.aux_weight = 0.0`` in ``__init__``
        and ``trainer.aux_weight = epoch / 2`` in the epoch loop: a factor that is a name or an
        attribute (never a literal ``0.0``, which is meant), assigned outside the function that
        multiplies, at two places or more or inside a loop, in ``raw``'s file or any cell.
        """
        tree = self.tree(raw.file)
        if tree is None:
            return None
        factors = {_name_of(side) for node in ast.walk(tree)
                   if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
                   and node.lineno <= raw.line <= (node.end_lineno or node.lineno)
                   for side in (node.left, node.right)} - {None}
        function = enclosing_function(tree, raw.line)
        inside = set() if function is tree else {id(n) for n in ast.walk(function)}
        counts: dict[str, int] = {}
        for module in (self.tree(f) for f in {raw.file, *self.cells}):
            for node in ast.walk(module) if module is not None else ():
                looped = isinstance(node, (ast.For, ast.While))
                for inner in ast.walk(node) if looped or isinstance(node, ast.Module) else ():
                    if id(inner) in inside or not isinstance(inner, (ast.Assign, ast.AugAssign)):
                        continue
                    for target in (inner.targets if isinstance(inner, ast.Assign)
                                   else [inner.target]):
                        name = _name_of(target)
                        if name is not None and name in factors:
                            counts[name] = counts.get(name, 0) + (2 if looped else 1)
        return any(count >= 2 for count in counts.values())

    def layer_definition(self, name: str, files: list[str]) -> RawLocation | None:
        """Return the one call in ``files`` that names a Keras layer ``name`` (``name="h"``).

        The first file with such calls decides; None when it has none or several.
        """
        for file in dict.fromkeys(files):
            tree = self.tree(file)
            if tree is None:
                continue
            found = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and any(
                k.arg == "name" and isinstance(k.value, ast.Constant) and k.value.value == name
                for k in n.keywords)]
            if len(found) == 1:
                node = found[0]
                return RawLocation(file, node.lineno, node.end_lineno, node.col_offset,
                                   node.end_col_offset, "<module>")
            if found:
                return None
        return None

    def returns_of(self, raw: RawLocation) -> RawLocation | None:
        """Return the last ``return`` of the function defined at ``raw`` (its def line), if any.

        ``raw.line`` is a code object's ``co_firstlineno``: the def line, or its first
        decorator's. Returns of functions nested inside it are not its own.
        """
        tree = self.tree(raw.file)
        if tree is None:
            return None
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if min([node.lineno, *(d.lineno for d in node.decorator_list)]) != raw.line:
                continue
            found = [n for n in ast.walk(node)
                     if isinstance(n, ast.Return) and _owner(node, n) is node]
            target: ast.stmt = max(found, key=lambda n: n.lineno) if found else node
            return RawLocation(raw.file, target.lineno, target.end_lineno, target.col_offset,
                               target.end_col_offset, node.name)
        return None

    def feeds(self, made: RawLocation, used: RawLocation) -> bool | None:
        """Return whether the value made at ``made`` can reach the statement at ``used``.

        None when the source cannot say (see ``graph.numpy_chain.feeds_in``).
        """
        if made.file != used.file:
            return None
        tree = self.tree(made.file)
        return feeds_in(tree, made.line, used.line) if tree is not None else None

    def none_handled(self, raw: RawLocation | None) -> int | None:
        """Return the line that filters the None gradients of the call at ``raw``, if any.

        See ``graph.none_handling``: a result whose None gradients are dropped or replaced.
        """
        tree = self.tree(raw.file) if raw is not None else None
        if raw is None or tree is None:
            return None
        return none_handled_in(tree, enclosing_function(tree, raw.line), raw.line)

    def numpy_chain(self, raw: RawLocation | None) -> tuple[Link, ...]:
        """Return the NumPy calls fed by the conversion at ``raw`` (see ``graph.numpy_chain``)."""
        if raw is None:
            return ()
        key = (raw.file, raw.line, raw.col)
        found = self._chains.get(key)
        if found is None:
            tree = self.tree(raw.file)
            found = self._chains[key] = (
                tuple(numpy_chain_in(tree, raw.line, raw.col)) if tree is not None else ())
        return found


def enclosing_function(tree: ast.AST, line: int) -> ast.AST:
    """Return the innermost function definition around ``line`` (1-based), else ``tree``."""
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.lineno <= line <= (node.end_lineno or node.lineno)
                and node.lineno >= getattr(scope, "lineno", 0)):
            scope = node
    return scope


def _owner(function: ast.AST, node: ast.AST) -> ast.AST:
    """Return the innermost function inside ``function`` (or itself) that contains ``node``."""
    best = function
    for inner in ast.walk(function):
        if (inner is not function and isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef))
                and inner.lineno <= getattr(node, "lineno", 0) <= (inner.end_lineno or 0)):
            best = inner
    return best


#: The name the doors use when they register cells; one object per report either way.
CellMap = SourceIndex


def _name_of(node: ast.AST) -> str | None:
    """Return the name an operand reads (``beta``, ``self.beta`` -> ``beta``), else None."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None
