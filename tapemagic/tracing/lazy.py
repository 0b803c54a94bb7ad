"""Start tracing when the checked code imports TensorFlow, not before.

Stdlib only (no TensorFlow import: that is the point). A cell or script that sets
``TF_CPP_MIN_LOG_LEVEL`` or ``KERAS_BACKEND`` and then imports TensorFlow must find TensorFlow
not yet imported, as it would without tapemagic, and TensorFlow's start-up lines belong in
the output of the line that imports it. When TensorFlow is already imported the session starts
at once; otherwise a finder at the front of ``sys.meta_path`` (one, while any block waits)
wraps the loader of the ``tensorflow`` package, and the session starts right after the package
has run its ``__init__`` (inside the user's ``import``), on the thread that entered the block.
The finder is removed when no block waits any more; the module keeps its own loader.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

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


class _Finder(importlib.abc.MetaPathFinder):
    """Find ``tensorflow`` with the other finders; hand back its spec with a wrapped loader."""

    def __init__(self) -> None:
        self._busy = False

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != _PACKAGE or self._busy:
            return None
        self._busy = True  # find_spec below asks sys.meta_path again, this finder included
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self._busy = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        spec.loader = _Loader(spec.loader)
        return spec


class _Loader(importlib.abc.Loader):
    """Run the real loader, give the module its own loader back, then start the session."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        for owner in list(_WAITING):
            owner.started_on_import()


_FINDER = _Finder()
