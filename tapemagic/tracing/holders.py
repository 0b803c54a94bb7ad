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
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import tensorflow as tf

from tapemagic.locations import source_lines
from tapemagic.trace import RawLocation
from tapemagic.tracing import keras_state

#: how deep a layer's attributes are searched through objects Keras does not track
DEPTH = 4
_LIBRARIES = ("keras.", "tf_keras.", "tensorflow.", "numpy", "builtins")
#: sized values whose items are plain data, never a layer or a variable
_FLAT = (str, bytes, bytearray, memoryview, range)


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
    is not. The walk is :func:`reached`'s.
    """
    found: dict[int, Held] = {}
    for value, attribute, via in reached(layer, layer_cls):
        if is_variable(value):
            handle = serial(value)
            if handle is not None and handle not in tracked and handle not in found:
                found[handle] = Held(value, attribute, via)
    return found


def attribute_reaching(owner: Any, target: Any, layer_cls: type) -> str | None:
    """Return the attribute of ``owner`` through which its attributes reach ``target``.

    The walk is :func:`reached`'s (the one :func:`held` takes): the attribute that stored a
    plain object holding ``target`` (a layer Keras does not track). None when no attribute
    reaches it (a global).
    """
    return next((attribute for value, attribute, _ in reached(owner, layer_cls)
                 if value is target), None)


def reached(owner: Any, layer_cls: type) -> Iterator[tuple[Any, str, str]]:
    """Yield (value, the owner's attribute it hangs off, the user's object it is in) for each.

    Depth first, each value once, at most ``DEPTH`` levels below an attribute: through any
    sized container (lists, tuples and dicts, which Keras tracks, and those it does not: a
    ``collections.deque``, a set), ``tf.Module``s and objects of the user's classes, never
    into a variable, another Keras layer (it tracks its own), a tensor or array, or a library
    object.
    """
    seen = {id(owner)}

    def walk(value: Any, attribute: str, via: str, depth: int) -> Iterator[tuple[Any, str, str]]:
        if id(value) in seen or depth > DEPTH:
            return
        seen.add(id(value))
        yield value, attribute, via
        if is_variable(value) or isinstance(value, layer_cls):
            return
        if isinstance(value, Mapping):
            items: Iterable[Any] = list(value.values())
        elif (isinstance(value, Collection) and not isinstance(value, _FLAT)
              and not hasattr(value, "dtype")):  # a tensor or an array holds numbers
            # any sized container, whether Keras wraps it (list, tuple, dict) or not (a deque,
            # a set): what it holds is tracked or not by Keras' own account (``tracked``);
            # never an iterator or generator (walking would consume it)
            items = list(value)
        elif _walkable(value):
            items, via = vars(value).values(), via or type(value).__name__
        else:
            return
        for item in items:
            yield from walk(item, attribute, via, depth + 1)

    # the user's attributes first: TensorFlow's checkpoint bookkeeping on the layer
    # (``_self_unconditional_dependency_names``) holds the same objects under private names
    for name, value in sorted(vars(owner).items(), key=lambda item: item[0].startswith("_")):
        yield from walk(value, name, "", 0)


def layer_tree(owner: Any, layer_cls: type) -> list[Any]:
    """Return ``owner`` and every Keras layer its attributes reach, and theirs, each once.

    Through :func:`reached`: the sublayers Keras tracks (attributes, lists) and those kept
    where it does not look (a plain object, a ``tf.Module``), so a variable any of them holds
    untracked is found from the model whose list a step trains.
    """
    found = {id(owner): owner}
    queue = [owner]
    while queue:
        for value, _, _ in reached(queue.pop(), layer_cls):
            if isinstance(value, layer_cls) and id(value) not in found:
                found[id(value)] = value
                queue.append(value)
    return list(found.values())


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
    found = class_node(cls)
    return _self_assignment(found[0], found[1], attribute) if found is not None else None


def class_node(cls: type) -> tuple[ast.ClassDef, str] | None:
    """Return a class's ``ClassDef`` and its file (None: no functions, or no readable source).

    Found by the file and first line of the class's own functions, then the ``ClassDef`` of
    that name around them.
    """
    codes = [v.__code__ for v in vars(cls).values() if hasattr(v, "__code__")]
    if not codes:
        return None
    code = min(codes, key=lambda c: c.co_firstlineno)
    try:
        tree = ast.parse("".join(source_lines(code.co_filename)))
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.ClassDef) and node.name == cls.__name__
                and node.lineno <= code.co_firstlineno <= (node.end_lineno or node.lineno)):
            return node, code.co_filename
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
