"""The provenance graph of a trace: tensors as nodes, dataflow as classified edges.

TF-free. Real edges come from ops (input → output); virtual edges, never differentiable, come
from host round-trips (a tensor → the leaf its NumPy value became) and from variable
assignments (the assigned value → every later read of that variable). Each edge is classified
with TensorFlow's own facts: its gradient registry (recorded in the trace), the ops whose
registered gradient returns None, and dtypes (``backprop_util.IsTrainable``).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from tapemagic.optypes import (
    GATING_INPUTS,
    METADATA_OPS,
    NUMPY_FUNCTION_OPS,
    READ_OPS,
    RETURNS_NONE,
    is_function_call,
)
from tapemagic.trace import OPTIMIZER_WRITE, HostEvent, OpRecord, Trace


@dataclass(slots=True, unsafe_hash=True)
class Edge:
    """Dataflow from tensor ``src`` to tensor ``dst``; equal and hashed by value, never changed.

    ``kind`` is ``op``, ``host`` or ``state``; ``ref`` is the op seq (op, state) or the root host
    event id (host); ``cause`` is None for a differentiable edge, else a cause from the
    vocabulary (``metadata`` edges are dropped before they get here). Not ``frozen``: a frozen
    dataclass sets each field through ``object.__setattr__``, which made building the graph of
    an eager ResNet50 step (7,604 edges) a third slower; nothing assigns to an edge.
    """

    src: int
    dst: int
    kind: str
    ref: int
    cause: str | None
    seq: int
    last_event: int = 0
    gating: bool = False  # the op's input only selects or indexes (optypes.GATING_INPUTS)

    @property
    def differentiable(self) -> bool:
        """Return True when a gradient can flow along this edge."""
        return self.cause is None


#: a cause not classified yet (None is a cause: the edge is differentiable)
_UNSET: Any = object()
_NO_GATES: frozenset[int] = frozenset()
_NO_WITNESS: dict[int, str] = {}


class ProvenanceGraph:
    """Index a :class:`Trace` by tensor: who produced it, who consumed it, through which edge."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.in_edges: dict[int, list[Edge]] = defaultdict(list)
        self.out_edges: dict[int, list[Edge]] = defaultdict(list)
        self.ops = {op.seq: op for op in trace.ops}
        self.events = {e.id: e for e in trace.host_events}
        self.reads: dict[int, list[OpRecord]] = defaultdict(list)  # handle -> read ops
        #: (op type, input trainable, output trainable, input index > 0) -> cause (classify)
        self._causes: dict[tuple[str, bool, bool, bool], str | None] = {}
        for op in trace.ops:
            self._add_op(op)
        self._add_state_edges()
        self._add_host_edges()

    def read_values(self, node: int, variable: bool) -> list[int]:
        """Return the tensors the forward reads of variable handle ``node`` made.

        ``variable`` False (a tensor source), or a variable never read forward: ``[node]``.
        """
        reads = [op for op in self.reads.get(node, ()) if not op.in_gradient] if variable else []
        return [out for op in reads for out in op.outputs] or [node]

    def _add(self, edge: Edge) -> None:
        self.in_edges[edge.dst].append(edge)
        self.out_edges[edge.src].append(edge)

    def _add_op(self, op: OpRecord) -> None:
        op_type = op.op_type
        if op_type in METADATA_OPS:
            return
        inputs = op.inputs
        if op_type in READ_OPS and inputs:
            self.reads[inputs[0]].append(op)
        tensors, causes = self.trace.tensors, self._causes
        in_edges, out_edges = self.in_edges, self.out_edges
        gating = GATING_INPUTS.get(op_type, _NO_GATES)
        witnessed = self.trace.none_inputs.get(op.seq, _NO_WITNESS)
        zero_given = self.trace.zero_inputs.get(op.seq, _NO_WITNESS)  # zeros on any values
        raised = op.seq in self.trace.raising_gradients  # its gradient function raised
        outputs = op.outputs
        # IdentityN passes input i to output i (array_grad.py: _IdentityNGrad returns the output
        # gradients as they are): one edge each, not all pairs (a step of 428 weights made 183k
        # edges). Not for the IdentityN of a tf.custom_gradient, whose outputs depend on all.
        paired = (op_type == "IdentityN" and len(inputs) == len(outputs)
                  and op.seq not in self.trace.custom_gradients)
        seq = op.seq
        # each output's dtype once per op, not per input (most ops have one output)
        pairs = ([(outputs[0], tensors[outputs[0]].trainable)] if len(outputs) == 1
                 else [(dst, tensors[dst].trainable) for dst in outputs])
        for i, src in enumerate(inputs):
            in_trainable, later = tensors[src].trainable, i > 0
            for dst, trainable in (pairs[i:i + 1] if paired else pairs):
                # classify reads the op only through these four (the registry is per op type)
                key = (op_type, in_trainable, trainable, later)
                cause = causes.get(key, _UNSET)
                if cause is _UNSET:
                    cause = causes[key] = classify(op, in_trainable, trainable,
                                                   self.trace.registry.get(op_type, "fn"), i)
                if cause == "metadata":
                    continue
                if raised or (cause is None and (i in witnessed or i in zero_given)):
                    # its registered gradient gives it None, or raised (then the gradient
                    # call fails at this op whatever else its outputs are: an integer index)
                    cause = "non-differentiable-op"
                edge = Edge(src, dst, "op", seq, cause, seq, 0, i in gating)
                in_edges[dst].append(edge)
                out_edges[src].append(edge)

    def _add_state_edges(self) -> None:
        writes: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
        for seq, (handle, value, api) in sorted(self.trace.state_writes.items()):
            # an optimizer's update of a slot or a weight is training, never a cut: a later
            # step's read of that weight starts afresh (its own gradient call)
            writes[handle].append((seq, None if api == OPTIMIZER_WRITE else value))
        for handle, history in writes.items():
            seqs = [s for s, _ in history]  # sorted: state_writes was walked in seq order
            for read in self.reads.get(handle, []):
                last = bisect.bisect_left(seqs, read.seq) - 1  # the newest write before the read
                if last < 0 or history[last][1] is None:
                    continue
                seq, value = history[last]
                for dst in read.outputs:
                    self._add(Edge(value, dst, "state", seq, "variable-assign", seq))  # type: ignore[arg-type]

    def _add_host_edges(self) -> None:
        roots: dict[int, list[tuple[int, tuple[int, ...]]]] = {}  # many leaves share an event
        for leaf, link in self.trace.host_links.items():
            if link.event not in roots:
                roots[link.event] = self._roots(link.event)
            for root, sources in roots[link.event]:
                event = self.events[root]
                cause = "numpy-function" if event.kind == "numpy_function" else "host-round-trip"
                for src in sources:
                    self._add(Edge(src, leaf, "host", root, cause, event.seq, link.event))

    def _roots(self, event_id: int) -> list[tuple[int, tuple[int, ...]]]:
        """Return (root event id, its tensor sources) for each conversion behind an event."""
        found: list[tuple[int, tuple[int, ...]]] = []
        stack, seen = [event_id], set()
        while stack:
            current = stack.pop()
            if current in seen or current not in self.events:
                continue
            seen.add(current)
            event = self.events[current]
            if event.sources:
                found.append((current, event.sources))
            stack.extend(event.parents)
        return sorted(found)

    def host_chain(self, root: int, last: int) -> list[HostEvent]:
        """Return the host events from conversion ``root`` to event ``last`` (parent links)."""
        path: dict[int, int | None] = {last: None}
        stack = [last]
        while stack:
            current = stack.pop()
            if current == root:
                break
            for parent in self.events[current].parents if current in self.events else ():
                if parent not in path:
                    path[parent] = current
                    stack.append(parent)
        chain: list[HostEvent] = []
        node: int | None = root if root in path else last
        while node is not None:
            chain.append(self.events[node])
            node = path.get(node)
        return chain


def classify(op: OpRecord, in_trainable: bool, out_trainable: bool, registry: str,
             index: int) -> str | None:
    """Return why no gradient flows from input ``index`` of ``op`` to an output, or None.

    The order matters: an op-level fact (StopGradient, registry, gradient returning None)
    explains more than the dtype that follows from it.
    """
    op_type = op.op_type
    if op_type in METADATA_OPS:
        return "metadata"
    if op_type == "StopGradient":
        return "stop-gradient"
    if is_function_call(op_type):
        return None
    if op_type in READ_OPS and index > 0:
        return "integer-dtype"  # gather indices
    if op_type in NUMPY_FUNCTION_OPS:
        return "numpy-function"
    if registry in ("none", "missing") or op_type in RETURNS_NONE:
        return "non-differentiable-op"
    if not in_trainable or not out_trainable:
        return "integer-dtype"
    return None
