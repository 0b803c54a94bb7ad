"""A copy of the trace so far, while the user's code runs on: the report before the cell ends.

Imports TensorFlow (through the recorder's helpers). A ``fit`` of many epochs has its checked
steps analysed in its first seconds; the door can show the report then, while training goes
on (``%%gradcheck``: :mod:`tapemagic.preview`). :func:`snapshot` is what
:meth:`~tapemagic.tracing.recorder.Recorder.finish` makes at the end, without ending anything:
the names of the weights and APIs resolved on a view of the trace, the recorder's tables left
as they are.

Not in the snapshot, only in the final report: what the session learns when it ends (weights
Keras does not track, read from Keras' tracking then; the self-test; the code's exception).
"""

from __future__ import annotations

import dataclasses

from tapemagic.trace import Trace
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import keras_state, naming, symbolic, witness
from tapemagic.tracing.recorder import Recorder

__all__ = ["snapshot"]


def snapshot(rec: Recorder) -> Trace:
    """Return a TF-free view of ``rec``'s trace up to now, names resolved; ``rec`` goes on.

    Call it while the recorder is detached (every site analysed: nothing records meanwhile)
    and build the report from it at once: the view shares the recorder's records, which a
    later run may still update (its count of runs, a new site).
    """
    witness.note(rec)  # idempotent: the same ops give the same witnessed inputs at the end
    view = dataclasses.replace(
        rec.trace,
        ops=list(rec.trace.ops),
        gradient_calls=list(rec.trace.gradient_calls),
        handle_names=naming.name_handles(rec.handle_objects, rec.variables_seen,
                                         rec.scope_callers),
        api_labels={k: naming.api_label(k, g) for k, g in rec.api_frames.items()},
        versions={"tensorflow": tfp.tf_version(), "keras": keras_state.keras_version() or ""},
    )
    symbolic.name_unreached_sources(view)  # as the session does at its end: the same names
    return view
