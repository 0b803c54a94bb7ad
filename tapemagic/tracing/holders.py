"""Where an untracked variable hangs off a Keras layer, and the statement that put it there.

Imports TensorFlow. Keras 3 tracks what a layer's ``__setattr__`` sees: its own variables,
layers, and lists or dicts of them. A variable reached through anything else is not one of the
layer's ``weights``: a raw ``tf.Variable`` (attribute or list item), or any variable held by an
object Keras does not walk (a ``tf.Module``, a plain helper object of the user's). A variable
read in the layer's call and reachable from no layer at all was closed over (a ``Lambda`` over
a global ``tf.Variable``). :func:`held` walks a layer's attributes for such variables and says
which attribute holds each; :func:`stored_at` finds the ``self.<attr> = ...`` statement in the
layer's class, the line to change. Nothing here runs a TensorFlow op or changes an object.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tensorflow as tf

from tapemagic.locations import source_lines
from tapemagic.trace import RawLocation
from tapemagic.tracing import keras_state

#: how deep a layer's attributes are searched through objects Keras does not track
DEPTH = 4
_LIBRARIES = ("keras.", "tf_keras.", "tensorflow.", "numpy", "builtins")


@dataclass(frozen=True)
class Held:
    """A variable a layer reaches but does not track: which attribute, through what."""

    variable: Any
    attribute: str  # the layer's attribute the walk started from
    via: str  # the type name of the untracked object between them ("" when held directly)


def is_variable(value: Any) -> bool:
    """Return True for a ``tf.Variable`` or a Keras 3 variable."""
    keras_cls = keras_state.keras_variable_class()
    return isinstance(value, tf.Variable) or (keras_cls is not None
                                              and isinstance(value, keras_cls))


def is_keras_variable(value: Any) -> bool:
    """Return True for a Keras 3 variable."""
    keras_cls = keras_state.keras_variable_class()
    return keras_cls is not None and isinstance(value, keras_cls)


def held(layer: Any, layer_cls: type, serial: Callable[[Any], int | None],
         tracked: set[int]) -> dict[int, Held]:
    """Return the variables ``layer`` reaches through its attributes and does not track.

    Keyed by handle serial. A raw ``tf.Variable`` held directly (or in a list) counts; a
    Keras variable held directly is tracked by Keras and counts only when ``tracked`` says it
    is not. The walk goes through lists, tuples, dicts, ``tf.Module``s and objects of the
    user's classes, never into another Keras layer (it tracks its own) or a library object.
    """
    found: dict[int, Held] = {}
    seen: set[int] = set()

    def walk(value: Any, attribute: str, via: str, depth: int) -> None:
        if id(value) in seen or depth > DEPTH:
            return
        seen.add(id(value))
        if is_variable(value):
            handle = serial(value)
            if handle is not None and handle not in tracked and handle not in found:
                found[handle] = Held(value, attribute, via)
        elif isinstance(value, layer_cls):
            return
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, attribute, via, depth + 1)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item, attribute, via, depth + 1)
        elif _walkable(value):
            for item in vars(value).values():
                walk(item, attribute, via or type(value).__name__, depth + 1)

    seen.add(id(layer))
    # the user's attributes first: TensorFlow's checkpoint bookkeeping on the layer
    # (``_self_unconditional_dependency_names``) holds the same objects under private names
    for name, value in sorted(vars(layer).items(), key=lambda item: item[0].startswith("_")):
        walk(value, name, "", 0)
    return found


def attribute_reaching(owner: Any, target: Any, layer_cls: type) -> str | None:
    """Return the attribute of ``owner`` through which its attributes reach ``target``.

    The same walk as :func:`held` (lists, tuples, dicts, ``tf.Module``s and the user's own
    objects, never into another Keras layer): the attribute that stored a plain object holding
    ``target`` (a layer Keras does not track). None when no attribute reaches it (a global).
    """
    seen = {id(owner)}

    def reaches(value: Any, depth: int) -> bool:
        if value is target:
            return True
        if id(value) in seen or depth > DEPTH or isinstance(value, layer_cls):
            return False
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            return any(reaches(item, depth + 1) for item in value)
        if isinstance(value, dict):
            return any(reaches(item, depth + 1) for item in value.values())
        return _walkable(value) and any(reaches(item, depth + 1) for item in vars(value).values())

    for name, value in sorted(vars(owner).items(), key=lambda item: item[0].startswith("_")):
        if reaches(value, 0):
            return name
    return None


def _walkable(value: Any) -> bool:
    """Return True for an object whose attributes may hold variables Keras does not see."""
    if isinstance(value, type) or not hasattr(value, "__dict__"):
        return False
    if isinstance(value, tf.Module):
        return True
    return not type(value).__module__.startswith(_LIBRARIES)


def stored_at(cls: type, attribute: str) -> RawLocation | None:
    """Return the first ``self.<attribute> = ...`` statement in the user's class ``cls``.

    Searched in the class and its bases of the user's (not Keras' own), in source order; None
    when there is no source or no such statement.
    """
    for klass in cls.__mro__:
        if klass.__module__.startswith(_LIBRARIES) or klass is object:
            continue
        found = _assignment(klass, attribute)
        if found is not None:
            return found
    return None


def _assignment(cls: type, attribute: str) -> RawLocation | None:
    codes = [v.__code__ for v in vars(cls).values() if hasattr(v, "__code__")]
    if not codes:
        return None
    filename = codes[0].co_filename
    try:
        tree = ast.parse("".join(source_lines(filename)))
    except (SyntaxError, ValueError):
        return None
    first = min(c.co_firstlineno for c in codes)
    for node in ast.walk(tree):
        if (isinstance(node, ast.ClassDef) and node.name == cls.__name__
                and node.lineno <= first <= (node.end_lineno or node.lineno)):
            return _self_assignment(node, filename, attribute)
    return None


def _self_assignment(cls: ast.ClassDef, filename: str, attribute: str) -> RawLocation | None:
    statements = [n for n in ast.walk(cls) if isinstance(n, (ast.Assign, ast.AnnAssign))]
    for node in sorted(statements, key=lambda n: n.lineno):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if (isinstance(target, ast.Attribute) and target.attr == attribute
                    and isinstance(target.value, ast.Name) and target.value.id == "self"):
                return RawLocation(filename, node.lineno, node.end_lineno or node.lineno,
                                   node.col_offset, node.end_col_offset or node.col_offset,
                                   "<module>")
    return None
