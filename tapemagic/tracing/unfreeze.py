"""Layers unfrozen after a traced step read its sources: the step still trains the old list.

Imports TensorFlow (through ``_tf_private``). A ``tf.function`` step (Keras ``fit``'s train
function, a ``train_step`` override, a user's ``@tf.function`` step) evaluates
``model.trainable_variables`` once, when it is traced; the list becomes the gradient call's
sources in the graph. ``layer.trainable = True`` later (a Keras callback's ``on_epoch_end``, or
between two loops of the user's own step) does not retrace it: the unfrozen weights are still
read by the forward pass but are never sources, so they never train (Keras' own docstring of
``Layer.trainable`` says to call ``make_train_function(force=True)``; reports:
tensorflow/tensorflow#47906, nasa/delta#58). Measured with TensorFlow 2.21 / Keras 3.
``compile()`` again, a new ``tf.function``, and in a callback a new optimizer followed by
``make_train_function(force=True)`` trace a new graph, which takes the unfrozen weights as
sources (Keras 3.15: ``force=True`` alone raises "Unknown variable", the optimizer being built
for the old list; ``train_function = None`` makes ``fit`` call None).

:class:`UnfreezeHooks` records, for one run:

- each gradient call made while a ``tf.function`` is traced whose sources are exactly
  ``owner.trainable_variables`` of a Keras layer or model ``owner`` (Keras' ``train_step``'s
  ``self.trainable_weights``, or a user's ``X.trainable_variables`` argument): the FuncGraphs
  being traced then (the step's graph and the functions that call it);
- each ``trainable`` assignment on a Keras layer that makes frozen variables trainable, with
  the user's line (``Layer.trainable``'s setter is patched while Keras is loaded);
- after such an assignment, each eager call of a traced function (a light op callback): a call
  of a graph traced before the assignment, from a step whose owner holds the unfrozen variables
  and which did not take them as sources, while they are still trainable, is a stale step
  (``Trace.stale_steps``).

Sources given as an explicit subset (``head.trainable_variables``) have an owner that does not
hold the unfrozen layer: not recorded. A GAN that sets ``discriminator.trainable = True`` for
its own step and back to False before the combined step: at the combined step's call the
discriminator is frozen again, so nothing is recorded.
"""

from __future__ import annotations

import re
import sys
import weakref
from dataclasses import dataclass, field
from typing import Any

from tapemagic import frames
from tapemagic.trace import RawLocation
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import keras_state
from tapemagic.tracing._tf_private.keras_private import inner_variable, is_layer_like
from tapemagic.tracing.recorder import Recorder
from tapemagic.untracked_facts import StaleStep

#: ``X.trainable_variables`` / ``X.trainable_weights`` as a gradient call's sources argument
_OWNER_ARGUMENT = re.compile(
    r"^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.(?:trainable_variables|trainable_weights)\s*$")
_KERAS_TRAINER = "keras.src.backend.tensorflow.trainer"
_ATTRIBUTE = "trainable"  # the property patched on Keras' Layer class


@dataclass
class _Step:
    """One trace of a gradient call whose sources were all of ``owner``'s trainable weights."""

    site: tuple[str, int]
    owner: weakref.ref[Any]
    sources: frozenset[int]  # id() of the Keras variables (held alive by ``_held``)
    graphs: frozenset[int]  # id() of the FuncGraphs being traced (held alive by ``_held``)


@dataclass
class _Event:
    """A ``trainable = True`` that unfroze variables, and the steps it made stale."""

    seq: int
    loc: RawLocation | None
    layer: str
    variables: list[Any]
    steps: list[_Step] = field(default_factory=list)
    runs: dict[int, int] = field(default_factory=dict)  # index in steps -> stale calls


