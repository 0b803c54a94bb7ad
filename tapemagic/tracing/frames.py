"""Find the user's frame behind an op or a host round-trip, and where in it we are.

Stdlib only (no TensorFlow import). A frame is *library* code when its file lies under the
standard library or a site-packages directory, or its module belongs to a package listed in
``_LIBRARY_PACKAGES`` (which also covers editable installs of TensorFlow or Keras); everything
else (notebook cells, scripts, the user's own modules) is user code. Results are cached per
code object, so the walk costs a few dict look-ups per frame.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from collections.abc import Callable
from types import CodeType, FrameType

from tapemagic.trace import RawLocation

_LIBRARY_PACKAGES = frozenset(
    {
        "tensorflow", "keras", "tf_keras", "tensorboard", "numpy", "absl", "google", "tapemagic",
        "IPython", "ipykernel", "traitlets", "tornado", "zmq", "jupyter_client", "pytest",
        "_pytest", "pluggy", "optree", "ml_dtypes", "h5py", "nbclient", "runpy", "asyncio",
        "contextlib", "functools", "threading", "concurrent", "wrapt", "typing", "weakref",
    }
)
# Frames that only wrap the function the user called: skipped when naming the user-facing API.
_WRAPPER_MODULES = (
    "tensorflow.python.util.",
    "tensorflow.python.framework.override_binary_operator",
    "tensorflow.python.ops.weak_tensor_ops",
    "keras.src.utils.traceback_utils",
    "contextlib",
    "functools",
    "tapemagic",
)


def _library_roots() -> tuple[str, ...]:
    roots = {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
    for getter in (site.getsitepackages, lambda: [site.getusersitepackages()]):
        try:
            roots.update(getter())
        except Exception:  # noqa: BLE001 - site may be stubbed in embedded interpreters
            pass
    roots.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    return tuple(os.path.join(os.path.realpath(r), "") for r in roots if r)


_ROOTS = _library_roots()
#: Autograph (tf.function) runs converted copies of the user's functions from generated files.
GENERATED_MARK = "__autograph_generated_file"
#: Set by the tracing session while it runs: maps (generated file, line) to the user's
#: (file, line, function), or None. Generated frames must be resolved while the function is
#: being traced, when autograph's source map is in force.
remap_generated: Callable[[str, int], tuple[str, int, str] | None] | None = None
_is_library_cache: dict[CodeType, bool] = {}
_position_cache: dict[tuple[CodeType, int], tuple[int, int | None, int | None, int | None]] = {}


def is_library(frame: FrameType) -> bool:
    """Return True when ``frame`` runs library code rather than the user's."""
    code = frame.f_code
    cached = _is_library_cache.get(code)
    if cached is not None:
        return cached
    name = frame.f_globals.get("__name__", "") or ""
    filename = code.co_filename
    result = (
        name.split(".", 1)[0] in _LIBRARY_PACKAGES
        or filename.startswith("<frozen")
        or os.path.realpath(filename).startswith(_ROOTS)
    )
    _is_library_cache[code] = result
    return result


def location_of(frame: FrameType) -> RawLocation:
    """Return the exact position ``frame`` is executing (lines 1-based, columns 0-based)."""
    return location_at(frame, frame.f_lasti)


def location_at(frame: FrameType, lasti: int) -> RawLocation:
    """Return the position of instruction ``lasti`` in ``frame`` (e.g. a traceback's)."""
    code = frame.f_code
    key = (code, lasti)
    pos = _position_cache.get(key)
    if pos is None:
        line, end_line, col, end_col = frame.f_lineno, None, None, None
        positions = getattr(code, "co_positions", None)  # Python 3.11+
        if positions is not None and lasti >= 0:
            try:
                entry = list(positions())[lasti // 2]
                if entry[0] is not None:
                    line, end_line, col, end_col = entry
            except IndexError:
                pass
        pos = (line or 0, end_line, col, end_col)
        _position_cache[key] = pos
    if GENERATED_MARK in code.co_filename and remap_generated is not None:
        origin = remap_generated(code.co_filename, pos[0])
        if origin is not None:  # the user's line; autograph's map has no columns
            return RawLocation(origin[0], origin[1], None, None, None, origin[2])
    return RawLocation(code.co_filename, pos[0], pos[1], pos[2], pos[3], code.co_name)


def user_frame(start: FrameType | None) -> tuple[FrameType | None, FrameType | None]:
    """Walk outward from ``start`` to the first user frame.

    Returns ``(user_frame, api_frame)``: ``api_frame`` is the outermost non-wrapper library frame
    below the user frame, i.e. the library function the user called (None when the user's code
    itself is ``start``).
    """
    frame = start
    api: FrameType | None = None
    while frame is not None:
        if not is_library(frame):
            return frame, api
        name = frame.f_globals.get("__name__", "") or ""
        if not name.startswith(_WRAPPER_MODULES):
            api = frame
        frame = frame.f_back
    return None, api


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
