"""Weights the trained model reads but Keras 3 does not track for it, or froze for good.

Imports TensorFlow. Keras 3 trains what it tracks: its own ``keras.Variable``s and layers, which
a layer's ``weights`` and a model's ``trainable_variables`` list. Measured with TensorFlow 2.21
and Keras 3.15, ``fit`` (and a step over ``model.trainable_variables``) never changes, and
nothing warns about:

- a raw ``tf.Variable`` a layer holds (``self.w = tf.Variable(...)``, or a list of them): not
  one of its ``weights``;
- a Keras model or layer called inside another layer's call that does not track it (a
  ``keras.layers.Lambda(lambda t: encoder(t))``): its weights are not the outer model's;
- Keras layers held by a ``tf.Module`` whose ``trainable_variables`` are the sources: the
  module's walk sees ``tf.Variable``s only, and a Keras 3 variable is not one;
- a model whose own train step (``fit``, ``train_on_batch``) was traced while it was frozen
  (``d.trainable = False`` before ``d``'s first step, the Keras 2 GAN recipe): Keras 3 reads
  ``trainable`` when it traces, the step gets no trainable weights (Keras warns "does not have
  any trainable weights") and keeps none.

:class:`TrackingHooks` asks Keras itself, while the objects live: the layers whose name scopes
ops ran in (``ScopeMemo.callers``) and their nesting (``ScopeMemo.stacks``), each gradient
call's ``X.trainable_variables`` owner, each tape Keras' ``train_step`` makes, and each
``trainable = False`` (``unfreeze.py``'s setter). What it finds goes to ``Trace.untracked``;
whether those weights are read on a loss path and never trained is the rules' question
(``rules/untrained.py``). Nothing here runs a TensorFlow op or changes an object.
"""

from __future__ import annotations

import ast
import sys
from typing import Any

import tensorflow as tf

from tapemagic import frames
from tapemagic.locations import source_lines
from tapemagic.optypes import READ_OPS
from tapemagic.switches import Freeze
from tapemagic.trace import OPTIMIZER_WRITE, RawLocation
from tapemagic.tracing import holders, keras_state
from tapemagic.tracing._tf_private.keras_private import inner_variable
from tapemagic.tracing.recorder import Recorder
from tapemagic.tracing.unfreeze import named_owner
from tapemagic.untracked_facts import CLOSURE, Untracked

_KERAS_TRAINER = "keras.src.backend.tensorflow.trainer"
#: how deep the attributes of a ``tf.Module`` are searched for Keras layers
_DEPTH = 4


