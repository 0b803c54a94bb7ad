"""A custom layer rebuilt from a config that leaves out a constructor argument: a weight froze.

Imports no TensorFlow (Keras objects are handed to it). Keras 3 rebuilds a saved layer as
``cls.from_config(layer.get_config())``, that is ``cls(**config)``, and restores only the
weights' values (keras/src/saving/saving_lib.py): a weight's ``trainable`` flag comes from the
constructor again. A user's ``get_config`` that leaves out the argument that decided it
(``add_weight(..., trainable=self.learn_gain)``) gets the constructor's default after
``load_model`` or ``clone_model``: the weight comes back frozen and a fine-tuning ``fit``
never changes it (keras-team/keras#20321 for the class of bug: a config key dropped).

The facts, all of the run's own objects: a layer of the same class and name that the run built
before held the weight (at the same place in its ``weights``, same shape) trainable, the
rebuilt layer is not frozen as a whole (that is the restored-flag case, ``api_freezes.py``),
its class's ``get_config`` is the user's code, and a constructor argument kept as an instance
attribute of the same name differs between the two (read from the instances' ``__dict__``: no
property, no user code runs).
"""

from __future__ import annotations

import dis
import inspect
import weakref
from dataclasses import dataclass
from types import CodeType
from typing import Any

from tapemagic import frames, magic_bodies
from tapemagic.locations import is_user_file
from tapemagic.trace import RawLocation

#: constructor argument values compared between the saved layer and its rebuild
_PLAIN = (bool, int, float, str, type(None))
_MISSING = object()


@dataclass(frozen=True, slots=True)
class Dropped:
    """Where the user's ``get_config`` returns, and the arguments that changed (``a=1 -> 2``)."""

    loc: RawLocation
    arguments: tuple[tuple[str, Any, Any], ...]


class Originals:
    """The layers the run built with a trainable weight, by (class, layer name).

    A rebuilt layer's weight is its original's at the same place in ``layer.weights``: the
    order Keras saves and restores their values in (``Layer.save_own_variables``), whatever
    their names (an unnamed weight's is a global count). Held weakly: the check keeps no
    layer of the user's alive (a search that builds many models frees them as it goes).
    """

    def __init__(self) -> None:  # noqa: D107
        self._layers: dict[tuple[type, str], weakref.ref[Any]] = {}

    def note(self, layer: Any) -> None:
        """Note that ``layer`` tracked a trainable weight (the first such layer is kept)."""
        key = (type(layer), str(layer.name))
        known = self._layers.get(key)
        if known is None or known() is None:
            self._layers[key] = weakref.ref(layer)

    def dropped(self, layer: Any, variable: Any) -> Dropped | None:
        """Return the facts when ``layer`` (rebuilt by a loader) froze what its original trained."""
        known = self._layers.get((type(layer), str(layer.name)))
        original = known() if known is not None else None
        if original is None or original is layer or not getattr(layer, "trainable", False):
            return None
        mine, theirs = list(layer.weights), list(original.weights)
        at = next((i for i, w in enumerate(mine) if w is variable), None)
        if at is None or len(mine) != len(theirs) or not theirs[at].trainable or \
                tuple(theirs[at].shape) != tuple(variable.shape):
            return None
        code = _user_get_config(type(layer))
        changed = _changed_arguments(original, layer) if code is not None else ()
        return Dropped(_return_of(code), changed) if code is not None and changed else None

    def clear(self) -> None:
        """Let go of the layers."""
        self._layers.clear()


def _user_get_config(cls: type) -> CodeType | None:
    """Return the code of ``cls.get_config`` when the user's code defines it."""
    code = getattr(getattr(cls, "get_config", None), "__code__", None)
    return code if isinstance(code, CodeType) and is_user_file(code.co_filename) \
        else None


def _changed_arguments(before: Any, after: Any) -> tuple[tuple[str, Any, Any], ...]:
    """Return (name, value before, value after) of each constructor argument kept as is."""
    try:
        params = inspect.signature(type(after).__init__).parameters
    except (TypeError, ValueError):
        return ()
    old, new = vars(before), vars(after)
    out = []
    for name, param in params.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        was, now = old.get(name, _MISSING), new.get(name, _MISSING)
        if isinstance(was, _PLAIN) and isinstance(now, _PLAIN) and was != now:
            out.append((name, was, now))
    return tuple(out)


def _return_of(code: CodeType) -> RawLocation:
    """Return where ``code`` returns, when it has one ``return`` line, else its definition."""
    returns = [i for i in dis.get_instructions(code) if i.opname.startswith("RETURN_")]
    lines = {getattr(getattr(i, "positions", None), "lineno", None) for i in returns}
    if len(lines) != 1 or None in lines:  # Python 3.10 has no positions: the definition
        return frames.definition_of(code)
    place = magic_bodies.known_place(code)
    if place is not None:
        return frames.MovedLocation(code, returns[0].offset, place)
    return frames.LazyLocation(code, returns[0].offset)
