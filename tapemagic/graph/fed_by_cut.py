"""A cut fed only by another cut's outputs is not a first cut of its own.

TF-free. Each source's causes are found alone (``graph/analysis.py``), so two cut ops in a row on
one path can both come out primary for different sources: ``tf.quantization.quantize`` cuts
the layer before it, and the ``tf.quantization.dequantize`` after it, whose registered gradient
is missing, is the op the raising call names for the layer after it. The op whose removal the
user needs first is the one that took the weights' values off the gradient path; an op that
only ever sees what that cut made (every input it has from a source of the call comes out of
another primary cut op) would have nothing to differentiate until that one is fixed. It stays a
finding, but not a primary one.
"""

from __future__ import annotations

from dataclasses import replace

from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import SourceAnalysis
from tapemagic.graph.walks import forward


def demote(graph: ProvenanceGraph, results: list[SourceAnalysis], anc: set[int]) -> None:
    """Mark non-primary, in place, each primary cut whose op is fed only by other primary cuts."""
    cut_ops = {c.edge.ref for r in results for c in r.causes
               if c.primary and c.edge is not None and c.edge.kind == "op"}
    if len(cut_ops) < 2:
        return
    trace = graph.trace
    candidates = {seq for seq in cut_ops if _fed_by(graph, seq, cut_ops)}
    if not candidates:
        return
    starts = [r.node for r in results if r.node is not None]
    reached = forward(graph, starts, anc, diff_only=False)
    fed_only = set()
    for seq in candidates:
        op = graph.ops[seq]
        # an input no source reaches (a constant, a shape) does not feed the weights' values in
        inputs = [t for t in op.inputs if t in reached]
        makers = [trace.producer_of(t) for t in inputs]
        if inputs and all(m is not None and m.seq in cut_ops and m.seq != seq for m in makers):
            fed_only.add(seq)
    if not fed_only or fed_only >= cut_ops:
        return
    for result in results:
        result.causes = [replace(c, primary=False)
                         if c.primary and c.edge is not None and c.edge.kind == "op"
                         and c.edge.ref in fed_only else c for c in result.causes]


def _fed_by(graph: ProvenanceGraph, seq: int, cut_ops: set[int]) -> bool:
    """Return True when some input of op ``seq`` is an output of another op of ``cut_ops``."""
    for tensor in graph.ops[seq].inputs:
        maker = graph.trace.producer_of(tensor)
        if maker is not None and maker.seq != seq and maker.seq in cut_ops:
            return True
    return False
