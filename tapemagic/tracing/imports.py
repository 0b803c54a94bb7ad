"""Run a hook right after a module finishes importing (Keras imported after the check began).

Stdlib only. A script that starts with ``import keras`` imports TensorFlow from inside Keras'
own import, so the session starts while Keras is half loaded: its ``Layer`` class does not
exist yet, and a patch of it (``unfreeze.py``'s ``trainable`` setter) would wait for the first
traced gradient, after the code froze its layers. :func:`after_import` puts one finder at the
front of ``sys.meta_path`` that wraps the named module's loader (:class:`ImportFinder`, the
one ``lazy.py`` waits for TensorFlow with) and calls the hook once the module ran; the returned
function takes it away.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any


def after_import(name: str, hook: Callable[[], None]) -> Callable[[], None]:
    """Call ``hook()`` once module ``name`` has been imported; return the undo function.

    When the module is already imported, ``hook`` runs at once and nothing is installed.
    """
    if sys.modules.get(name) is not None:
        hook()
        return lambda: None

    def remove() -> None:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)

    def ran() -> None:
        remove()
        try:
            hook()
        except Exception:  # noqa: BLE001 - never break the user's import for our hook
            pass

    finder = ImportFinder(name, ran)
    sys.meta_path.insert(0, finder)
    return remove


class ImportFinder(importlib.abc.MetaPathFinder):
    """Find module ``name`` with the other finders; call ``on_import()`` right after it ran.

    The spec the other finders give is handed back with its loader wrapped; the module gets its
    own loader back before its code runs. Put it at the front of ``sys.meta_path``; it finds
    nothing while it asks the other finders itself. ``tracing/lazy.py`` starts the waiting
    sessions with one (``tensorflow``), :func:`after_import` runs a hook.
    """

    def __init__(self, name: str, on_import: Callable[[], None]) -> None:
        self.name, self.on_import = name, on_import
        self._busy = False

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        """Return ``name``'s spec with the wrapped loader (None for any other module)."""
        if name != self.name or self._busy:
            return None
        self._busy = True  # find_spec below asks sys.meta_path again, this finder included
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self._busy = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        spec.loader = _Loader(spec.loader, self.on_import)
        return spec


class _Loader(importlib.abc.Loader):
    """Run the real loader, give the module its own loader back, then call ``on_import``."""

    def __init__(self, loader: Any, on_import: Callable[[], None]) -> None:
        self._loader, self._on_import = loader, on_import

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        self._on_import()
