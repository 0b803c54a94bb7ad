"""Threads the user's code starts while a tape records: their ops, kept for the entering thread.

Imports TensorFlow (through the quarantine). A ``tf.GradientTape`` records only the ops of the
thread it was entered on (the tape stack is thread-local: tensorflow/c/eager/tape.h,
``GetTapeSet``); a forward pass run in a ``ThreadPoolExecutor`` inside the ``with`` block is
invisible to it. Op callbacks are thread-local too (``context._thread_local_data.op_callbacks``),
so the recorder never saw those ops either, and the loss looked built from data.

``threading.setprofile`` hands each thread started during the check a hook that runs once, on
the new thread, before its target: it restores the thread's previous profile function and
registers :meth:`ForeignThreads.on_op` there (not the recorder's callback: that would make every
hook of the recorder's run on the thread, and the recorder is not thread-safe). That callback
only appends to a list (atomic under the GIL): the op, its tensors, and its place on its own
thread, read there; the ``_trainable`` reads of TensorFlow's C fast path (a variable read with
no op callback) go in the same list (hooks.py). The entering thread moves them into the trace
before its next op (:func:`drain`), each under its thread's number, so that no tape of the
entering thread counts them recorded (``Trace.recorded_by``) and the analysis sees a path off the
tape: TM103, at the user's line on that thread. Only while a tape of the entering thread is
open: what other threads do otherwise is none of the check's business. ``tf.distribute``
replica threads are not foreign: they inherit the recorder itself (replicas.py).
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from tapemagic import frames
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import replicas
from tapemagic.tracing._tf_private.distribute import REPLICA_THREAD

#: events are kept only this many at a time (a thread that runs ops without end while the
#: entering thread waits): past it, the forward pass is not followed, as before
MAX_EVENTS = 20_000


class ForeignThreads:
    """The profile hook that registers :meth:`on_op` on new threads, and its undo."""

    def __init__(self, rec: Any) -> None:
        self.rec = rec
        self.active = False
        self._previous: Any = None
        #: the op-callback lists (one per registered thread) that hold :meth:`on_op`
        self._lists: list[list[Any]] = []
        # each bound once: a hook is told by identity (`threading.getprofile() is ...`)
        self.hook, self.callback = self._started, self.on_op

    def install(self) -> None:
        """Hand every thread started from now on the registering hook."""
        self._previous = threading.getprofile()
        threading.setprofile(self.hook)
        self.active = True

    def remove(self) -> None:
        """Stop registering, and take :meth:`on_op` off every thread that has it."""
        self.active = False
        if threading.getprofile() is self.hook:
            threading.setprofile(self._previous)
        for callbacks in self._lists:
            # the list object of that thread: removing from here needs no code on the thread
            while self.callback in callbacks:
                callbacks.remove(self.callback)
        self._lists.clear()
        self.rec.foreign_threads.clear()

    def _started(self, frame: Any, event: str, arg: Any) -> Any:
        """Run once on a new thread: register :meth:`on_op` there, then step aside."""
        previous = self._previous
        sys.setprofile(previous)  # this thread's own profile function, as without the check
        try:
            self._register()
        except Exception:  # noqa: BLE001 - a changed private API: the thread goes unseen
            pass
        return previous(frame, event, arg) if previous is not None else None

    def _register(self) -> None:
        rec = self.rec
        if not self.active or (REPLICA_THREAD is not None and isinstance(
                threading.current_thread(), REPLICA_THREAD)):
            return  # a replica thread gets the recorder's own callback (replicas.py)
        if replicas.has_op_callback(rec.callback):
            return
        rec.foreign_threads[threading.get_ident()] = rec.thread_number()
        tfp.add_op_callback(self.callback)
        self._lists.append(tfp.thread_op_callbacks())

    def on_op(self, op_type: Any, inputs: Any, attrs: Any, outputs: Any, op_name: Any = None,
              graph: Any = None) -> None:
        """Keep an eager op of a registered thread for the entering thread (``op_callbacks``)."""
        try:
            self._keep(op_type, inputs, outputs, graph)
        except Exception:  # noqa: BLE001 - never break the user's op for our bookkeeping
            pass
        return None

    def _keep(self, op_type: Any, inputs: Any, outputs: Any, graph: Any) -> None:
        rec = self.rec
        if graph is not None or not self.active or not buffering(rec):
            return
        number = rec.foreign_threads.get(threading.get_ident())
        if number is None:
            return
        user, api = frames.user_frame(sys._getframe(2))
        loc = frames.location_of(user) if user is not None else None
        key = frames.api_key(api) if api is not None else None
        placed = (loc, key, api.f_globals if api is not None else None)
        name = op_type.decode() if isinstance(op_type, bytes) else str(op_type)
        rec.foreign_events.append((number, name, tuple(inputs or ()), tuple(outputs or ()),
                                   placed))


def buffering(rec: Any) -> bool:
    """Return True when another thread's ops are kept: a tape of the entering thread is open."""
    return bool(rec.attached and rec.open_tapes and not rec.saturated_depth
                and len(rec.foreign_events) < MAX_EVENTS)


def note_read(rec: Any, variable: Any) -> None:
    """Keep a registered thread's ``_trainable`` read (a variable read by the C fast path)."""
    number = rec.foreign_threads.get(threading.get_ident())
    if number is not None and buffering(rec):  # plain reads and one append: nothing raises
        rec.foreign_events.append((number, None, variable, (), None))


def drain(rec: Any) -> None:
    """Record the kept events of other threads, in order, under their threads' numbers.

    Called on the entering thread with the recorder busy. Each thread's fast-path reads wait
    for its next op, as the entering thread's do (``Recorder.new_leaf``).
    """
    events = rec.foreign_events
    taken = events[:]
    del events[:len(taken)]  # what another thread appended meanwhile stays, in order
    pending: dict[int, list[Any]] = {}
    own, attrs, rec.attrs = rec.pending_reads, rec.attrs, None  # the attrs are this thread's op's
    try:
        for number, name, inputs, outputs, placed in taken:
            if name is None:  # a read: `inputs` is the variable
                pending.setdefault(number, []).append(inputs)
                rec.variables_seen.setdefault(id(inputs), inputs)
                continue
            rec.pending_reads = pending.pop(number, [])
            first = rec.seq + 1
            rec.record_op(name, inputs, outputs, placed=placed)
            for seq in range(first, rec.seq + 1):
                rec.trace.seq_threads[seq] = number
            rec.trace.foreign_threads.add(number)
    finally:
        rec.pending_reads, rec.attrs = own, attrs