class TrackingHooks:
    """Collect, for one :class:`Recorder`, what Keras does not track (``Trace.untracked``)."""

    def __init__(self, recorder: Recorder) -> None:  # noqa: D107
        self.rec = recorder
        self._seen: set[tuple[int, int]] = set()  # (code, instruction) of calls looked at
        self._modules: list[tuple[RawLocation, str, str, list[Any]]] = []
        self._empty: dict[int, tuple[Any, RawLocation | None, int, list[Any]]] = {}
        self._freezes: list[tuple[int, RawLocation | None, str, list[Any]]] = []
        self._frozen_at: set[tuple[Any, ...]] = set()
        #: a gradient call's line → the ``class`` statement of the user's tf.Module it names
        self._classes: dict[RawLocation, RawLocation | None] = {}

    # -- while the code runs ---------------------------------------------------------------------
    def note(self, sources: Any, frame: Any) -> None:
        """Note a gradient call (its ``sources``) or, with None, a tape Keras' ``train_step`` made.

        ``frame`` is the caller's. Never raises; looks at each call instruction once.
        """
        rec = self.rec
        if rec.busy or frame is None:
            return
        key = (id(frame.f_code), frame.f_lasti)
        if sources is not None and key in self._seen:
            return
        self._seen.add(key)
        rec.busy = True
        try:
            if sources is None:
                self._train_step(frame)
            else:
                self._module_sources(sources, frame)
        except Exception:  # noqa: BLE001 - never break the user's step for our bookkeeping
            return
        finally:
            rec.busy = False

    def frozen(self, layer: Any, variables: list[Any], frame: Any) -> None:
        """Note a ``trainable = False`` on ``layer`` that froze ``variables``."""
        user, _ = frames.user_frame(frame)
        loc = frames.location_of(user) if user is not None else None
        # once per layer and line: a GAN that toggles the flag every step adds no more, and
        # only the first can precede the first trace of the model's step
        key = (id(layer), loc.file, loc.line) if loc is not None else (id(layer),)
        if key not in self._frozen_at:
            self._frozen_at.add(key)
            self._freezes.append((self.rec.next_seq(), loc, str(getattr(layer, "name", "")),
                                  list(variables)))

    def _train_step(self, frame: Any) -> None:
        """Remember a model whose Keras ``train_step`` runs with no trainable weights."""
        if frames.frame_module(frame) != _KERAS_TRAINER or frame.f_code.co_name != "train_step":
            return
        model = frame.f_locals.get("self")
        if model is None or id(model) in self._empty or list(model.trainable_weights):
            return
        # frozen by its Keras flag, yet watched by a tape (the inner tf.Variable is trainable)
        frozen = [v for v in model.weights if not v.trainable and _inner_trainable(v)]
        if frozen:
            user, _ = frames.user_frame(frame)
            loc = frames.location_of(user) if user is not None else None
            self._empty[id(model)] = (model, loc, self.rec.next_seq(), frozen)

    def _module_sources(self, sources: Any, frame: Any) -> None:
        """Remember the Keras weights a ``tf.Module``'s ``trainable_variables`` sources miss."""
        user, _ = frames.user_frame(frame)
        if user is None:
            return
        loc = frames.location_of(user)
        text = frames.argument_text(loc, 1)
        owner = named_owner(user, loc) if text is not None else _module_by_value(user, sources)
        layer_cls = _layer_class()
        if (layer_cls is None or not isinstance(owner, tf.Module)
                or isinstance(owner, layer_cls)):
            return
        listed = {id(v) for v in owner.trainable_variables}
        missed = [v for layer in _layers_held(owner, layer_cls)
                  for v in layer.trainable_weights
                  if id(inner_variable(v, v)) not in listed and id(v) not in listed]
        if missed:
            named = text.rsplit(".", 1)[0].strip() if text else owner.name
            self._classes[loc] = class_statement(type(owner))
            self._modules.append((loc, str(named or type(owner).__name__),
                                  type(owner).__name__, missed))

    # -- at the end of the run -------------------------------------------------------------------
    def finish(self) -> None:
        """Write ``Trace.untracked`` (before the recorder drops its objects) and let go of them."""
        rec = self.rec
        rec.busy = True
        try:
            found = [*self._scoped(), *self._from_modules(), *self._from_freezes()]
            rec.trace.untracked.extend(found)
            rec.trace.switches.freezes.extend(  # every freeze: the rules name the line
                Freeze(seq, loc, name, tuple(h for h in map(self.serial, vs) if h is not None))
                for seq, loc, name, vs in self._freezes)
        except Exception:  # noqa: BLE001 - an object gone strange: no finding, the run stands
            pass
        finally:
            rec.busy = False
            self._modules.clear()
            self._classes.clear()
            self._empty.clear()
            self._freezes.clear()
            self._frozen_at.clear()

    def serial(self, variable: Any) -> int | None:
        """Return the handle serial of a variable (Keras or tf.Variable) the run saw, or None."""
        inner = inner_variable(variable, variable) if _is_keras(variable) else variable
        handle = getattr(inner, "_handle", None)
        return self.rec.known_handle(handle) if handle is not None else None

    def _scoped(self) -> list[Untracked]:
        """Raw ``tf.Variable``s and hidden layers, found in the nesting of the layers' calls."""
        layer_cls = _layer_class()
        scope = self.rec.scope
        if layer_cls is None:
            return []
        trace = self.rec.trace
        trained = {s.handle for c in trace.gradient_calls for s in c.sources if s.handle}
        trained |= {h for h, _, label in trace.state_writes.values() if label == OPTIMIZER_WRITE}
        memo = _Weights(self)
        found: dict[int, Untracked] = {}
        for op in trace.ops:
            if op.op_type not in READ_OPS or not op.layer or not op.inputs:
                continue
            handle = op.inputs[0]
            if handle in found or handle in trained:
                continue
            for nesting in scope.stacks.get(op.layer, ()):
                layers = [scope.callers[i] for i in nesting
                          if isinstance(scope.callers.get(i), layer_cls)]
                fact = (memo.raw(handle, layers, trained, op.loc, trace.handle_created)
                        or memo.hidden(handle, layers, trained, op.loc)
                        or memo.closed(handle, layers, trained, op.loc, trace.handle_created))
                if fact is not None:
                    found[handle] = fact
                    break
        return list(found.values())

    def _from_modules(self) -> list[Untracked]:
        out = []
        for loc, name, kind, missed in self._modules:
            handles = tuple(h for h in map(self.serial, missed) if h is not None)
            if handles:
                made = self._classes.get(loc)
                out.append(Untracked("module", handles, name, kind, made or loc,
                                     step=loc if made else None))
        return out

    def _from_freezes(self) -> list[Untracked]:
        out = []
        for model, step, seq, frozen in self._empty.values():
            by_event: dict[int, list[int]] = {}
            for variable in frozen:
                serial = self.serial(variable)
                events = [i for i, (at, _, _, vs) in enumerate(self._freezes)
                          if at < seq and any(v is variable for v in vs)]
                if serial is not None:
                    by_event.setdefault(events[-1] if events else -1, []).append(serial)
            for index, handles in by_event.items():
                _, loc, name, _ = self._freezes[index] if index >= 0 else (0, step, "", [])
                out.append(Untracked("frozen", tuple(handles), name or str(model.name),
                                     type(model).__name__, loc, step=step,
                                     model=str(model.name)))
        return out


