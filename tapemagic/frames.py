"""Find the user's frame behind an op or a host round-trip, and where in it we are.

No TensorFlow import. A frame is *library* code when its file lies under the
standard library or a site-packages directory, or its module belongs to a package listed in
``_LIBRARY_PACKAGES`` (which also covers editable installs of TensorFlow or Keras); everything
else (notebook cells, scripts, the user's own modules) is user code. Results are cached per
code object, so the walk costs a few dict look-ups per frame; a location is resolved to lines
and columns only when something reads it (:class:`LazyLocation`). Code a cell magic compiled
from its cell's body (``%%time``: ``<timed exec>``) is read at its cell's file and lines
(:class:`MovedLocation`, :mod:`tapemagic.magic_bodies`).
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Callable
from types import CodeType, FrameType
from typing import Any

from tapemagic import autograph, magic_bodies, user_code
from tapemagic.trace import RawLocation

_LIBRARY_PACKAGES = frozenset({
    "tensorflow", "keras", "tf_keras", "tensorboard", "numpy", "absl", "google", "tapemagic",
    "IPython", "ipykernel", "traitlets", "tornado", "zmq", "jupyter_client", "pytest",
    "_pytest", "pluggy", "optree", "ml_dtypes", "h5py", "nbclient", "runpy", "asyncio",
    "contextlib", "functools", "threading", "concurrent", "wrapt", "typing", "weakref",
})
# Frames that only wrap the function the user called: skipped when naming the user-facing API.
_WRAPPER_MODULES = (
    "tensorflow.python.util.",
    "tensorflow.python.framework.override_binary_operator",
    "tensorflow.python.ops.weak_tensor_ops",
    "keras.src.utils.traceback_utils",
    "tensorflow.python.autograph",  # converted_call: autograph's way of calling the user's API
    "contextlib",
    "functools",
    "tapemagic",
)


# Both caches are keyed by id(code): hashing a code object hashes its constants (no cached
# hash), which for a 5,000-line cell costs more than the op itself. The frame cache holds the
# code object (so its id cannot be reused) and answers (is library, is a wrapper module); the
# position tables are big, so they hold a weak reference and go with a finished cell's code.
_frame_cache: dict[int, tuple[CodeType, bool, bool]] = {}
#: ids of the code objects in the frame cache (which holds them, so an id stays its code's):
#: the user's, wrapper modules', and other library code's (which can be the API called)
_USER_CODES: set[int] = set()
_WRAPPER_CODES: set[int] = set()
_API_CODES: set[int] = set()
#: Autograph (tf.function) runs converted copies of the user's functions from generated files.
GENERATED_MARK = user_code.GENERATED_MARK
#: Set by the tracing session while it runs: maps (generated file, line) to the user's
#: (file, line, function), or None. Generated frames are resolved at once (not lazily): the
#: map is autograph's, in force only while the function is being traced.
remap_generated: Callable[[str, int], tuple[str, int, str] | None] | None = None
_Position = tuple[int, int | None, int | None, int | None]
_positions: dict[int, tuple[weakref.ref[CodeType], list[Any]]] = {}


def _classify(frame: FrameType) -> tuple[CodeType, bool, bool]:
    code = frame.f_code
    cached = _frame_cache.get(id(code))
    if cached is not None and cached[0] is code:
        return cached
    name = frame.f_globals.get("__name__", "") or ""
    filename = code.co_filename
    library = (
        name.split(".", 1)[0] in _LIBRARY_PACKAGES
        or filename.startswith("<frozen")
        or os.path.realpath(filename).startswith(user_code.LIBRARY_ROOTS)
    )
    if library:  # an editable install's files lie under no library root: keep them known
        user_code.LIBRARY_FILES.add(filename)
    entry = (code, library, name.startswith(_WRAPPER_MODULES))
    _frame_cache[id(code)] = entry
    (_USER_CODES if not library else _WRAPPER_CODES if entry[2] else _API_CODES).add(id(code))
    return entry


def is_library(frame: FrameType) -> bool:
    """Return True when ``frame`` runs library code rather than the user's."""
    return _classify(frame)[1]


