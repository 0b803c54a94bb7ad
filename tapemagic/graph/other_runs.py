"""Sources one run of a call site gets None for and another run of the same site trains.

A gradient call in a loop over per-task losses (``[tape.gradient(l, weights) for l in
losses]``, then the parts summed) differentiates another target each run: each head's weights
get None from the other heads' losses by design, and a gradient from their own. Only one run
of the site is analysed (the recorder is off for the others); a later run on the same
(persistent) tape that returned a gradient for a source the analysed run got None for is
recorded on the analysed call (``GradientCallRecord.recovered``, by ``tracing/sites.py``).
Such a None is not a cut: the source is marked as given no gradient by design here, with a
note. Only a None whose cause is that the target does not depend on the source at all
(``not-connected``): a cut on the path (an op without a gradient) cuts every run alike. Runs
on separate tapes (one task per step) are not compared: there the code must handle the None
itself (``graph/none_handling.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapemagic.graph.provenance import ProvenanceGraph
    from tapemagic.graph.verdicts import CallAnalysis


def forgive(graph: ProvenanceGraph, analyses: list[CallAnalysis],
            ) -> list[tuple[CallAnalysis, list[str]]]:
    """Mark the None a later run of the same call site recovered as by design.

    Every analysed run of one site and source list shares what any of them recovered (a
    re-armed site is analysed again on a run with the first run's target). Not when the
    analysed target reads a trainable weight that no gradient call takes as a source: then the
    loss is paired with the wrong sources (a loop of (loss, model) pairs with two models
    swapped), and the None is the cut TM104 names. Returns (call, source names) per call
    changed, for a note.
    """
    sources = {s.handle for a in analyses for s in a.call.sources if s.handle is not None}
    trainable = graph.trace.handle_trainable
    recovered: dict[tuple[object, int], set[int]] = {}
    for analysis in analyses:
        key = (_site(analysis), len(analysis.sources))
        recovered.setdefault(key, set()).update(analysis.call.recovered)
    changed, noted = [], set()
    for analysis in analyses:
        indices = recovered.get((_site(analysis), len(analysis.sources)), set())
        tape = analysis.tape
        if not indices or tape is None or any(
                trainable.get(h, True) and h not in sources
                for h in tape.watched_handles_at_exit & analysis.connected):
            continue
        names = []
        for i in sorted(indices):
            source = analysis.sources[i]
            if (source.result == "none" and source.verdict in ("severed", "unexplained")
                    and source.causes and all(c.cause == "not-connected" for c in source.causes)):
                source.verdict, source.causes, source.path = "zero", [], []
                names.append(source.source.name)
        if names and (_site(analysis), tuple(names)) not in noted:  # one note per site
            noted.add((_site(analysis), tuple(names)))
            changed.append((analysis, names))
    return changed


def _site(analysis: CallAnalysis) -> object:
    loc = analysis.call.loc
    return (getattr(loc, "file", None), getattr(loc, "line", None), analysis.call.method)