class _Weights:
    """Keras' tracking of the layers one run called, asked once per layer."""

    def __init__(self, hooks: TrackingHooks) -> None:
        self.hooks = hooks
        self._tracked: dict[int, set[int]] = {}
        self._trainable: dict[int, set[int]] = {}
        self._held: dict[int, dict[int, Any]] = {}

    def tracked(self, layer: Any) -> set[int]:
        """Return the handle serials of ``layer.weights``."""
        found = self._tracked.get(id(layer))
        if found is None:
            found = self._tracked[id(layer)] = {
                s for s in map(self.hooks.serial, layer.weights) if s is not None}
        return found

    def trains(self, layer: Any, trained: set[int]) -> bool:
        """Return True when a gradient call or optimizer of the run took some of its weights."""
        found = self._trainable.get(id(layer))
        if found is None:
            found = self._trainable[id(layer)] = {
                s for s in map(self.hooks.serial, layer.trainable_variables) if s is not None}
        return bool(found & trained)

    def held(self, layer: Any) -> dict[int, holders.Held]:
        """Return the variables ``layer`` reaches through its attributes and does not track."""
        found = self._held.get(id(layer))
        if found is None:
            layer_cls = _layer_class()
            found = self._held[id(layer)] = (
                holders.held(layer, layer_cls, self.hooks.serial, self.tracked(layer))
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
            found = self.held(layer).get(handle) if _users(layer) else None
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
                handle in self.held(layer) for layer in layers if _users(layer)):
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
        if not (_users(holder) or (lambda_cls is not None and isinstance(holder, lambda_cls))):
            return None
        if not any(self.trains(m, trained) for m in layers[:first]):
            return None
        variable = next((v for v in layers[first].weights if self.hooks.serial(v) == handle),
                        None)
        if variable is None or not variable.trainable:
            return None
        layer_cls = _layer_class()
        attribute = holders.attribute_reaching(holder, layers[first], layer_cls) if (
            layer_cls is not None and _users(holder)) else None
        if attribute is not None:  # kept in a plain object: the line that stored that object
            loc = holders.stored_at(type(holder), attribute) or loc
        return Untracked("layer", (handle,), str(holder.name), type(holder).__name__, loc)


def _layer_class() -> type | None:
    """Return ``keras.layers.Layer`` when Keras 3 is loaded, else None."""
    return keras_state.keras_layer_class() if keras_state.keras_variable_class() else None


def _is_keras(variable: Any) -> bool:
    keras_cls = keras_state.keras_variable_class()
    return keras_cls is not None and isinstance(variable, keras_cls)


def _inner_trainable(variable: Any) -> bool:
    """Return the ``trainable`` flag of a Keras variable's ``tf.Variable`` (what a tape reads)."""
    return bool(getattr(inner_variable(variable), "trainable", False))


def _users(layer: Any) -> bool:
    """Return True for a layer class of the user's (not one of Keras' own)."""
    return not type(layer).__module__.startswith(("keras.", "tf_keras.", "tensorflow."))


def _module_by_value(user: Any, sources: Any) -> Any:
    """Return the one ``tf.Module`` in the frame whose ``trainable_variables`` are ``sources``.

    For code run without source text; two candidates leave it unknown.
    """
    flat = list(sources) if isinstance(sources, (list, tuple)) else [sources]
    wanted = [id(v) for v in flat]
    found = {id(value): value for value in [*user.f_locals.values(), *user.f_globals.values()]
             if isinstance(value, tf.Module) and not isinstance(value, type)
             and [id(v) for v in value.trainable_variables] == wanted}
    return next(iter(found.values())) if len(found) == 1 else None


def _layers_held(owner: Any, layer_cls: type) -> list[Any]:
    """Return the Keras layers reachable from a ``tf.Module``'s attributes (lists, dicts too)."""
    found: dict[int, Any] = {}
    seen: set[int] = set()

    def walk(value: Any, depth: int) -> None:
        if id(value) in seen or depth > _DEPTH:
            return
        seen.add(id(value))
        if isinstance(value, layer_cls):
            found.setdefault(id(value), value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, depth + 1)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item, depth + 1)
        elif isinstance(value, tf.Module):
            for item in vars(value).values():
                walk(item, depth + 1)

    walk(owner, 0)
    return list(found.values())


def class_statement(cls: type) -> RawLocation | None:
    """Return the ``class`` statement of a class the user wrote (None: a library's, or no source).

    Where a ``tf.Module`` trainer's Keras weights became untracked: it subclasses ``tf.Module``
    (whose walk sees ``tf.Variable``s only) rather than ``keras.Model``. Found by the file and
    first line of the class's own functions, then the ``ClassDef`` of that name around them.
    """
    if cls.__module__.startswith(("keras.", "tf_keras.", "tensorflow.")):
        return None
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
            end = node.col_offset + len("class ") + len(node.name)
            return RawLocation(code.co_filename, node.lineno, node.lineno, node.col_offset,
                               end, "<module>")
    return None
