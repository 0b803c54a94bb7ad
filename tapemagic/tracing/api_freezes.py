"""Weights a Keras API froze as a side effect the user's code does not show, then trained.

Imports no TensorFlow itself (Keras objects are handed to it; their private parts are read in
``_tf_private/keras_private.py``). Measured with TensorFlow 2.21 and Keras 3.15: every variable
a trained step's loss reads gets a gradient, but the step trains only the model's
``trainable_weights``, and two Keras APIs take weights out of that list without a line of the
user's code saying so:

- ``keras.models.load_model`` (and the other rebuilds from a saved file or config:
  ``clone_model``) restores each layer's saved ``trainable`` flag: a block frozen before
  saving comes back frozen, its weights tracked as non-trainable (``Layer._track_variable``
  sets ``variable.trainable = False`` for a frozen layer), and a fine-tuning ``fit`` never
  changes them (keras-team/keras#13587);
- the same rebuild of a custom layer whose ``get_config`` leaves out the constructor argument
  that made a weight trainable (``config_drops.py``): the weight comes back frozen by the
  constructor's default (``DROPPED``, rule TM122 at that ``get_config``);
- ``model.quantize("int8")`` (or ``"int4"``) replaces each kernel by a non-trainable integer
  variable; a ``fit`` afterwards trains only the biases, unless LoRA was enabled on the
  layer (QLoRA: the frozen integer kernel is the point).

:class:`ApiFreezes` notes each variable a layer tracks as non-trainable while the user's line
called a library API (the line, the API, the layer), and each ``layer.trainable`` the user's
own code read or set (``unfreeze.py``'s property calls :meth:`touched`). When a Keras train
step is traced (``tracking.py``), the model's non-trainable weights are asked why:

- restored by a loader: the variable's ``tf.Variable`` is trainable (a weight meant to train,
  frozen by its layer's flag; a BatchNormalization statistic is not), the user's code compiled
  the model again since (a new training stage; ``load_model`` then ``fit`` resumes the saved
  training, freeze and all) and did
  not read or set the flag of a layer holding it since it was loaded (an ``assert not
  layer.trainable`` or a ``trainable = False`` again is keeping it frozen on purpose);
- quantized: an integer variable of a layer with a ``quantization_mode`` and no LoRA, in the
  place (the path) of a trainable one (the kernel it replaced, not its scale or zero point),
  when the user's line quantized the trained model itself (``model.quantize``: a backbone
  quantized on its own under a new head, or layers quantized one by one, stay fixed by choice).

The facts go to ``Trace.untracked`` (``how`` ``api``, ``via`` the API, ``attribute`` the
reason); whether the loss reads those weights and nothing trains them is the rule's question
(TM120). Nothing here runs a TensorFlow op or changes an object.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from tapemagic import frames
from tapemagic.trace import RawLocation
from tapemagic.tracing._tf_private import keras_private
from tapemagic.tracing.config_drops import Dropped, Originals
from tapemagic.tracing.recorder import Recorder
from tapemagic.untracked_facts import DROPPED, Untracked

#: modules of the Keras APIs that rebuild layers, their ``trainable`` flags with them, from a
#: saved file or config
_LOADERS = ("keras.src.saving.", "keras.src.legacy.saving.", "keras.src.models.cloning")
#: ``Untracked.attribute`` of each reason
RESTORED = "restored"
QUANTIZED = "quantized"


@dataclass(slots=True)
class _Tracked:
    """A variable ``layer`` tracked as non-trainable inside the library API ``api``."""

    variable: Any
    layer: Any
    seq: int
    loc: RawLocation | None
    api: str
    module: str
    #: the layer or model whose method the user's line called (``model.quantize``: ``model``)
    receiver: Any = None


@dataclass(slots=True)
class _Found:
    """Weights of ``layer`` that the train step of ``model`` (at ``step``) left out."""

    model: Any
    step: RawLocation | None
    reason: str
    made: _Tracked
    variables: list[Any]
    layers: list[Any]
    #: the last event before the step was first traced with them left out
    seq: int = 0


class ApiFreezes:
    """Note what Keras APIs froze, and ask it of each traced Keras train step."""

    def __init__(self, recorder: Recorder) -> None:  # noqa: D107
        self.rec = recorder
        self._saved: tuple[type, str, Any] | None = None
        self._tracked: dict[int, _Tracked] = {}
        #: id(layer) -> (seq of the user's last read or set of its ``trainable``, the layer)
        self._touched: dict[int, tuple[int, Any]] = {}
        #: id(model) -> (seq of the user's last ``compile`` of it, the model)
        self._compiled: dict[int, tuple[int, Any]] = {}
        #: the paths of the trainable variables the layers tracked (a kernel before quantizing)
        self._trainable_paths: set[str] = set()
        self._found: dict[tuple[int, str, RawLocation | None], _Found] = {}
        #: the layers that tracked a trainable weight, and what a rebuild from config froze
        self._originals = Originals()
        self._drops: dict[int, Dropped] = {}

    def install(self) -> None:
        """Wrap ``Layer._track_variable`` (once Keras' Layer is loaded)."""
        if self._saved is not None:
            return
        patch = keras_private.track_variable_patch(self._wrap)
        if patch is not None:
            cls, name, replacement = patch
            self._saved = (cls, name, cls.__dict__[name])
            setattr(cls, name, replacement)

    def remove(self) -> None:
        """Undo the wrap (the facts stay until :meth:`facts`)."""
        if self._saved is not None:
            cls, name, original = self._saved
            setattr(cls, name, original)
            self._saved = None

    def _wrap(self, original: Any) -> Any:
        hooks = self

        def _track_variable(layer: Any, variable: Any) -> Any:
            result = original(layer, variable)
            if hooks.rec.mine():
                hooks._note(layer, variable, sys._getframe(1))
            return result

        return _track_variable

    def _note(self, layer: Any, variable: Any, frame: Any) -> None:
        try:
            if variable.trainable:  # a weight meant to train: a quantized one replaces it
                self._trainable_paths.add(str(variable.path))
                self._originals.note(layer)
                return
            user, api = frames.user_frame(frame)
            if user is None or api is None:  # the user's own layer code made it
                return
            if not frames.frame_module(api).startswith(_LOADERS):
                # a custom layer's own `build` ran by a loader rebuilding it: the load is the
                # API, the user's line that called it the place
                user, api = _loader_call(user) or (user, api)
            self._tracked[id(variable)] = _Tracked(
                variable, layer, self.rec.next_seq(), frames.location_of(user),
                api.f_code.co_name, frames.frame_module(api), _receiver(frame, user))
        except Exception:  # noqa: BLE001 - never break the user's layer for our bookkeeping
            return

    def compiled(self, model: Any, frame: Any) -> None:
        """Note a ``model.compile`` the user's own line called (``frame``: the caller's)."""
        if frames.is_library(frame):
            return  # load_model's own compile of a saved training state: a resumed run
        self._compiled[id(model)] = (self.rec.next_seq(), model)

    def touched(self, layer: Any, frame: Any) -> None:
        """Note that the user's code (``frame``) read or set ``layer.trainable``."""
        del frame
        self._touched[id(layer)] = (self.rec.next_seq(), layer)

    # -- at a traced train step ------------------------------------------------------------------
    def at_step(self, model: Any, step: RawLocation | None) -> None:
        """Note the weights of ``model`` a Keras API froze, as its train step is traced."""
        try:
            listed = {id(v) for v in model.trainable_weights}
            for layer in keras_private.flat_layers(model):
                for variable in layer.weights:
                    made = self._tracked.get(id(variable))
                    if made is None or id(variable) in listed or variable.trainable:
                        continue
                    reason = self._reason(made, model)
                    if reason is None:
                        continue
                    # one fact per API call (per user's `get_config`): every layer it froze
                    drop = self._drops.get(id(variable)) if reason == DROPPED else None
                    key = (id(model), reason, drop.loc if drop is not None else made.loc)
                    found = self._found.setdefault(
                        key, _Found(model, step, reason, made, [], [], self.rec.seq))
                    if all(v is not variable for v in found.variables):
                        found.variables.append(variable)
                    if all(other is not made.layer for other in found.layers):
                        found.layers.append(made.layer)
        except Exception:  # noqa: BLE001 - an object gone strange: no fact, the run stands
            return

    def _reason(self, made: _Tracked, model: Any) -> str | None:
        layer, variable = made.layer, made.variable
        if made.module.startswith(_LOADERS):
            inner = keras_private.inner_variable(variable)
            if self._aware(variable, made.seq):
                return None
            if not getattr(inner, "trainable", False):
                # made frozen by its rebuilt layer's constructor: a config that left out the
                # argument its original was built with (not a restored layer flag)
                dropped = self._originals.dropped(layer, variable)
                if dropped is not None:
                    self._drops[id(variable)] = dropped
                return DROPPED if dropped is not None else None
            # compiled again by the user's code since: a new training stage (fine-tuning),
            # not a saved training resumed as it was (the freeze with it)
            compiled = self._compiled.get(id(model))
            return RESTORED if compiled is not None and compiled[0] > made.seq else None
        # the trained model quantized as a whole: a backbone quantized on its own and
        # trained under a new head, or layers quantized one by one, were chosen to stay fixed
        if (made.receiver is model and getattr(layer, "quantization_mode", None)
                and not getattr(layer, "lora_enabled", False)
                and str(getattr(variable, "dtype", "")).startswith(("int", "uint"))
                and str(variable.path) in self._trainable_paths):  # not its scale or zero point
            return QUANTIZED
        return None

    def _aware(self, variable: Any, seq: int) -> bool:
        """Return True when the user's code read or set the flag of a layer holding it since."""
        return any(at > seq and any(w is variable for w in layer.weights)
                   for at, layer in self._touched.values())

    # -- at the end of the run -------------------------------------------------------------------
    def facts(self, serial: Any) -> list[Untracked]:
        """Return the facts (``serial`` maps a variable to its handle serial) and let go."""
        out = []
        for found in self._found.values():
            handles = tuple(h for h in map(serial, found.variables) if h is not None)
            if handles:
                made = found.made
                names = ", ".join(str(getattr(layer, "name", "")) for layer in found.layers)
                drop = self._drops.get(id(found.variables[0]))
                changed = tuple((name, repr(was), repr(now))
                                for name, was, now in (drop.arguments if drop else ()))
                out.append(Untracked("api", handles, names, type(made.layer).__name__,
                                     drop.loc if drop is not None else made.loc,
                                     step=found.step, model=str(getattr(found.model, "name", "")),
                                     attribute=found.reason,
                                     via=_called(made.loc) or made.api, changed=changed,
                                     since=found.seq))
        self._tracked.clear()
        self._touched.clear()
        self._compiled.clear()
        self._trainable_paths.clear()
        self._found.clear()
        self._originals.clear()
        self._drops.clear()
        return out


def _loader_call(user: Any) -> tuple[Any, Any] | None:
    """Return (the user's frame, the loader API frame) when a loader runs ``user``'s code."""
    frame = user.f_back
    while frame is not None:
        if frames.frame_module(frame).startswith(_LOADERS):
            outer, api = frames.user_frame(frame)
            if outer is not None and api is not None and \
                    frames.frame_module(api).startswith(_LOADERS):
                return outer, api
            return None
        frame = frame.f_back
    return None


def _called(loc: RawLocation | None) -> str | None:
    """Return the name the user's call at ``loc`` calls (``model.quantize("int8")``: quantize)."""
    found = frames.call_node(loc)
    func = found[0].func if found is not None else None
    return getattr(func, "attr", None) or getattr(func, "id", None)


def _receiver(frame: Any, user: Any) -> Any:
    """Return the outermost layer whose method runs between ``frame`` and the user's frame.

    The object the user's line called the API on: ``model.quantize`` runs ``Model.quantize``
    with ``self`` the model, which quantizes each layer in its own ``quantize``.
    """
    found = None
    while frame is not None and frame is not user:
        owner = frame.f_locals.get("self")
        if owner is not None and keras_private.is_layer_like(owner):
            found = owner
        frame = frame.f_back
    return found
