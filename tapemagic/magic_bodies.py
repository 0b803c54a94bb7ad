"""A cell magic's body: code IPython compiled from the lines of a cell after its magic line.

No TensorFlow and no IPython import (the shell is read from ``sys.modules``). IPython turns a
``%%name line`` cell into one line, ``get_ipython().run_cell_magic(name, line, body)``, and
registers that line as the cell's text. The magic then compiles the body under a name of its
own (IPython 8-9, ``core/magics/execution.py``): ``%%time`` as ``<timed exec>`` (``<timed
eval>`` for one expression), ``%%timeit`` as ``<magic-timeit>`` (the body inside a function
``inner``), ``%%prun`` as ``<string>``; ``%%capture`` runs it as a cell of its own
(``shell.run_cell``, a file of its own in linecache). Each compiles
``shell.transform_cell(body)``, which drops the body's leading blank lines, so the body's line 1
is its first line that is not blank. Without this module a finding there reads
``<timed exec>:10`` with no source.

A frame runs a body when, walking out from it past the frames of its own file and any library
frames, the first user frame of another file is executing such a ``run_cell_magic`` call: the
cell, or another body (``%%time`` over ``%%capture``, a ``%%gradcheck`` body). Its code must be
that outermost frame's of its file or a function defined in it, or one compiled from the same
text (``%%time`` runs a last expression apart): ``<timed exec>`` is every ``%%time`` cell's
name, and a function an earlier such cell defined is not this cell's. Body line L is then line
``call line + blank lines + L`` of the calling cell's file, and the body's text as compiled is
placed there (``locations.place_lines``), so the excerpt, the call's source and the quick fixes
read those lines. A file with text of its own in linecache is moved only when that text is the
body exactly (``%%capture``); ``%%gradcheck`` registers its body with one blank line in front,
which is already the editor's lines.

A cell the user ran that starts with blank lines is moved the same way, as a whole: IPython
compiles it without them, and ``auto.py`` registers its name before it runs
(:func:`shift_cell`), so its code reads those lines down, in the editor's lines.

Not placed right: code on the magic line itself, which these magics compile with the body's
line numbers (``%%timeit``'s setup statement, in ``inner`` too; ``%%prun``'s statement, line 1
of its text), and a body whose first line is indented (IPython dedents it: columns shift).
"""

from __future__ import annotations

import ast
import functools
import linecache
import sys
from collections.abc import Callable, Iterator
from types import CodeType, FrameType

from tapemagic.locations import leading_blank_lines, place_lines, source_lines, unplace

#: Where code of a body is, for the user: (the cell's file, lines to add, function name).
Place = tuple[str, int, str]
_MAGIC_CALL = "run_cell_magic("
# Keyed by id(code), holding the code (its id stays its own), as frames.py's caches are: a
# code object is or is not a body for good, so each is walked once.
_places: dict[int, tuple[CodeType, Place | None]] = {}
#: Cells compiled without their leading blank lines (``transform_cell`` drops them) whose lines
#: the report gives as the editor's: compiled filename -> those blank lines (auto.py).
_shifted: dict[str, int] = {}


def shift_cell(filename: str, blank: int, compiled: list[str]) -> None:
    """Place the cell compiled as ``filename`` ``blank`` lines down, as the editor shows it.

    IPython compiles a cell from ``shell.transform_cell(raw_cell)``, which drops its leading
    blank lines, so its line 1 is the editor's line ``blank + 1``. Its text as compiled is
    placed there (``locations.place_lines``, never linecache: IPython's tracebacks keep its
    own numbers) and its code, functions included, is read ``blank`` lines down. ``blank`` 0
    undoes an earlier shift of that name (IPython names a cell by its text and number, and
    another cell may have both).
    """
    if blank > 0:
        _shifted[filename] = blank
        place_lines(filename, blank + 1, compiled)
    elif _shifted.pop(filename, None) is not None:
        unplace(filename)


def shifted_cells() -> int:
    """Return how many cells :func:`shift_cell` has moved down (0: every cell reads as compiled)."""
    return len(_shifted)


def place_of(frame: FrameType, is_library: Callable[[FrameType], bool]) -> Place | None:
    """Return where the code ``frame`` runs is in its cell, when it is a cell magic's body."""
    code = frame.f_code
    known = _places.get(id(code))
    if known is not None and known[0] is code:
        return known[1]
    shift = _shifted.get(code.co_filename)
    if shift is not None:
        place: Place | None = (code.co_filename, shift, code.co_name)
        _places[id(code)] = (code, place)
        return place
    try:
        place = _find(frame, is_library)
    except Exception:  # noqa: BLE001 - runs in the op callback: keep the compiled place
        place = None
    _places[id(code)] = (code, place)
    return place


def known_place(code: CodeType) -> Place | None:
    """Return the place of ``code`` if a frame of it (or of its body) was placed already."""
    known = _places.get(id(code))
    if known is not None and known[0] is code:
        return known[1]
    shift = _shifted.get(code.co_filename)
    return (code.co_filename, shift, code.co_name) if shift is not None else None