class LazyLocation(RawLocation):
    """A :class:`RawLocation` that keeps only (code object, instruction offset) until read.

    The op callback runs for every op, but only the few ops that end up in a report need their
    line and columns: building them costs a walk of the code object's position table, so it is
    done on first attribute access and then kept. Reads like a plain ``RawLocation`` (same
    fields, equality and hash by value among lazy locations); copying or pickling gives a plain
    ``RawLocation``.
    """

    __slots__ = ("_code", "_lasti", "_pos")
    _code: CodeType
    _lasti: int
    _pos: _Position | None

    def __init__(self, code: CodeType, lasti: int) -> None:  # noqa: D107 - no dataclass init
        object.__setattr__(self, "_code", code)
        object.__setattr__(self, "_lasti", lasti)
        object.__setattr__(self, "_pos", None)

    def _resolve(self) -> _Position:
        pos = self._pos
        if pos is None:
            pos = _position(self._code, self._lasti)
            object.__setattr__(self, "_pos", pos)
        return pos

    @property  # type: ignore[misc]
    def file(self) -> str:  # type: ignore[override]
        """The compiled file name."""
        return self._code.co_filename

    @property  # type: ignore[misc]
    def function(self) -> str:  # type: ignore[override]
        """The code object's name."""
        return self._code.co_name

    @property  # type: ignore[misc]
    def line(self) -> int:  # type: ignore[override]
        """1-based first line."""
        return self._resolve()[0]

    @property  # type: ignore[misc]
    def end_line(self) -> int | None:  # type: ignore[override]
        """1-based last line, or None."""
        return self._resolve()[1]

    @property  # type: ignore[misc]
    def col(self) -> int | None:  # type: ignore[override]
        """0-based first column, or None."""
        return self._resolve()[2]

    @property  # type: ignore[misc]
    def end_col(self) -> int | None:  # type: ignore[override]
        """0-based end column, or None."""
        return self._resolve()[3]

    def resolved(self) -> RawLocation:
        """Return the plain :class:`RawLocation` this stands for."""
        return RawLocation(self.file, self.line, self.end_line, self.col, self.end_col,
                           self.function)

    def __reduce__(self) -> tuple[Any, ...]:
        return (RawLocation, (self.file, self.line, self.end_line, self.col, self.end_col,
                              self.function))


class MovedLocation(LazyLocation):
    """A :class:`LazyLocation` in a cell magic's body, read at its cell's file and lines.

    ``%%time`` compiles its body as ``<timed exec>``, lines counted from the body
    (:mod:`tapemagic.magic_bodies`); the place moves it to the cell, still lazily.
    """

    __slots__ = ("_place",)
    _place: magic_bodies.Place

    def __init__(self, code: CodeType, lasti: int, place: magic_bodies.Place) -> None:
        super().__init__(code, lasti)
        object.__setattr__(self, "_place", place)

    @property  # type: ignore[misc]
    def file(self) -> str:  # type: ignore[override]
        """The cell's compiled file name."""
        return self._place[0]

    @property  # type: ignore[misc]
    def function(self) -> str:  # type: ignore[override]
        """The code object's name (``<module>`` for the body itself)."""
        return self._place[2]

    @property  # type: ignore[misc]
    def line(self) -> int:  # type: ignore[override]
        """1-based first line, in the cell."""
        return self._resolve()[0] + self._place[1]

    @property  # type: ignore[misc]
    def end_line(self) -> int | None:  # type: ignore[override]
        """1-based last line in the cell, or None."""
        end = self._resolve()[1]
        return None if end is None else end + self._place[1]