class UnfreezeHooks:
    """Install and remove the ``trainable`` hook and the call watch for one :class:`Recorder`."""

    def __init__(self, recorder: Recorder) -> None:
        self.rec = recorder
        self._steps: list[_Step] = []
        self._events: list[_Event] = []
        self._held: list[Any] = []  # graphs and variables whose id() the records use
        self._saved: tuple[type, Any] | None = None
        self._watching = False
        self._depth = 0
        self._callback = self._on_op  # the one object registered
        #: told of each ``trainable = False`` that froze trainable weights: (layer, the weights,
        #: the setter's caller frame); see tracking.py
        self.on_frozen: Any = None
        #: told of each read or set of a layer's ``trainable`` by the user's own code:
        #: (layer, the caller frame); see api_freezes.py
        self.on_touched: Any = None

    # -- install / remove ----------------------------------------------------------------------
    def remove(self) -> None:
        """Undo the patch and the op callback; write the stale steps into the trace."""
        if self._saved is not None:
            owner, original = self._saved
            setattr(owner, _ATTRIBUTE, original)
            self._saved = None
        if self._watching:
            tfp.remove_op_callback(self._callback)
            self._watching = False
        try:
            self._finish()
        except Exception:  # noqa: BLE001 - a variable gone strange: no finding, the run stands
            pass
        finally:
            self._steps.clear()
            self._events.clear()
            self._held.clear()

    def install(self) -> None:
        """Patch ``Layer.trainable`` now when Keras is loaded (a freeze before any step counts)."""
        self._install_setter()

    def _install_setter(self) -> None:
        """Patch ``Layer.trainable`` (once Keras is loaded: at the start or the first trace)."""
        if self._saved is not None:
            return
        layer_cls = keras_state.keras_layer_class()
        if layer_cls is None:
            return
        owner = next((c for c in layer_cls.__mro__ if _ATTRIBUTE in c.__dict__), None)
        original = owner.__dict__.get(_ATTRIBUTE) if owner is not None else None
        if (owner is None or not isinstance(original, property) or original.fset is None
                or original.fget is None):
            return
        hooks = self
        fget, fset = original.fget, original.fset

        def getter(layer: Any) -> Any:
            if hooks.on_touched is not None and not hooks.rec.busy:
                hooks._touch(layer, sys._getframe(1))
            return fget(layer)

        def setter(layer: Any, value: Any) -> None:
            if hooks._depth or hooks.rec.busy or not hooks.rec.mine():
                return fset(layer, value)  # a sublayer of the layer being set, or not ours
            if hooks.on_touched is not None:
                hooks._touch(layer, sys._getframe(1))
            before = [v for v in _weights(layer) if bool(v.trainable) != bool(value)]
            hooks._depth += 1
            try:
                fset(layer, value)
            finally:
                hooks._depth -= 1
            changed = [v for v in before if bool(v.trainable) == bool(value)]
            if changed and value:
                hooks._unfrozen(layer, changed, sys._getframe(1))
            elif changed and hooks.on_frozen is not None:
                hooks.on_frozen(layer, changed, sys._getframe(1))
            return None

        setattr(owner, _ATTRIBUTE, property(getter, setter, original.fdel, original.__doc__))
        self._saved = (owner, original)

    def _touch(self, layer: Any, caller: Any) -> None:
        """Tell ``on_touched`` of the user's own read or set of ``layer.trainable``.

        A set runs through Keras' ``Layer.__setattr__``, whose ``self.x = self.x`` short cut
        reads the flag instead of setting it again (keras/src/backend/tensorflow/trackable.py).
        """
        if frames.is_library(caller):
            if caller.f_code.co_name != "__setattr__":
                return  # Keras' own read: cheap, no walk
            caller, api = frames.user_frame(caller)
            if caller is None or api is None or api.f_code.co_name != "__setattr__":
                return
        if self.rec.mine():
            self.on_touched(layer, caller)

    # -- trace-time gradient calls ---------------------------------------------------------------
    def note_gradient(self, sources: Any, caller: Any) -> None:
        """Remember a gradient call being traced whose sources are one owner's trainable weights.

        ``caller`` is the frame that called ``tape.gradient``; cheap when it is not one.
        """
        rec = self.rec
        with rec.quiet():
            try:
                self._install_setter()
                flat = list(sources) if isinstance(sources, (list, tuple)) else [sources]
                owner, loc = _owner(caller, flat)
                if owner is None or loc is None:
                    return
                try:
                    expected = list(owner.trainable_variables)
                except Exception:  # noqa: BLE001 - an object that only looks like a layer
                    return
                if not flat or {id(v) for v in flat} != {id(v) for v in expected}:
                    return  # not exactly "every trainable weight of the owner": a chosen list
                graphs = []
                graph = tfp.get_default_graph()
                while graph is not None and tfp.is_traced_graph(graph):
                    graphs.append(graph)
                    graph = getattr(graph, "outer_graph", None)
                if not graphs:
                    return
                self._held.extend(graphs)
                self._held.extend(flat)
                self._steps.append(_Step((loc.file, loc.line), weakref.ref(owner),
                                         frozenset(id(v) for v in flat),
                                         frozenset(id(g) for g in graphs)))
            except Exception:  # noqa: BLE001 - never break the user's gradient for our bookkeeping
                return

    # -- trainable = True ------------------------------------------------------------------------
    def _unfrozen(self, layer: Any, variables: list[Any], frame: Any) -> None:
        ids = {id(v) for v in variables}
        stale = []
        for step in self._steps:
            owner = step.owner()
            if owner is None or ids & step.sources:
                continue
            try:
                held = {id(v) for v in owner.weights}
            except Exception:  # noqa: BLE001 - an owner gone half-built
                continue
            if ids <= held:
                stale.append(step)
        if not stale:
            return
        user, _ = frames.user_frame(frame)
        loc = frames.location_of(user) if user is not None else None
        self._held.extend(variables)
        self._events.append(_Event(self.rec.next_seq(), loc, str(getattr(layer, "name", "")),
                                   variables, stale))
        if not self._watching:
            tfp.add_op_callback(self._callback)
            self._watching = True

    def _on_op(self, op_type: Any, inputs: Any, attrs: Any, outputs: Any,
               op_name: Any = None, graph: Any = None) -> None:
        """Op callback while an unfreeze is pending: count calls of the stale graphs."""
        if graph is not None or self.rec.busy:
            return None
        name = op_type.decode() if isinstance(op_type, bytes) else str(op_type)
        if not name.startswith("__inference"):
            return None
        with self.rec.quiet():
            try:
                function = tfp.calling_function(sys._getframe(1))
                called = id(tfp.cached_function_graph(function)) if function is not None else None
                for event in self._events:
                    for index, step in enumerate(event.steps):
                        if called in step.graphs and _still_trainable(step, event.variables):
                            event.runs[index] = event.runs.get(index, 0) + 1
            except Exception:  # noqa: BLE001 - never break the user's call for our bookkeeping
                pass
        return None

    def _finish(self) -> None:
        trace = self.rec.trace
        for event in self._events:
            for index, runs in sorted(event.runs.items()):
                step = event.steps[index]
                handles = []
                for variable in event.variables:
                    inner = inner_variable(variable, variable)
                    handle = getattr(inner, "handle", None)
                    if handle is not None:
                        self.rec.variables_seen.setdefault(id(variable), variable)
                        handles.append(self.rec.handle_serial(handle))
                trace.stale_steps.append(StaleStep(event.loc, event.layer, tuple(handles),
                                                   step.site, event.seq, runs))


