"""Keras layers kept in a Python container Keras 3 does not track (a hint of TM114).

TF-free, syntactic. Keras 3's ``Tracker.track`` (keras/src/utils/tracking.py), which
``Layer.__setattr__`` runs on what a layer assigns to ``self``, looks into a value only when it
is a ``tuple``, ``list``, ``dict`` (``OrderedDict`` included) or ``set``: it wraps each in a
tracked copy. Any other container (``collections.deque``, ``frozenset``, ``UserList``,
``ChainMap``) is stored as an opaque object, so the layers inside it
are in no ``trainable_weights`` and ``fit`` never updates them.

:func:`untracked_containers` yields ``self.x = C(...)`` in the ``__init__``/``build`` of a Keras 3
layer or model class of the source, where ``C`` is a standard-library container class (looked
up in the running Python: the same ``isinstance`` test Keras makes) that is none of those
types, and whose arguments make Keras layers or variables.
"""

from __future__ import annotations

import ast
import builtins
import importlib
from collections.abc import Iterator

from tapemagic.lint import untracked
from tapemagic.lint.names import VARIABLE, Imports

#: The types Keras 3's Tracker looks into (tracking.py ``Tracker.track``).
_TRACKED = (tuple, list, dict, set)
#: Standard-library modules whose classes may be looked up (importing them runs nothing else).
_STDLIB = frozenset({"collections", "builtins", "types", "array", "queue"})
_BUILDERS = ("__init__", "build")
_KERAS = ("keras.layers.", "keras.Sequential", "keras.Model", "keras.models.")


def untracked_containers(tree: ast.Module, imports: Imports) -> Iterator[ast.Call]:
    """Yield each ``C(...)`` call a Keras class stores on ``self`` that hides its layers."""
    classes = {c.name for c in untracked.keras_classes(tree, imports)}
    for cls in untracked.keras_classes(tree, imports):
        if untracked.from_tf_keras(cls, imports):
            continue
        for method in cls.body:
            if not isinstance(method, ast.FunctionDef) or method.name not in _BUILDERS:
                continue
            for node in ast.walk(method):
                if not isinstance(node, ast.Assign) or untracked.self_store(node) is None:
                    continue
                call = node.value
                if isinstance(call, ast.Call) and _opaque(call.func, imports) and \
                        _makes_layers(call, imports, classes):
                    yield call


def _opaque(func: ast.expr, imports: Imports) -> bool:
    """Whether ``func`` names a standard-library container class Keras does not look into."""
    dotted = imports.dotted(func)
    if dotted is None and isinstance(func, ast.Name):
        dotted = f"builtins.{func.id}" if hasattr(builtins, func.id) else None
    if dotted is None or "." not in dotted:
        return False
    module, _, name = dotted.rpartition(".")
    if module not in _STDLIB:
        return False
    found = getattr(importlib.import_module(module), name, None)
    if not isinstance(found, type) or issubclass(found, _TRACKED):
        return False
    # a container: something one iterates over for the layers it holds (not a str)
    return hasattr(found, "__iter__") and not issubclass(found, (str, bytes))


def _makes_layers(call: ast.Call, imports: Imports, classes: set[str]) -> bool:
    """Whether the container's arguments make Keras layers, models or variables."""
    for node in ast.walk(call):
        if node is call or not isinstance(node, ast.Call):
            continue
        dotted = imports.dotted(node.func) or ""
        if dotted.startswith(_KERAS) or dotted in VARIABLE:
            return True
        if isinstance(node.func, ast.Name) and node.func.id in classes:
            return True
    return False
