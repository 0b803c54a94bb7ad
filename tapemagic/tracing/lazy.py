"""Start tracing when the checked code imports TensorFlow, not before.

Stdlib only (no TensorFlow import: that is the point). A cell or script that sets
``TF_CPP_MIN_LOG_LEVEL`` or ``KERAS_BACKEND`` and then imports TensorFlow must find TensorFlow
not yet imported, as it would without tapemagic, and TensorFlow's start-up lines belong in
the output of the line that imports it. When TensorFlow is already imported the session starts
at once; otherwise a finder at the front of ``sys.meta_path`` (one, while any block waits:
``imports.ImportFinder``) wraps the loader of the ``tensorflow`` package, and the session
starts right after the package has run its ``__init__`` (inside the user's ``import``), on
the thread that entered the block. The finder is removed when no block waits any more; the
module keeps its own loader.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable
from typing import Any

from tapemagic.tracing.imports import ImportFinder

_PACKAGE = "tensorflow"


def tensorflow_available() -> bool:
    """Tell whether TensorFlow is imported or importable (found on the path, not imported)."""
    if sys.modules.get(_PACKAGE) is not None:
        return True
    try:
        return importlib.util.find_spec(_PACKAGE) is not None
    except (ImportError, ValueError):  # a None entry in sys.modules: imports are blocked
        return False


#: Blocks waiting for TensorFlow, outermost first: the first import starts them all, in order, so
#: a check nested in another one is nested in its session too.
_WAITING: list[LazySession] = []


class LazySession:
    """Enter ``make()`` (a trace session) once TensorFlow is imported, inside this block.

    ``session`` is None until then, and stays None when the block never imports TensorFlow.
    ``start_error`` holds an error the session raised while starting: the user's ``import``
    goes on as without tapemagic, and the report says what happened.
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self.session: Any = None
        self.start_error: BaseException | None = None
        self._thread = threading.get_ident()

    def __enter__(self) -> LazySession:
        if sys.modules.get(_PACKAGE) is not None:
            self._start()
            if self.start_error is not None:
                raise self.start_error
        else:
            _WAITING.append(self)
            if _FINDER not in sys.meta_path:
                sys.meta_path.insert(0, _FINDER)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop_waiting()
        if self.session is not None:
            self.session.__exit__(*exc)

    @property
    def trace(self) -> Any:
        """The session's trace; None before the session ends (or when it never started)."""
        return self.session.trace if self.session is not None else None

    def started_on_import(self) -> None:
        """Start the session once ``tensorflow`` ran (from the loader), on the block's thread."""
        self._stop_waiting()
        if self.session is not None:
            return
        if threading.get_ident() == self._thread:
            self._start()
        elif self.start_error is None:  # the block's thread finds it imported: never traced
            self.start_error = RuntimeError(
                f"TensorFlow was first imported on another thread "
                f"({threading.current_thread().name}), so this block's TensorFlow calls were "
                "not traced; import TensorFlow before the check (or in the checked code, on "
                "its own thread)")

    def _start(self) -> None:
        try:
            session = self._make()
            session.__enter__()
        except Exception as error:  # noqa: BLE001 - reported; the user's import goes on
            self.start_error = error
            return
        self.session = session

    def _stop_waiting(self) -> None:
        if self in _WAITING:
            _WAITING.remove(self)
        if not _WAITING and _FINDER in sys.meta_path:
            sys.meta_path.remove(_FINDER)


def _start_waiting() -> None:
    """Start every waiting block's session, outermost first (``tensorflow`` just ran)."""
    for owner in list(_WAITING):
        owner.started_on_import()


_FINDER = ImportFinder(_PACKAGE, _start_waiting)