def _weights(layer: Any) -> list[Any]:
    try:
        return list(layer.weights)
    except Exception:  # noqa: BLE001 - an unbuilt or foreign layer
        return []


def _still_trainable(step: _Step, variables: list[Any]) -> bool:
    """Return True when the owner would now train some of ``variables`` (not frozen again)."""
    owner = step.owner()
    if owner is None:
        return False
    now = {id(v) for v in owner.trainable_variables}
    return any(id(v) in now for v in variables)


def _owner(caller: Any, sources: list[Any]) -> tuple[Any, RawLocation | None]:
    """Return (the layer whose ``trainable_variables`` the call passed, the call's user line).

    Keras' ``train_step`` passes ``self.trainable_weights``; user code is read from its
    argument text, ``X.trainable_variables`` with ``X`` a dotted name (attribute reads only),
    or, when the source cannot be read, by value (:func:`_owner_by_value`).
    The line is the user frame's, as ``GradientCallRecord.site`` has it.
    """
    if caller is None:
        return None, None
    user, _ = frames.user_frame(caller)
    if user is None:
        return None, None
    loc = frames.location_of(user)
    if frames.frame_module(caller) == _KERAS_TRAINER:
        if caller.f_code.co_name != "train_step":
            return None, None
        return caller.f_locals.get("self"), loc
    if frames.argument_text(loc, 1) is None:  # no source (code run from a string): by value
        return _owner_by_value(user, sources), loc
    obj = named_owner(user, loc)
    if obj is None or not is_layer_like(obj):
        return None, loc
    return obj, loc


def named_owner(user: Any, loc: RawLocation | None) -> Any:
    """Return ``X`` when the call at ``loc`` passed ``X.trainable_variables`` as sources, else None.

    ``X`` is a dotted name (attribute reads only) looked up in the user's frame ``user``.
    """
    text = frames.argument_text(loc, 1)
    match = _OWNER_ARGUMENT.match(text) if text is not None else None
    if match is None:
        return None
    head, *rest = match.group(1).split(".")
    scope = user.f_locals
    obj = scope[head] if head in scope else user.f_globals.get(head)
    for name in rest:
        obj = getattr(obj, name, None)
    return obj


def _owner_by_value(user: Any, sources: list[Any]) -> Any:
    """Return the one Keras layer named in the frame whose trainable weights are ``sources``.

    Two such layers that hold different weights (``head`` and the ``model`` around a frozen
    backbone) leave the owner unknown: which list the code meant cannot be told.
    """
    wanted = {id(v) for v in sources}
    found: dict[int, Any] = {}
    for value in [*user.f_locals.values(), *user.f_globals.values()]:
        if not is_layer_like(value) or id(value) in found:
            continue
        try:
            if {id(v) for v in value.trainable_variables} == wanted:
                found[id(value)] = value
        except Exception:  # noqa: BLE001 - a class, or a layer that cannot answer
            continue
    weights = {frozenset(id(v) for v in _weights(layer)) for layer in found.values()}
    return next(iter(found.values())) if len(weights) == 1 else None
