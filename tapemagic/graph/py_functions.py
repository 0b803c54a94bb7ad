"""Traced ``tf.py_function`` ops whose body gave an input no gradient when the graph ran.

TF-free. In graph mode a py_function is one ``EagerPyFunc`` op with a registered gradient, so
the traced dataflow is differentiable through it; whether its body kept the path is known only
from the run (``tracing/py_bodies.py``): TensorFlow's own tape inside the body returned None for
an input, and TensorFlow handed back a scalar zero in its place (``script_ops.EagerFunc``). The
op's edges from such inputs are *dead*: a source whose every differentiable path crosses one
gets zeros, or a backward pass that fails on the zero's shape.

A body that ran on no recorded token (Keras traces its train function more than once; the run
may use a later trace than the one analysed) is matched by the op's line: the same
``tf.py_function`` call with the same body.
"""

from __future__ import annotations

from tapemagic.graph import memo
from tapemagic.graph.provenance import Edge, ProvenanceGraph
from tapemagic.graph.verdicts import Cause
from tapemagic.graph.walks import forward
from tapemagic.py_body import PyBody
from tapemagic.trace import OpRecord


def dead_edges(graph: ProvenanceGraph) -> frozenset[int]:
    """Return the ``id()`` of every op edge from a py_function input its body gave no gradient.

    Once per graph; empty when no traced py_function's gradient ran.
    """
    return memo.once(graph, "dead_py_edges", lambda: frozenset(id(e) for e in _dead(graph)))


def causes(graph: ProvenanceGraph, node: int, bd: set[int]) -> list[Cause]:
    """Host round-trips in the bodies whose dead edges cut every path from ``node`` (in ``bd``).

    Empty when no such body converted a tensor on the host (its None has another reason, which
    the trace cannot name: nothing is reported).
    """
    dead = dead_edges(graph)
    reach = forward(graph, node, bd, diff_only=True)
    seqs = sorted({e.ref for n in reach for e in graph.out_edges.get(n, ())
                   if id(e) in dead and e.dst in reach})
    found = []
    for seq in seqs:
        event = traced_cause(graph, graph.ops[seq], reach)
        if event is not None:
            found.append(Cause("host-round-trip", True, event=event, op_seq=seq))
    return found


def traced_cause(graph: ProvenanceGraph, op: OpRecord, reach: set[int]) -> int | None:
    """Return the conversion that cut a traced py_function's input in ``reach``, else None.

    For a gradient whose value came back None or zero (a step that returns its gradients): the
    body must have given an input on the path no gradient when the graph ran.
    """
    dead = dead_edges(graph)
    body = _body_of(graph, op.seq)
    if body is None or not any(id(e) in dead for n in reach for e in graph.out_edges.get(n, ())
                               if e.kind == "op" and e.ref == op.seq):
        return None
    return pick(graph, body.conversions, op, reach)


def pick(graph: ProvenanceGraph, conversions: list[int], op: OpRecord, reach: set[int],
         ) -> int | None:
    """Return the body's conversion of an input on the source's path (in ``reach``).

    Else the conversion of a value the body derived, else None (it converted only inputs off
    the path).
    """
    arguments = graph.trace.body_arguments
    on_path = {i for i, serial in enumerate(op.inputs) if serial in reach}
    return next((e for e in conversions if arguments.get(e) in on_path),
                next((e for e in conversions if e not in arguments), None))


def _dead(graph: ProvenanceGraph) -> list[Edge]:
    trace = graph.trace
    if not trace.py_bodies:
        return []
    dead: list[Edge] = []
    for seq in trace.py_function_ops:
        op = graph.ops.get(seq)
        body = _body_of(graph, seq)
        if op is None or body is None or not body.none_inputs:
            continue
        for tensor in set(op.inputs):
            positions = {i for i, serial in enumerate(op.inputs) if serial == tensor}
            if positions <= body.none_inputs:
                dead.extend(e for e in graph.out_edges.get(tensor, ())
                            if e.kind == "op" and e.ref == seq)
    return dead


def _body_of(graph: ProvenanceGraph, seq: int) -> PyBody | None:
    """Return the graded body of the py_function op ``seq``, else of one traced at its line."""
    trace = graph.trace
    token, name = trace.py_function_ops.get(seq, ("", ""))
    body = trace.py_bodies.get(token)
    if body is not None and body.graded:
        return body
    op = graph.ops.get(seq)
    if op is None or op.loc is None or not name:
        return None
    # the same call: the same line, the same body function, as many inputs (a helper that
    # wraps any function in a py_function has one line for all of them)
    same = (op.loc.file, op.loc.line, op.loc.col, name, len(op.inputs))
    for other, (token, body_name) in trace.py_function_ops.items():
        twin = graph.ops.get(other)
        candidate = trace.py_bodies.get(token)
        if (other != seq and twin is not None and twin.loc is not None and candidate is not None
                and candidate.graded and (twin.loc.file, twin.loc.line, twin.loc.col, body_name,
                                          len(twin.inputs)) == same):
            return candidate
    return None