def _find(frame: FrameType, is_library: Callable[[FrameType], bool]) -> Place | None:
    found = _caller(frame, is_library)
    if found is None:
        return None
    root, (file, line, body) = found
    lines = _compiled(root.f_code.co_filename, body)
    if lines is None or not 0 < frame.f_lineno <= len(lines):
        return None
    blank = leading_blank_lines(body)
    if not _alone(file, line, ["\n"] * blank + lines):
        return None
    shift = line + blank
    place_lines(file, shift + 1, lines)
    for code in _codes(root.f_code):  # the body's functions too: called later, not walked
        name = "<module>" if code is root.f_code else code.co_name  # %%timeit's `inner`
        _places[id(code)] = (code, (file, shift, name))
    place = known_place(frame.f_code)
    if place is None and _defined_in(frame.f_code, root.f_code.co_filename, "".join(lines)):
        place = (file, shift, frame.f_code.co_name)
    return place


def _caller(frame: FrameType, is_library: Callable[[FrameType], bool],
            ) -> tuple[FrameType, tuple[str, int, str]] | None:
    """Return (outermost frame of ``frame``'s file, the magic call that runs it), or None."""
    file = frame.f_code.co_filename
    root, outer, other = frame, frame.f_back, False
    while outer is not None:
        if outer.f_code.co_filename == file:
            root, other = outer, False
        elif not is_library(outer):
            if not other:  # only library frames since the body's outermost frame
                call = _magic_call(outer, is_library)
                if call is not None:
                    return root, call
            other = True  # user code of another file (a helper the body passed a function)
        outer = outer.f_back
    return None


def _magic_call(frame: FrameType, is_library: Callable[[FrameType], bool],
                ) -> tuple[str, int, str] | None:
    """Return (file, line, body) of the ``run_cell_magic`` call ``frame`` is executing."""
    own = linecache.getlines(frame.f_code.co_filename)
    if own and (not 0 < frame.f_lineno <= len(own) or _MAGIC_CALL not in own[frame.f_lineno - 1]):
        # a file with text of its own (a cell, a module) not at such a call: asked before
        # place_of, which would walk out from it too (a deep stack of the user's frames)
        return None
    place = place_of(frame, is_library)  # the call may itself be in a body
    file, shift = (place[0], place[1]) if place is not None else (frame.f_code.co_filename, 0)
    line = frame.f_lineno + shift
    text = source_lines(file)
    if not 0 < line <= len(text) or _MAGIC_CALL not in text[line - 1]:
        return None
    try:
        tree = ast.parse(text[line - 1].strip())
    except (SyntaxError, ValueError):
        return None
    calls = [node for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr == "run_cell_magic" and len(node.args) == 3
             and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                     for a in node.args)]
    if len(calls) != 1:
        return None
    body = calls[0].args[2]
    assert isinstance(body, ast.Constant)
    return file, line, str(body.value)


def _alone(file: str, line: int, body: list[str]) -> bool:
    """Tell whether the call on ``line`` is a cell magic's, so its body may go after it.

    IPython makes a ``%%name`` cell one line: before it only blank lines (``%%gradcheck``'s)
    or outer magics' calls, after it nothing, or this body placed by an earlier run of the
    cell. A user's own ``run_cell_magic`` call among other lines keeps its body where it is:
    placing it would cover the lines after the call.
    """
    text = source_lines(file)
    if any(old.strip() and _MAGIC_CALL not in old for old in text[:line - 1]):
        return False
    return all(not old.strip() or (i < len(body) and old.rstrip("\n") == body[i].rstrip("\n"))
               for i, old in enumerate(text[line:]))


def _compiled(filename: str, body: str) -> list[str] | None:
    """Return the text IPython compiled the body from, as lines; None when it is not known."""
    module = sys.modules.get("IPython.core.getipython")
    shell = module.get_ipython() if module is not None else None  # type: ignore[attr-defined]
    if shell is None:
        return None
    try:  # what the magic itself runs; IPython's transforms keep the body's lines
        lines = str(shell.transform_cell(body)).splitlines(keepends=True)
    except Exception:  # noqa: BLE001 - a user's input transformer: leave the body where it is
        return None
    own = linecache.getlines(filename)
    if own and [line.rstrip("\n") for line in own] != [line.rstrip("\n") for line in lines]:
        return None  # the file's own text: its lines are the ones to show
    return lines


def _defined_in(code: CodeType, filename: str, text: str) -> bool:
    """Tell whether ``code`` is a function compiled from the body ``text``.

    ``%%time`` runs a body that ends with an expression as two code objects, the expression
    apart: a function the first defined, called from the expression, is in neither's constants
    then. Compiled again as IPython compiles it, the body has the same function (name, first
    line, bytecode); an earlier cell's function differs, unless its text is this one.
    """
    if code.co_name.startswith("<"):  # a module, a lambda, a comprehension: no name to match
        return False
    return (code.co_name, code.co_firstlineno, code.co_code) in _functions(filename, text)


@functools.lru_cache(maxsize=8)
def _functions(filename: str, text: str) -> frozenset[tuple[str, int, bytes]]:
    module = sys.modules.get("IPython.core.getipython")
    shell = module.get_ipython() if module is not None else None  # type: ignore[attr-defined]
    flags = int(getattr(getattr(shell, "compile", None), "flags", 0))
    try:  # the shell's flags, as its compiler has them (a cell's `from __future__` import)
        whole = compile(text, filename, "exec", flags, True)
    except (SyntaxError, ValueError, OverflowError, MemoryError):
        return frozenset()
    return frozenset((c.co_name, c.co_firstlineno, c.co_code) for c in _codes(whole))


def _codes(code: CodeType) -> Iterator[CodeType]:
    """Yield ``code`` and every code object defined in it (functions, classes, lambdas)."""
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)
