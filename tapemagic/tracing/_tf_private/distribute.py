"""``tf.distribute``'s private names: mirrored replica threads, distributed variables.

Imports TensorFlow (``tensorflow/python/distribute/``). Each is checked once: without them
only the entering thread is traced, and only plain variables count as variables.
"""

from __future__ import annotations

from typing import Any

try:
    from tensorflow.python.distribute import mirrored_run

    #: ``strategy.run`` starts one per replica (mirrored_run.py)
    REPLICA_THREAD: Any = mirrored_run._MirroredReplicaThread
    #: the code of the function the calling thread waits in while its replicas run
    CALL_FOR_EACH_REPLICA: Any = mirrored_run._call_for_each_replica.__code__
except (ImportError, AttributeError):  # pragma: no cover - a changed private module
    REPLICA_THREAD = CALL_FOR_EACH_REPLICA = None

try:
    #: a mirrored variable: no ``BaseResourceVariable``, its ``handle`` the current replica's
    from tensorflow.python.distribute.values import DistributedVariable
except ImportError:  # pragma: no cover - a changed private module: plain variables only
    DistributedVariable = ()  # type: ignore[assignment,misc]
