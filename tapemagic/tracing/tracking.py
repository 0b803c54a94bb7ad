"""Weights the trained model reads but Keras 3 does not track for it, or froze for good.

Imports TensorFlow. Keras 3 trains what it tracks: its own ``keras.Variable``s and layers, which
a layer's ``weights`` and a model's ``trainable_variables`` list. Measured with TensorFlow 2.21
and Keras 3.15, ``fit`` (and a step over ``model.trainable_variables``) never changes, and
nothing warns about:

- a raw ``tf.Variable`` a layer holds (``self.w = tf.Variable(...)``, or a list of them): not
  one of its ``weights``;
- a Keras model or layer called inside another layer's call that does not track it (a
  ``keras.layers.Lambda(lambda t: encoder(t))``): its weights are not the outer model's;
- Keras layers or Keras variables held by a ``tf.Module`` whose ``trainable_variables`` are
  the sources: the module's walk sees ``tf.Variable``s only, and a Keras 3 variable is not one;
- a model whose own train step (``fit``, ``train_on_batch``) was traced while it was frozen
  (``d.trainable = False`` before ``d``'s first step, the Keras 2 GAN recipe): Keras 3 reads
  ``trainable`` when it traces, the step gets no trainable weights (Keras warns "does not have
  any trainable weights") and keeps none; or while part of it was frozen after its
  ``compile`` for another model compiled next (an encoder frozen for a classifier before the
  autoencoder's own first ``fit``): Keras 2 kept the flags ``compile`` saw, Keras 3 does not;
- a variable a step over a model's whole list reads outside it (``listed.py``): held by a
  layer of that model untracked, or, inside ``fit``, held by no layer at all (a loss closes
  over it).

:class:`TrackingHooks` asks Keras itself, while the objects live: the layers whose name scopes
ops ran in (``ScopeMemo.callers``) and their nesting (``ScopeMemo.stacks``), each gradient
call's ``X.trainable_variables`` owner, each tape Keras' ``train_step`` makes, and each
``trainable = False`` (``unfreeze.py``'s setter). What it finds goes to ``Trace.untracked``;
whether those weights are read on a loss path and never trained is the rules' question
(``rules/untrained.py``). Nothing here runs a TensorFlow op or changes an object.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from tapemagic import frames
from tapemagic.optypes import READ_OPS
from tapemagic.switches import Freeze
from tapemagic.trace import OPTIMIZER_WRITE, RawLocation
from tapemagic.tracing import holders, keras_state, listed
from tapemagic.tracing._tf_private.keras_private import compiled_trainable, inner_variable
from tapemagic.tracing.api_freezes import ApiFreezes
from tapemagic.tracing.listed import Weights, layer_class
from tapemagic.tracing.recorder import Recorder
from tapemagic.tracing.unfreeze import named_owner
from tapemagic.untracked_facts import Untracked

_KERAS_TRAINER = "keras.src.backend.tensorflow.trainer"


class TrackingHooks:
    """Collect, for one :class:`Recorder`, what Keras does not track (``Trace.untracked``)."""

    def __init__(self, recorder: Recorder) -> None:  # noqa: D107
        self.rec = recorder
        self._seen: set[tuple[int, int]] = set()  # (code, instruction) of calls looked at
        self._modules: list[tuple[RawLocation, str, str, list[Any]]] = []
        self._empty: dict[int, tuple[Any, RawLocation | None, int, list[Any],
                                     dict[int, set[int]] | None]] = {}
        #: a model whose Keras train step ran -> the layers frozen when it was compiled
        self._compiled_off: dict[int, set[int]] = {}
        #: steps over one Keras layer's whole trainable list (``fit``'s, or a user's)
        self._owners: dict[int, listed.Owner] = {}
        self._freezes: list[tuple[int, RawLocation | None, str, list[Any]]] = []
        self._frozen_at: set[tuple[Any, ...]] = set()
        #: a gradient call's line → the ``class`` statement of the user's tf.Module it names
        self._classes: dict[RawLocation, RawLocation | None] = {}
        #: what Keras APIs froze (load_model, quantize), asked at each traced train step
        self.api: ApiFreezes | None = None

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
        """Remember a model whose Keras ``train_step`` runs without weights meant to train.

        Weights frozen by their Keras flag yet watched by a tape (the inner ``tf.Variable`` is
        trainable): all of the model's when it has no trainable weight, else those of layers
        frozen since its ``compile`` (Keras 3 reads the flag here, at trace time).
        """
        if frames.frame_module(frame) != _KERAS_TRAINER or frame.f_code.co_name != "train_step":
            return
        model = frame.f_locals.get("self")
        if model is None:
            return
        user, _ = frames.user_frame(frame)
        loc = frames.location_of(user) if user is not None else None
        self._owners[id(model)] = listed.Owner(model, loc, True)  # fit's: its list alone trains
        if self.api is not None:
            self.api.at_step(model, loc)
        if id(model) in self._empty:
            return
        compiled = compiled_trainable(model)
        self._compiled_off[id(model)] = {id(layer) for layer, on in compiled.items() if not on}
        since: dict[int, set[int]] | None = None  # variable -> the layers frozen since compile
        pool = list(model.weights)
        if list(model.trainable_weights):
            since = {}
            for layer, on in compiled.items():
                if on and not layer.trainable:
                    for variable in layer.weights:
                        since.setdefault(id(variable), set()).add(id(layer))
            pool = [v for v in pool if id(v) in since]
        frozen = [v for v in pool if not v.trainable and _inner_trainable(v)]
        if frozen:
            self._empty[id(model)] = (model, loc, self.rec.next_seq(), frozen, since)

    def _module_sources(self, sources: Any, frame: Any) -> None:
        """Remember a step over one owner's list: a Keras layer's, or a ``tf.Module``'s misses.

        A ``tf.Module``'s walk sees ``tf.Variable``s only: the Keras weights it reaches (of
        the layers it holds, or Keras variables it holds itself) are left out.
        """
        user, _ = frames.user_frame(frame)
        if user is None:
            return
        loc = frames.location_of(user)
        text = frames.argument_text(loc, 1)
        owner = named_owner(user, loc) if text is not None else _module_by_value(user, sources)
        layer_cls = layer_class()
        if layer_cls is None or owner is None:
            return
        if isinstance(owner, layer_cls):
            self._owners.setdefault(id(owner), listed.Owner(owner, loc, _in_fit(frame)))
            return
        if not isinstance(owner, tf.Module):
            return
        have = {id(v) for v in owner.trainable_variables}
        missed: list[tuple[Any, bool]] = []  # (Keras variable, held by the module itself)
        for value, _, _ in holders.reached(owner, layer_cls):
            own = holders.is_keras_variable(value)
            layer = isinstance(value, layer_cls)
            weights = [value] if own and value.trainable else (
                list(getattr(value, "trainable_weights", ())) if layer else [])
            missed += [(v, own) for v in weights
                       if id(inner_variable(v, v)) not in have and id(v) not in have]
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
            found = [*self._read(), *self._from_modules(), *self._from_freezes(),
                     *(self.api.facts(self.serial) if self.api is not None else ())]
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
            self._compiled_off.clear()
            self._owners.clear()
            self._freezes.clear()
            self._frozen_at.clear()

    def serial(self, variable: Any) -> int | None:
        """Return the handle serial of a variable (Keras or tf.Variable) the run saw, or None."""
        inner = inner_variable(variable, variable) if _is_keras(variable) else variable
        handle = getattr(inner, "_handle", None)
        return self.rec.known_handle(handle) if handle is not None else None

    def _read(self) -> list[Untracked]:
        """Trainable variables the run read and nothing trained, placed where Keras lost them.

        First in the nesting of the layers' calls (:meth:`_scoped`), then, for the rest, from
        the steps over one model's whole list (``listed.unlisted``).
        """
        trace = self.rec.trace
        trained = {s.handle for c in trace.gradient_calls for s in c.sources if s.handle}
        trained |= {h for h, _, label in trace.state_writes.values() if label == OPTIMIZER_WRITE}
        memo = Weights(self.serial)
        found = self._scoped(memo, trained)
        candidates: dict[int, RawLocation | None] = {}
        for op in trace.ops:
            if op.op_type in READ_OPS and op.inputs and op.inputs[0] not in trained:
                candidates.setdefault(op.inputs[0], op.loc)
        left = {h: loc for h, loc in candidates.items() if h not in found}
        more = listed.unlisted(memo, self._owners.values(), left, trained,
                               trace.handle_created, self.rec.scope.callers.values())
        return [*found.values(), *more]

    def _scoped(self, memo: Weights, trained: set[int]) -> dict[int, Untracked]:
        """Raw ``tf.Variable``s and hidden layers, found in the nesting of the layers' calls."""
        layer_cls = layer_class()
        scope = self.rec.scope
        if layer_cls is None:
            return {}
        trace = self.rec.trace
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
        return found

    def _from_modules(self) -> list[Untracked]:
        """Return a fact per module for its layers' weights, one for its own Keras variables.

        The first at its ``class`` statement, the second where the first of them was made.
        """
        out = []
        created = self.rec.trace.handle_created
        for loc, name, kind, missed in self._modules:
            made = self._classes.get(loc)
            for own in (False, True):
                handles = tuple(h for h in (self.serial(v) for v, o in missed if o is own)
                                if h is not None)
                if not handles:
                    continue
                at = min((created[h] for h in handles if h in created),
                         key=lambda c: (c.file, c.line), default=None) if own else None
                where = at or made
                out.append(Untracked("module", handles, name, kind, where or loc,
                                     step=loc if where else None))
        return out

    def _from_freezes(self) -> list[Untracked]:
        """Return the frozen weights of each model's train step, at the freeze before it.

        Weights frozen since the model's ``compile`` count only when another model's
        ``compile`` saw them frozen: the freeze was made for that one (the Keras 2 recipe),
        not for this model's own training (a backbone frozen after compiling, on purpose).
        """
        out = []
        for model, step, seq, frozen, since in self._empty.values():
            others = set().union(*(off for m, off in self._compiled_off.items()
                                   if m != id(model)))
            by_event: dict[int, list[int]] = {}
            for variable in frozen:
                if since is not None and not since.get(id(variable), set()) & others:
                    continue
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


