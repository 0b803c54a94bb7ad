"""Keras weight initialisers' own ops left unrecorded (the variable they fill is recorded).

Imports TensorFlow (through ``_tf_private``, for the op-callback list). Building a Keras
model eagerly runs each weight's initialiser (random draws, fills, scalings: 698 of the 1,338
ops that build a ResNet50) and then creates the ``tf.Variable`` from the value
(``VarHandleOp``, then ``AssignVariableOp``).
An initial value made from nothing the run recorded reaches the weight only through that
assign, which carries no gradient, and no rule reads how it was computed. So while
``Variable._initialize_with_initializer`` runs (keras/src/backend/tensorflow/core.py, which
hands the initialiser to ``tf.Variable``) on the traced thread, the recorder leaves out every
op but the variable ops (``VARIABLE_OPS``) whose inputs are all unrecorded and that no pending
variable read feeds (:func:`own_op`). An initial value computed from a variable or a
recorded tensor (a tied decoder's ``tf.transpose(encoder.kernel)``, ``Constant(tensor)``) is
recorded as ever: the assign then cuts a path (TM402).

Two shortcuts of the same records (both for an eager ResNet50 built cold, bench/overhead.py):

- A built-in Keras initialiser whose attributes are plain Python values (``GlorotUniform``
  with an int seed, ``Zeros``, ``Constant(0.1)``: :func:`self_contained`) can read no tensor
  and no variable, so every op it runs would be left out: it runs with the recorder's op
  callback taken off the calling thread's list, on TensorFlow's C fast path, when that
  callback is the thread's only one and no variable read is pending. A ``Constant`` of a
  tensor, a ``SeedGenerator`` seed and any other callable keep the op-by-op path.
- The ``VarHandleOp`` that follows the initial value is the new variable's own: its owner is
  the Keras variable being initialised (``Initialising.building``), so the op callback does not
  walk the stack for it (``naming.find_owner``) unless the user's code runs between the hook
  and the op (a ``tf.variable_creator_scope`` creator: the walk stops at its frame); when the
  method returns, the Keras variable, its inner ``tf.Variable`` and that one's per-replica
  components (a ``MirroredStrategy``) are handed to the naming, the objects the walk would
  have found.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from tapemagic.optypes import VARIABLE_OPS
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing._tf_private import keras_private

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder



def own_op(rec: Recorder, name: str, inputs: Any) -> bool:
    """Return True for an op of an initialiser that reads nothing recorded (not to record).

    Called by the op callback while ``rec.initialising.depth``; the variable's own ops, an op
    on a recorded tensor and one a pending (C fast path) variable read feeds are recorded.
    """
    return (name not in VARIABLE_OPS and threading.get_ident() == rec.thread
            and not rec.pending_reads and all(rec.ids.serial_of(t) is None for t in inputs or ()))


#: attribute values a built-in initialiser may hold and still read nothing recorded
_PLAIN = (type(None), bool, int, float, str)


def self_contained(initializer: Any) -> bool:
    """Return True for a Keras built-in initialiser that can read no tensor and no variable.

    Its class is one of ``keras.src.initializers``' own and its attributes are plain Python
    values (tuples of them too): a ``Constant`` of a tensor or an array, a ``SeedGenerator``
    seed (a variable it reads and assigns) and a seed of None (older Keras 3 draws from the
    global ``SeedGenerator``) are not.
    """
    if not type(initializer).__module__.startswith("keras.src.initializers."):
        return False
    try:
        attributes = vars(initializer)
    except TypeError:  # __slots__: not one of the built-ins
        return False
    if getattr(initializer, "seed", 0) is None:
        return False
    return all(isinstance(value, _PLAIN) or (
        isinstance(value, (tuple, list)) and all(isinstance(v, _PLAIN) for v in value))
        for value in attributes.values())


def _initial_value(rec: Recorder, initializer: Any) -> Any:
    """Return ``initializer`` wrapped for the variable's hook.

    Its own ops never take the variable's ``VarHandleOp`` shortcut (a variable it makes is
    its own), and a :func:`self_contained` one runs with the op callback off this thread.
    """
    quiet = self_contained(initializer)

    def initial_value(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        building, rec.initialising.building = rec.initialising.building, None
        callbacks = tfp.thread_op_callbacks() if quiet else []
        # Only when the recorder's callback is the thread's only one (by identity: it compares
        # equal to an equal bound method): another callback would run in the window, and one
        # that removes itself there makes TensorFlow swap `execute.execute` back to its
        # callback-free path (op_callbacks.remove_op_callback) behind the recorder's back.
        # Nor with a variable read pending: the initialiser's first op would have matched it.
        off = (len(callbacks) == 1 and callbacks[0] is rec.callback
               and not rec.pending_reads)
        if off:
            callbacks.clear()
        try:
            return initializer(*args, **kwargs)
        finally:
            if off:
                callbacks.append(rec.callback)
            rec.initialising.building = building

    return initial_value


def _inner_variables(variable: Any) -> list[Any]:
    """Return a Keras variable's ``tf.Variable`` and, for a distributed one, its components."""
    inner = keras_private.inner_variable(variable)
    if inner is None:
        return []
    return [inner, *keras_private.components(inner)]


