"""Weights a derivative-only loss cannot see: no gradient, by design.

TF-free. A Hamiltonian network's loss is built from dH/dx (an inner ``tape.gradient(H, x)``), a
physics-informed network's from du/dx (``batch_jacobian``), a force field's from the energy's
gradient. A weight that only shifts the inner target by a constant (the last layer's bias)
changes none of those derivatives: TensorFlow gives it None, exactly, and the model trains as
meant (Keras' optimizers skip a None gradient). That is no cut to fix.

A source counts when TensorFlow returned None for it, the analysis found no other cause than
"not connected" (or none at all: the path is there, the value is not), the call's target
depends on the output of an earlier gradient call's backward pass, and the source feeds that
earlier call's target. Its verdict becomes ``zero`` ("no gradient, by design"), as for
``unconnected_gradients=ZERO`` (``none_handling.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis


def forgive(graph: ProvenanceGraph, analyses: list[CallAnalysis],
            ) -> list[tuple[CallAnalysis, CallAnalysis, list[str]]]:
    """Mark the sources a derivative-only loss cannot reach as given no gradient by design.

    Only in a call where another source got a gradient (when none does, nothing trains).
    Returns (call, the earlier call whose derivatives make its loss, source names) per call
    changed, for a note.
    """
    changed = []
    for analysis in analyses:
        candidates = [s for s in analysis.sources
                      if s.source.result == "none" and s.node is not None
                      and s.verdict in ("severed", "unexplained")
                      and all(c.cause == "not-connected" for c in s.causes)]
        if not candidates or not any(s.source.result == "ok" for s in analysis.sources):
            continue
        earlier = [a for a in analyses if a is not analysis and a.call.seq < analysis.call.seq
                   and _derivatives_reach(graph, a, analysis, analyses)]
        names = []
        inner = None
        for source in candidates:
            inner = next((a for a in earlier if source.node in a.ancestors), None)
            if inner is not None:
                source.verdict, source.causes, source.path = "zero", [], []
                names.append(source.source.name)
        if names and inner is not None:
            changed.append((analysis, inner, names))
    return changed


def _derivatives_reach(graph: ProvenanceGraph, inner: CallAnalysis, outer: CallAnalysis,
                       analyses: list[CallAnalysis]) -> bool:
    """Return True when ``outer``'s target depends on a tensor ``inner``'s backward pass made.

    The call is numbered when it starts (``GradientCallRecord.seq``); its backward ops follow,
    recorded ``in_gradient``, before the next call starts.
    """
    start = inner.call.seq
    end = min((a.call.seq for a in analyses if a.call.seq > start), default=start)
    for tensor in outer.ancestors:
        record = graph.trace.tensors.get(tensor)
        producer = record.producer if record is not None else None
        op = graph.ops.get(producer[0]) if producer is not None else None
        if op is not None and op.in_gradient and start < op.seq < end:
            return True
    return False
