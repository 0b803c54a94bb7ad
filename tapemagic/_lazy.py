"""Import a module on first attribute use (the standard library's ``importlib.util.LazyLoader``).

Stdlib only. LibCST takes 0.2-0.6 s to import and is needed only when a quick-fix edit is
computed; ``tapemagic lint`` of a file with nothing to fix, ``%load_ext tapemagic`` and a check
without findings should not pay for it.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """Return module ``name``, executed only when one of its attributes is first read.

    An already imported module is returned as it is. The module is put in ``sys.modules`` at
    once, so a later ``import name`` anywhere gets the same (lazy) module.

    Raises
    ------
    ModuleNotFoundError
        If no module ``name`` can be found (checked now, not on first use).
    """
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