class Initialising:
    """The recorder's view of Keras initialisers running on the traced thread.

    ``depth`` > 0 while one runs (the op callback then skips its own ops, :func:`own_op`);
    ``building`` is the Keras variable being initialised, if its handle is still to come.
    """

    __slots__ = ("depth", "building")

    def __init__(self) -> None:  # noqa: D107
        self.depth = 0
        self.building: Building | None = None


class Building:
    """A Keras variable being initialised on the traced thread (``Initialising.building``).

    ``frame`` is the hook's frame: the ``VarHandleOp`` shortcut holds only while no frame of the
    user's code runs below it (a ``tf.variable_creator_scope`` creator); ``taken`` says whether
    the shortcut was taken (once per variable). The frame is the hook's own, held only while it
    runs.
    """

    __slots__ = ("frame", "taken")

    def __init__(self, frame: Any) -> None:  # noqa: D107
        self.frame = frame
        self.taken = False


def owner_known(rec: Recorder, user: Any) -> bool:
    """Return True when the ``VarHandleOp`` being recorded is the initialised variable's own.

    A Keras variable is being initialised on this thread, its handle not made yet, and no
    frame of the user's code (``user``, the first one up the stack) runs inside the hook: a
    ``tf.variable_creator_scope`` creator would stop the walk of ``naming.find_owner``.
    Marks the shortcut taken (once per variable).
    """
    building = rec.initialising.building
    if building is None or building.taken or threading.get_ident() != rec.thread:
        return False
    frame = user
    while frame is not None:
        if frame is building.frame:
            return False
        frame = frame.f_back
    building.taken = True
    return True


class InitializerHooks:
    """Patch Keras 3's ``Variable._initialize_with_initializer`` for one :class:`Recorder`."""

    def __init__(self, recorder: Recorder) -> None:  # noqa: D107
        self.rec = recorder
        self._saved: tuple[type, str, Any] | None = None

    def install(self) -> None:
        """Wrap the method (nothing to do when Keras 3 is not loaded)."""
        patch = keras_private.initializer_patch(self._wrap)
        if patch is not None:
            cls, name, replacement = patch
            self._saved = (cls, name, cls.__dict__[name])
            setattr(cls, name, replacement)

    def _wrap(self, original: Any) -> Any:
        rec = self.rec

        def initialize_with_initializer(variable: Any, initializer: Any) -> Any:
            __tracebackhide__ = True
            if threading.get_ident() != rec.thread:
                return original(variable, initializer)
            state = rec.initialising
            state.depth += 1
            outer, state.building = state.building, Building(sys._getframe())
            try:
                return original(variable, _initial_value(rec, initializer))
            finally:
                state.depth -= 1
                taken, state.building = state.building is not None and state.building.taken, outer
                if taken:  # the owners the walk would have found
                    rec.variables_seen.setdefault(id(variable), variable)
                    for inner in _inner_variables(variable):
                        rec.variables_seen.setdefault(id(inner), inner)

        return initialize_with_initializer

    def remove(self) -> None:
        """Restore the method."""
        if self._saved is not None:
            setattr(*self._saved)
            self._saved = None