def _position(code: CodeType, lasti: int) -> _Position:
    """Return (line, end_line, col, end_col) of the instruction at byte offset ``lasti``."""
    cached = _positions.get(id(code))
    if cached is not None and cached[0]() is code:
        table = cached[1]
    else:
        positions = getattr(code, "co_positions", None)  # Python 3.11+
        table = list(positions()) if positions is not None else []
        _positions[id(code)] = (weakref.ref(code), table)
    if 0 <= lasti // 2 < len(table):
        entry = table[lasti // 2]
        if entry[0] is not None:
            return (entry[0], entry[1], entry[2], entry[3])
    for start, end, line in code.co_lines():  # 3.10, or an instruction with no position
        if start <= lasti < end and line is not None:
            return (line, None, None, None)
    return (code.co_firstlineno, None, None, None)


def location_of(frame: FrameType) -> RawLocation:
    """Return the position ``frame`` is executing (lines 1-based, columns 0-based), lazily."""
    return location_at(frame, frame.f_lasti)


def location_at(frame: FrameType, lasti: int) -> RawLocation:
    """Return the position of instruction ``lasti`` in ``frame`` (e.g. a traceback's), lazily."""
    code = frame.f_code
    if remap_generated is not None and GENERATED_MARK in code.co_filename:
        position = _position(code, lasti)
        origin = remap_generated(code.co_filename, position[0])
        if origin is not None:
            return at_origin(code, lasti, origin)
    place = magic_bodies.place_of(frame, is_library)
    if place is not None:
        return MovedLocation(code, lasti, place)
    return LazyLocation(code, lasti)


def source_of(frame: FrameType) -> tuple[str, int]:
    """Return (file, lines to add) to read ``frame``'s code at: a cell magic's body is moved."""
    place = magic_bodies.place_of(frame, is_library)
    return (place[0], place[1]) if place is not None else (frame.f_code.co_filename, 0)


def definition_of(code: CodeType) -> RawLocation:
    """Return where ``code`` is defined (its first line, as ``co_firstlineno``).

    A function defined inside a converted one (a ``tf.custom_gradient``'s gradient function
    written in a ``tf.function`` step) is generated code: its definition is read at the user's
    line through autograph's source map, as an instruction's place is (:func:`location_at`).
    """
    if remap_generated is not None and GENERATED_MARK in code.co_filename:
        for line in autograph.header_lines(code):
            origin = remap_generated(code.co_filename, line)
            if origin is not None:
                return RawLocation(origin[0], origin[1], None, None, None, origin[2])
    place = magic_bodies.known_place(code)
    if place is None:
        return RawLocation(code.co_filename, code.co_firstlineno, None, None, None, code.co_name)
    return RawLocation(place[0], code.co_firstlineno + place[1], None, None, None, place[2])


def at_origin(code: CodeType, lasti: int, origin: tuple[str, int, str]) -> RawLocation:
    """Return the user's location of generated instruction ``lasti``, ``origin`` its line.

    ``origin`` is (file, line, function) from autograph's source map, which has no columns:
    they are found by matching the expression (:func:`autograph.user_span`).
    """
    position = _position(code, lasti)
    span = autograph.user_span(code.co_filename, position, origin[0], origin[1])
    if span is None:
        return RawLocation(origin[0], origin[1], None, None, None, origin[2])
    return RawLocation(origin[0], origin[1], span[0], span[1], span[2], origin[2])


def generated_line(code: CodeType, lasti: int) -> int:
    """Return the line of generated (or any) code at instruction ``lasti``."""
    return _position(code, lasti)[0]


def error_chain(error: BaseException, limit: int) -> list[BaseException]:
    """Return ``error`` and the errors it was raised from (nearest first, at most ``limit``).

    Each step follows ``__cause__``, else ``__context__``; a cycle ends the walk.
    """
    found: list[BaseException] = []
    link: BaseException | None = error
    while link is not None and len(found) < limit and all(link is not e for e in found):
        found.append(link)
        link = link.__cause__ or link.__context__
    return found


#: the thread a trace session entered on (set by the session for its run), else None
entering_thread: int | None = None


def user_frame(start: FrameType | None) -> tuple[FrameType | None, FrameType | None]:
    """Walk outward from ``start`` to the first user frame.

    Returns ``(user_frame, api_frame)``: ``api_frame`` is the outermost non-wrapper library frame
    below the user frame, i.e. the library function the user called (None when the user's code
    itself is ``start``).
    """
    frame = start
    api: FrameType | None = None
    api_codes, wrapper_codes, user_codes = _API_CODES, _WRAPPER_CODES, _USER_CODES
    # the op callback walks ~27 frames per op on a Keras model: a frame costs a set look-up
    # or two (a call per frame was most of the walk's cost on an eager ResNet50 step)
    while frame is not None:
        key = id(frame.f_code)
        if key in api_codes:
            api = frame
        elif key in user_codes:
            return frame, api
        elif key not in wrapper_codes:  # code not classified yet
            entry = _classify(frame)
            if not entry[1]:
                return frame, api
            if not entry[2]:
                api = frame
        frame = frame.f_back
    waiting = entering_thread
    if waiting is not None and threading.get_ident() != waiting:
        # a thread TensorFlow started for the traced code (a tf.distribute replica thread,
        # which only a traced thread's hooks reach): its stack starts in TensorFlow, and the
        # user's line is where the entering thread waits for it (`strategy.run`, `fit`)
        outer = sys._current_frames().get(waiting)
        while outer is not None:
            if not _classify(outer)[1]:
                return outer, api
            outer = outer.f_back
    return None, api


_api_keys: dict[int, tuple[CodeType, tuple[str, str]]] = {}


def api_key(frame: FrameType) -> tuple[str, str]:
    """Return (module, function) of an API frame, kept per code object (asked once per op)."""
    code = frame.f_code
    cached = _api_keys.get(id(code))
    if cached is not None and cached[0] is code:
        return cached[1]
    key = (frame_module(frame), code.co_name)
    _api_keys[id(code)] = (code, key)  # holds the code object: its id stays its own
    return key


def frame_module(frame: FrameType) -> str:
    """Return the module name a frame runs in."""
    return str(frame.f_globals.get("__name__", "") or "")


def library_chain(start: FrameType | None) -> list[tuple[str, str]]:
    """Return (module, function) of each library frame from ``start`` out to the user frame."""
    chain: list[tuple[str, str]] = []
    frame = start
    while frame is not None and is_library(frame):
        chain.append((frame_module(frame), frame.f_code.co_name))
        frame = frame.f_back
    return chain


def call_node(loc: RawLocation | None) -> Any:
    """Return the ``ast.Call`` at ``loc`` in the user's source, or None."""
    import ast

    from tapemagic.locations import source_lines

    if loc is None or loc.col is None or loc.end_col is None:
        return None
    lines = source_lines(loc.file)[loc.line - 1:(loc.end_line or loc.line)]
    if not lines:
        return None
    text = "".join(lines)
    end = len(text) - len(lines[-1]) + loc.end_col
    snippet = text[loc.col:end]
    try:
        node = ast.parse(snippet.strip(), mode="eval").body
    except SyntaxError:
        return None
    return (node, snippet.strip()) if isinstance(node, ast.Call) else None


def argument_text(loc: RawLocation | None, index: int) -> str | None:
    """Return the source text of positional argument ``index`` of the call at ``loc``."""
    import ast

    found = call_node(loc)
    if found is None or len(found[0].args) <= index:
        return None
    return ast.get_source_segment(found[1], found[0].args[index])


def argument_names(loc: RawLocation | None, index: int) -> list[str | None]:
    """Return the source text of each element of argument ``index`` (a list literal or one name)."""
    import ast

    found = call_node(loc)
    if found is None or len(found[0].args) <= index:
        return []
    node = found[0].args[index]
    elements = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    return [ast.get_source_segment(found[1], e) for e in elements]
