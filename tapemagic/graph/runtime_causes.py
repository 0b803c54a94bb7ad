"""Causes of a None or zero gradient that only the run shows, not the graph's shape.

TF-free; part of the cut analysis (``graph/analysis.py``): a ``tf.custom_gradient`` whose
gradient function returned None, a ``tf.py_function`` whose body left TensorFlow, an op whose
gradient was zero at run time.
"""

from __future__ import annotations

from tapemagic.graph import memo, py_functions
from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import Cause
from tapemagic.graph.walks import forward
from tapemagic.optypes import CUSTOM_GRADIENT_MODULE, VALUE_CHECKED, ZERO_GRADIENT
from tapemagic.trace import HostEvent, OpRecord

#: host events that convert a tensor to a host value (not a Python branch on one)
CONVERSIONS = frozenset({"numpy", "scalar", "ufunc", "array_function", "numpy_function"})


def runtime_causes(graph: ProvenanceGraph, node: int, bd: set[int], result: str) -> list[Cause]:
    """Causes of a None or zero gradient along a differentiable, watched path.

    The static graph cannot see these: a ``tf.custom_gradient`` whose gradient function
    returned None, a ``tf.py_function`` whose body left TensorFlow (its gradient tape inside
    sees a constant), an op whose gradient was zero at run time (``Sign``, a ReLU with no
    active unit, a saturated clip).
    """
    candidates = _runtime_candidates(graph)
    if not candidates:
        return []  # no op of the run could explain it: skip the walk (hundreds of sources)
    reach = forward(graph, node, bd, diff_only=True)
    ops = sorted({e.ref for n in reach for e in graph.out_edges.get(n, ())
                  if e.kind == "op" and e.ref in candidates and e.dst in reach
                  and e.differentiable})
    causes: list[Cause] = []
    for seq in ops:
        op = graph.ops[seq]
        if op.api_module == CUSTOM_GRADIENT_MODULE and op.op_type in ("Identity", "IdentityN"):
            if result == "none":
                causes.append(Cause("custom-gradient", True, op_seq=seq))
        elif op.op_type in ("EagerPyFunc", "PyFunc", "PyFuncStateless"):
            event = (py_functions.traced_cause(graph, op, reach) if op.graph else
                     py_functions.pick(graph, [e.id for e in _body_conversions(graph, op)], op,
                                       reach))
            if event is not None:
                causes.append(Cause("host-round-trip", True, event=event, op_seq=seq))
    if causes:
        return causes[:1] if result == "none" else causes
    if result == "zero":
        # a difference of equal terms is zero whatever the weights: the first explanation
        zeroing = [s for s in ops if s in graph.trace.self_cancelling] or [
            s for s in ops if graph.ops[s].op_type in ZERO_GRADIENT or graph.ops[s].saturated]
        if not zeroing:
            # traced ops (graph mode) carry no values: the first saturating op on the path of
            # a gradient TensorFlow returned as zeros is its probable cause (a softmax before
            # the clip of its probabilities: the clip saturates only where the softmax does);
            # an op a probe asked passed gradients on this run's values: it is none
            zeroing = [s for s in ops if graph.ops[s].graph and not graph.ops[s].probed
                       and graph.ops[s].op_type in VALUE_CHECKED]
        causes.extend(Cause("zero-at-runtime", True, op_seq=s) for s in zeroing[:1])
    return causes


def _runtime_candidates(graph: ProvenanceGraph) -> frozenset[int]:
    """Return the seqs of the ops that can explain a None or zero at run time (once per graph)."""
    return memo.once(graph, "runtime_candidates", lambda: frozenset(
        op.seq for op in graph.ops.values()
        if (op.api_module == CUSTOM_GRADIENT_MODULE and op.op_type in ("Identity", "IdentityN"))
        or op.op_type in ("EagerPyFunc", "PyFunc", "PyFuncStateless")
        or op.op_type in ZERO_GRADIENT or op.saturated or op.seq in graph.trace.self_cancelling
        or (op.graph and op.op_type in VALUE_CHECKED)))


def _body_conversions(graph: ProvenanceGraph, op: OpRecord) -> list[HostEvent]:
    """Host conversions made inside the body of a ``tf.py_function`` op (they ran before it)."""
    tensors = graph.trace.tensors
    producers = [tensors[i].producer for i in op.inputs if i in tensors]
    start = max((p[0] for p in producers if p is not None), default=0)
    return [e for e in graph.trace.host_events
            if start < e.seq < op.seq and e.kind in CONVERSIONS
            and e.loc is not None and e.loc.function != "<module>"]
