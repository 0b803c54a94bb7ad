"""What a ``tf.GradientTape``'s watches left: the variables it watched, the watches that raised.

Imports TensorFlow (through ``results.py`` and the quarantine). Called by ``tapes.py``'s
wrappers of ``__exit__`` and ``watch``; the bookkeeping runs under the recorder's ``quiet()``
so no op it runs is recorded as the user's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapemagic.trace import RawLocation, TapeRecord
from tapemagic.tracing._tf_private.keras_private import inner_variable
from tapemagic.tracing.recorder import Recorder
from tapemagic.tracing.results import describe_watch, graph_would_convert


def note_watched(rec: Recorder, tape: Any, record: TapeRecord) -> None:
    """Note the variables ``tape`` watched when it stopped recording (its ``__exit__``)."""
    with rec.quiet():
        try:
            for variable in tape.watched_variables():
                record.watched_handles_at_exit.add(rec.handle_serial(variable.handle))
                rec.variables_seen.setdefault(id(variable), variable)
        except Exception:  # noqa: BLE001 - a tape already deleted or reset has nothing to say
            pass


def note_failed_watch(rec: Recorder, loc: RawLocation | None, tensor: Any,
                      error: BaseException, record_of: Callable[[], TapeRecord]) -> None:
    """Remember a ``tape.watch`` that raised (a Keras 3 ``Variable``, a symbolic input).

    ``loc`` is the user's ``watch`` call; ``record_of`` gives the tape's record, asked only
    when the watch is kept (an array ``--eager`` made is not the user's cut).
    """
    with rec.quiet():
        if graph_would_convert(tensor, rec.function_arrays):  # --eager's doing, not a cut
            rec.trace.eager_array_watches.append(loc)
            return
        message, what, tensor = describe_watch(tensor, error)
        handle = getattr(inner_variable(tensor), "handle", None)
        if handle is not None:  # a Keras variable: name it, the report says which
            rec.handle_serial(handle)
            rec.variables_seen.setdefault(id(tensor), tensor)
        record_of().failed_watches.append((loc, message, what))