def _is_keras(variable: Any) -> bool:
    keras_cls = keras_state.keras_variable_class()
    return keras_cls is not None and isinstance(variable, keras_cls)


def _inner_trainable(variable: Any) -> bool:
    """Return the ``trainable`` flag of a Keras variable's ``tf.Variable`` (what a tape reads)."""
    return bool(getattr(inner_variable(variable), "trainable", False))


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


def _in_fit(frame: Any) -> bool:
    """Return True when a frame up from ``frame`` is Keras' trainer (``fit``'s train step)."""
    while frame is not None:
        if frames.frame_module(frame) == _KERAS_TRAINER:
            return True
        frame = frame.f_back
    return False


def class_statement(cls: type) -> RawLocation | None:
    """Return the ``class`` statement of a class the user wrote (None: a library's, or no source).

    Where a ``tf.Module`` trainer's Keras weights became untracked: it subclasses ``tf.Module``
    (whose walk sees ``tf.Variable``s only) rather than ``keras.Model`` (``holders.class_node``).
    """
    if cls.__module__.startswith(("keras.", "tf_keras.", "tensorflow.")):
        return None
    found = holders.class_node(cls)
    if found is None:
        return None
    node, filename = found
    end = node.col_offset + len("class ") + len(node.name)
    return RawLocation(filename, node.lineno, node.lineno, node.col_offset, end, "<module>")
