"""Keras' tracking asked of the layers of a run, and what a step over a model's list misses.

Imports TensorFlow (through ``holders``). :class:`Weights` asks Keras, once per layer, which
variables a layer tracks, trains, and reaches without tracking (``holders.held``), and names
the line that made a variable untracked. :func:`unlisted` answers for the steps whose sources
were one model's whole list (``fit``'s train step, a ``train_step`` override, a step over
``model.trainable_variables``): a trainable variable the run read and nothing trained is
either held by a layer of that model without Keras tracking it (an attribute of a Keras 3
``Model`` read in its own ``train_step``), or, inside ``fit``, a variable no layer of the
run tracks at all (a loss closes over it): ``fit`` trains nothing but the model's list.
Whether it is on that step's loss path and never written is the rules' question
(``rules/untrained.py``). Nothing here runs a TensorFlow op or changes an object.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tapemagic.trace import RawLocation
from tapemagic.tracing import holders, keras_state
from tapemagic.untracked_facts import CLOSURE, STEP, Untracked


@dataclass(frozen=True)
class Owner:
    """A step whose sources were ``layer``'s whole trainable list, at the user's ``loc``.

    ``in_fit``: it ran inside Keras' ``fit``/``train_on_batch`` (Keras' own train step or a
    ``train_step`` override), where nothing but the model's list can train.
    """

    layer: Any
    loc: RawLocation | None
    in_fit: bool


def unlisted(memo: Weights, owners: Iterable[Owner], candidates: dict[int, RawLocation | None],
             trained: set[int], created: dict[int, RawLocation],
             callers: Iterable[Any]) -> list[Untracked]:
    """Return the facts for ``candidates`` (read, untrained: handle -> a read's line) per owner.

    A variable a layer of the owner reaches untracked is placed as :meth:`Weights.raw` places
    it; inside ``fit``, a variable no layer of the run tracks or reaches (``callers``: the
    layers whose calls ran) is placed where it was made, tied to that step (``via`` STEP).
    """
    layer_cls = layer_class()
    if layer_cls is None:
        return []
    found: dict[int, Untracked] = {}
    every = [c for c in callers if isinstance(c, layer_cls)]
    for owner in owners:
        tree = holders.layer_tree(owner.layer, layer_cls)
        known: set[int] = set()  # what some layer tracks or holds: not closed over
        if owner.in_fit:
            for layer in [*tree, *every]:
                known |= memo.tracked(layer)
                known |= set(memo.held(layer)) if users(layer) else set()
        for handle, loc in candidates.items():
            if handle in found:
                continue
            fact = memo.raw(handle, tree, trained, loc, created)
            if fact is None and owner.in_fit and handle not in known:
                fact = Untracked("variable", (handle,), str(owner.layer.name),
                                 type(owner.layer).__name__, created.get(handle, loc),
                                 step=owner.loc, via=STEP)
            if fact is not None:
                found[handle] = fact
    return list(found.values())


class Weights:
    """Keras' tracking of the layers one run called, asked once per layer."""

    def __init__(self, serial: Callable[[Any], int | None]) -> None:  # noqa: D107
        self.serial = serial
        self._tracked: dict[int, set[int]] = {}
        self._trainable: dict[int, set[int]] = {}
        self._held: dict[int, dict[int, Any]] = {}

    def tracked(self, layer: Any) -> set[int]:
        """Return the handle serials of ``layer.weights``."""
        found = self._tracked.get(id(layer))
        if found is None:
            found = self._tracked[id(layer)] = {
                s for s in map(self.serial, layer.weights) if s is not None}
        return found

    def trains(self, layer: Any, trained: set[int]) -> bool:
        """Return True when a gradient call or optimizer of the run took some of its weights."""
        found = self._trainable.get(id(layer))
        if found is None:
            found = self._trainable[id(layer)] = {
                s for s in map(self.serial, layer.trainable_variables) if s is not None}
        return bool(found & trained)

    def held(self, layer: Any) -> dict[int, holders.Held]:
        """Return the variables ``layer`` reaches through its attributes and does not track."""
        found = self._held.get(id(layer))
        if found is None:
            layer_cls = layer_class()
            found = self._held[id(layer)] = (
                holders.held(layer, layer_cls, self.serial, self.tracked(layer))
                if layer_cls is not None else {})
        return found

    def raw(self, handle: int, layers: list[Any], trained: set[int], loc: RawLocation | None,
            created: dict[int, RawLocation]) -> Untracked | None:
        """Return a trainable variable a user's layer holds untracked, in a model the run trains.

        Placed where it became untracked: a raw ``tf.Variable`` held directly where it was
        made; one behind an object Keras does not look into (a ``tf.Module``, a helper object)
        at the ``self.<attr> = ...`` that stored that object on the layer.
        """
        for layer in reversed(layers):
            found = self.held(layer).get(handle) if users(layer) else None
            if found is None:
                continue
            if not found.variable.trainable or not any(self.trains(m, trained) for m in layers):
                return None
            where = (holders.stored_at(type(layer), found.attribute) if found.via else None)
            return Untracked("variable", (handle,), str(layer.name), type(layer).__name__,
                             where or created.get(handle, loc), attribute=found.attribute,
                             via=found.via)
        return None

    def closed(self, handle: int, layers: list[Any], trained: set[int],
               loc: RawLocation | None, created: dict[int, RawLocation]) -> Untracked | None:
        """Return a variable read in a trained model's layers that no layer there reaches.

        A function the layer calls closed over it (a ``Lambda`` over a global variable): no
        layer tracks it, so it is in no ``trainable_variables``. Placed where it was made.
        Whether it is trainable, on the loss path and never trained is the rules' question.
        """
        if not layers or any(handle in self.tracked(layer) for layer in layers) or any(
                handle in self.held(layer) for layer in layers if users(layer)):
            return None
        if not any(self.trains(m, trained) for m in layers):
            return None
        inner = layers[-1]
        return Untracked("variable", (handle,), str(inner.name), type(inner).__name__,
                         created.get(handle, loc), via=CLOSURE)

    def hidden(self, handle: int, layers: list[Any], trained: set[int],
               loc: RawLocation | None) -> Untracked | None:
        """Return a layer's weights read inside an outer layer's call that does not track them."""
        first = next((i for i, layer in enumerate(layers) if handle in self.tracked(layer)), 0)
        if first == 0:
            return None  # read where every layer around it tracks it, or none does
        holder = layers[first - 1]
        lambda_cls = getattr(sys.modules.get("keras"), "layers", None)
        lambda_cls = getattr(lambda_cls, "Lambda", None)
        if not (users(holder) or (lambda_cls is not None and isinstance(holder, lambda_cls))):
            return None
        if not any(self.trains(m, trained) for m in layers[:first]):
            return None
        variable = next((v for v in layers[first].weights if self.serial(v) == handle),
                        None)
        if variable is None or not variable.trainable:
            return None
        layer_cls = layer_class()
        attribute = holders.attribute_reaching(holder, layers[first], layer_cls) if (
            layer_cls is not None and users(holder)) else None
        if attribute is not None:  # kept in a plain object: the line that stored that object
            loc = holders.stored_at(type(holder), attribute) or loc
        return Untracked("layer", (handle,), str(holder.name), type(holder).__name__, loc)


def layer_class() -> type | None:
    """Return ``keras.layers.Layer`` when Keras 3 is loaded, else None."""
    return keras_state.keras_layer_class() if keras_state.keras_variable_class() else None


def users(layer: Any) -> bool:
    """Return True for a layer class of the user's (not one of Keras' own)."""
    return not type(layer).__module__.startswith(("keras.", "tf_keras.", "tensorflow."))
