"""Threads a ``tf.distribute`` strategy starts to run the traced code: they belong to the check.

Imports TensorFlow. ``strategy.run`` (tensorflow/python/distribute/mirrored_run.py,
``_call_for_each_replica``) starts one ``_MirroredReplicaThread`` per replica on every call and
runs them one at a time while the calling thread waits, so the recorder, which is not
thread-safe, still sees one thread of control. Each replica thread is handed the calling
thread's op-callback list (the same list object: ``restore_thread_local_eager_context_state``),
so while the recorder is attached its callback is on that list; once detached, a replica thread
is told by the frame its caller waits in. A thread the user starts has neither: its ops are
kept apart and recorded later by the entering thread (foreign.py).
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing._tf_private.distribute import CALL_FOR_EACH_REPLICA, REPLICA_THREAD


def has_op_callback(callback: Any) -> bool:
    """Return True when ``callback`` (that very object) is an op callback of the calling thread.

    Op callbacks live in ``context.context()._thread_local_data.op_callbacks``
    (tensorflow/python/eager/context.py); other threads start with an empty list.
    """
    try:
        return any(cb is callback for cb in tfp.thread_op_callbacks())
    except Exception:  # noqa: BLE001 - a changed private API: only the entering thread counts
        return False


def waited_on_by(ident: int) -> bool:
    """Return True when the calling thread is a replica thread that thread ``ident`` waits on."""
    if REPLICA_THREAD is None or not isinstance(threading.current_thread(), REPLICA_THREAD):
        return False
    frame = sys._current_frames().get(ident)
    while frame is not None:
        if frame.f_code is CALL_FOR_EACH_REPLICA:
            return True
        frame = frame.f_back
    return False


def number(entering: int, others: dict[int, int]) -> int:
    """Return 0 on thread ``entering``, else 1 + the replica id of the calling replica thread.

    ``strategy.run`` starts new threads on every call; the replica id
    (``_MirroredReplicaThread.replica_id``) names the same replica across calls. Any other
    thread gets a number of its own from ``others`` (thread ident -> number), from 1000 on.
    """
    ident = threading.get_ident()
    if ident == entering:
        return 0
    replica = getattr(threading.current_thread(), "replica_id", None)
    if isinstance(replica, int):
        return replica + 1
    return others.setdefault(ident, 1000 + len(others))
