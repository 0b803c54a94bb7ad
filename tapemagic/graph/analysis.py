"""Cut analysis: for each gradient call and source, a verdict and the cuts that explain it.

TF-free. For one ``tape.gradient(target, sources)`` call:

1. ``ANC``: every tensor the target depends on (all edges, real and virtual).
2. ``BD``: the tensors with a *differentiable* path to the target through ops the tape
   recorded (inside its recording spans); ``BD_ALL`` the same ignoring the spans.
3. Per source: in ``BD`` and watched → connected; in ``BD`` but not watched → not-watched;
   in ``BD_ALL`` only → an op on the path ran outside the tape; in ``ANC`` only → severed: the
   cuts are the non-differentiable edges between the source and the target, *primary* when
   their input still has a differentiable path from the source, *secondary* otherwise;
   outside ``ANC`` → not connected (or a Python branch on a tensor value chose constants).
4. The prediction is checked against what TensorFlow returned: a source that got a real
   gradient is connected whatever the trace says; a None that the trace cannot explain is
   ``unexplained``, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tapemagic.graph import fed_by_cut, py_functions, zero_below
from tapemagic.graph.provenance import Edge, ProvenanceGraph
from tapemagic.graph.refine import behind, missing_gradient, needed
from tapemagic.graph.runtime_causes import CONVERSIONS, runtime_causes
from tapemagic.graph.straight_through import swapped
from tapemagic.graph.verdicts import CallAnalysis, Cause, SourceAnalysis
from tapemagic.graph.walks import backward, forward, reconnects, shortest_path
from tapemagic.optypes import COMPARISON_OPS, ZERO_GRADIENT
from tapemagic.trace import (
    GradientCallRecord,
    HostEvent,
    RawLocation,
    SourceRecord,
    TapeRecord,
)

#: ``feeds(made, used)``: can the value made at ``made`` reach the statement at ``used``, by the
#: user's source? (True, False, or None when the source cannot say.)
Feeds = Callable[[RawLocation, RawLocation], "bool | None"]


def analyse(graph: ProvenanceGraph, feeds: Feeds | None = None) -> list[CallAnalysis]:
    """Analyse every recorded gradient call of the trace, in call order.

    ``feeds`` (the source index's) lets a host conversion that cannot reach the loss, by the
    source, be left out of the causes of a source with no dataflow to the target.
    """
    tapes = {t.id: t for t in graph.trace.tapes}
    return [_analyse_call(graph, call, tapes.get(call.tape), feeds)
            for call in graph.trace.gradient_calls]


def _analyse_call(graph: ProvenanceGraph, call: GradientCallRecord,
                  tape: TapeRecord | None, feeds: Feeds | None = None) -> CallAnalysis:
    targets = set(call.targets)

    recorded = graph.trace.span_test(tape)

    def in_span(edge: Edge) -> bool:
        return recorded(edge.seq)

    # A variable written before the tape started recording (another model's optimizer step
    # earlier in the same train step) is a leaf of this tape like any variable: the path
    # through that write carries no gradient by design, so it is not part of this call's
    # dataflow.
    anc = backward(graph, targets, lambda e: e.kind != "state" or in_span(e))
    sets = _Sets(
        anc=anc,
        bd_all=backward(graph, targets, lambda e: e.differentiable),
        bd=backward(graph, targets, lambda e: e.differentiable and in_span(e)),
        # tensors whose *value* reaches the target, not only as a condition, index or shape
        value=backward(graph, targets, lambda e: not e.gating and e.src in anc),
        live=_live(graph, targets, in_span),
    )
    results = [_analyse_source(graph, call, tape, source, sets, feeds) for source in call.sources]
    fed_by_cut.demote(graph, results, anc)
    zero_below.clear(graph, results, sets.bd)
    zero_error = bool(call.error_type == "AttributeError" and "_type_enum" in (
        call.error_message or ""))
    return CallAnalysis(call, tape, results, zero_error, sets.bd, sets.anc)


@dataclass(frozen=True, slots=True)
class _Sets:
    """Tensor sets of one gradient call (see the module docstring); ``value``: see _cuts."""

    anc: set[int]
    bd: set[int]
    bd_all: set[int]
    value: set[int]
    #: ``bd`` less what reaches the target only through a traced py_function input whose body
    #: gave it no gradient at run time (py_functions.py); None when no body did
    live: set[int] | None = None


def _live(graph: ProvenanceGraph, targets: set[int], in_span: Callable[[Edge], bool],
          ) -> set[int] | None:
    dead = py_functions.dead_edges(graph)
    if not dead:
        return None
    return backward(graph, targets, lambda e: e.differentiable and in_span(e) and id(e) not in dead)


def _target_location(graph: ProvenanceGraph, call: GradientCallRecord) -> RawLocation | None:
    """Return where the op that made the call's (single) target ran, if an op made it."""
    if len(call.targets) != 1:
        return None
    record = graph.trace.tensors.get(call.targets[0])
    op = graph.ops.get(record.producer[0]) if record is not None and record.producer else None
    return op.loc if op is not None else None


def _analyse_source(graph: ProvenanceGraph, call: GradientCallRecord, tape: TapeRecord | None,
                    source: SourceRecord, sets: _Sets, feeds: Feeds | None = None,
                    ) -> SourceAnalysis:
    node = source.handle if source.handle is not None else source.tensor
    found = SourceAnalysis(source, node, "connected")
    if node is None or (tape is not None and tape.made_before and found.result != "ok"):
        # no tensor to follow, or the forward pass ran before the run (another cell): nothing
        # here can say why
        found.verdict = "unexplained"
        return found
    causes = _causes(graph, call, tape, found, sets, feeds)
    if (source.kind != "tensor" and not source.trainable and source.trainable_dtype
            and tape is not None and tape.watch_accessed_variables
            and source.handle not in tape.watched_handles):
        # non-trainable state passed as a source (`model.weights`): the one thing to change is
        # the source list, whatever else the path shows
        causes = [Cause("not-watched", True)]
    if (call.unconnected == "zero" and found.result == "zero" and causes
            and all(c.cause == "not-connected" for c in causes)):
        # `unconnected_gradients=ZERO` asks for zeros for an unconnected source: as asked
        found.verdict = "zero"
        return found
    # only for a finding's chain (a search per connected source made a 10k-op step with hundreds
    # of weights cost a second); through values, not conditions (a mask is not the path)
    found.path = (shortest_path(graph, node, sets.value, set(call.targets))
                  or shortest_path(graph, node, sets.anc, set(call.targets))) if causes else []
    found.causes = causes
    if (found.result == "ok" and found.norm is None and node in sets.anc and node not in sets.bd
            and _cut_in_loop_bodies(graph, causes)):
        # a traced gradient (no value yet) whose every path is cut inside a loop body: while_v2
        # hands back zeros for it, not None (the loop's gradient fills in what the body lacks)
        found.result, found.norm = "zero", 0.0
    found.verdict = _verdict(found.result, causes, call.unconnected)
    if found.verdict == "connected" or (
            found.verdict == "zero" and not any(c.cause == "zero-at-runtime" for c in causes)):
        found.causes = []
    return found


def _causes(graph: ProvenanceGraph, call: GradientCallRecord, tape: TapeRecord | None,
            found: SourceAnalysis, sets: _Sets, feeds: Feeds | None) -> list[Cause]:
    """Return the causes the source's place among the call's tensor sets gives (see above)."""
    source, node = found.source, found.node
    assert node is not None
    watched = _watched(graph, tape, source, node)
    if not source.trainable_dtype:
        # an int or bool variable among the sources: no gradient is defined for it, whatever
        # the path (backprop_util.IsTrainable); the source list is what must change
        return [Cause("integer-dtype", True)]
    if node in sets.bd:
        return _connected_causes(graph, call, tape, found, sets, watched)
    causes: list[Cause] = []
    if node in sets.bd_all:
        op_seq = _first_op_outside(graph, node, sets.bd_all, tape)
        causes.append(Cause("outside-tape", True, op_seq=op_seq))
        if not watched:
            causes.append(Cause("not-watched", True))
    elif node in sets.anc:
        causes.extend(_cuts(graph, node, sets.anc, sets.value, set(call.targets)))
        if not watched:  # a tape-level cause: it alone would leave the gradient None
            causes.append(Cause("not-watched", True))
        _, bools = _host_events_reached(graph, node, tape)
        causes.extend(Cause("python-control-flow", False, event=e.id) for e in bools)
    else:
        hosts, bools = _host_events_reached(graph, node, tape)
        if feeds is not None:
            # a conversion whose value, by the source, never reaches the loss is not its cut
            target = _target_location(graph, call)
            hosts = [e for e in hosts if target is None or e.loc is None
                     or feeds(e.loc, target) is not False]
        conversions = [Cause("host-round-trip", True, event=hosts[0].id)] if hosts else []
        branches = [Cause("python-control-flow", not conversions, event=e.id) for e in bools]
        causes.extend(conversions)
        causes.extend(branches)
        if not conversions and not branches:
            causes.append(Cause("not-connected", True))
        if not watched and (conversions or not branches):
            causes.append(Cause("not-watched", True))
    return causes


def _connected_causes(graph: ProvenanceGraph, call: GradientCallRecord, tape: TapeRecord | None,
                      found: SourceAnalysis, sets: _Sets, watched: bool) -> list[Cause]:
    """Causes of a None or zero on a differentiable, recorded path (``node`` in ``BD``)."""
    source, node, bd = found.source, found.node, sets.bd
    assert node is not None
    causes: list[Cause] = []
    if not watched or (found.result == "none" and _watched_late(graph, tape, node, bd)):
        causes.append(Cause("not-watched", True))
    elif found.result in ("none", "zero", "error"):
        # "error": the backward pass raised (a py_function body that left TensorFlow)
        # an input's gradient at one point (an integrated-gradients baseline of zeros) is
        # zero by value: for a tensor source only an op zero everywhere is a cut
        causes.extend(c for c in runtime_causes(graph, node, bd, found.result)
                      if source.kind != "tensor" or getattr(graph.ops.get(c.op_seq or -1),
                                                            "op_type", "") in ZERO_GRADIENT)
        if not causes and found.result == "zero":
            # the differentiable part of the loss is zero (`mse * 0.0 + penalty`), and the
            # part that matters went through the host: a probable host round-trip
            hosts, _ = _host_events_reached(graph, node, tape)
            causes.extend(Cause("host-round-trip", True, event=e.id) for e in hosts[:1])
        if not causes and found.result == "error":
            causes.extend(Cause("non-differentiable-op", True, edge=edge)
                          for edge in missing_gradient(graph, call, node, sets.anc))
    elif (sets.live is not None and node not in sets.live and found.result == "ok"
          and found.norm is None):
        # a traced gradient through a py_function whose body left TensorFlow: the body's
        # own tape gave None when the graph ran, and TensorFlow put a zero in its place
        causes.extend(py_functions.causes(graph, node, bd))
        if causes:
            found.result, found.norm = "zero", 0.0
    return causes


def _cut_in_loop_bodies(graph: ProvenanceGraph, causes: list[Cause]) -> bool:
    """Return True when every primary cause is a cut by an op traced in a loop body."""
    bodies = graph.trace.loop_bodies
    primary = [c for c in causes if c.primary]
    if not bodies or not primary:
        return False
    for cause in primary:
        edge = cause.edge
        op = graph.ops.get(edge.ref) if edge is not None and edge.kind == "op" else None
        if op is None or op.graph not in bodies:
            return False
    return True


def _verdict(actual: str, causes: list[Cause], mode: str) -> str:
    if actual == "zero" and causes and all(c.cause == "zero-at-runtime" for c in causes):
        return "zero"  # connected: the values, not the code, zero it
    predicted_cut = bool(causes)
    if actual == "ok":
        return "connected"  # TensorFlow found a gradient: any cut we saw is on a side branch
    if actual == "none":
        return "severed" if predicted_cut else "unexplained"
    if actual == "zero":
        return "severed" if predicted_cut else "zero"
    return "severed" if predicted_cut else "connected"  # the call raised: trust the trace


def _watched(graph: ProvenanceGraph, tape: TapeRecord | None, source: SourceRecord,
             node: int) -> bool:
    if tape is None:
        return True
    if source.handle is not None:
        # the tape watches a variable it sees read only when the variable is trainable
        return ((tape.watch_accessed_variables and source.trainable)
                or node in tape.watched_handles or node in tape.watched_handles_at_exit)
    if node in tape.watched_tensors:
        return True
    producer = graph.trace.tensors[node].producer if node in graph.trace.tensors else None
    # an intermediate tensor the tape recorded is differentiable like a watched one
    return producer is not None and tape.recording_at(producer[0])


def _watched_late(graph: ProvenanceGraph, tape: TapeRecord | None, node: int,
                  bd: set[int]) -> bool:
    """Return True when a tensor source was first used on the path before ``tape.watch`` ran."""
    event = tape.watch_events.get(node) if tape is not None else None
    if event is None:
        return False
    uses = [e.seq for e in graph.out_edges.get(node, ()) if e.dst in bd and e.differentiable]
    return bool(uses) and min(uses) < event[0]


def _cuts(graph: ProvenanceGraph, node: int, anc: set[int], value: set[int],
          targets: set[int]) -> list[Cause]:
    """Return the cut edges between source ``node`` and the target, primary ones first.

    A cut is *gated* when it carries no gradient by design: the input of a condition, index
    or shape (``Edge.gating``), a comparison (a mask), or an edge whose output reaches the
    target only through such inputs (not in ``value``). Only cuts a user must fix are kept:
    when the other (ungated) cuts exist and fixing the primary ones would let the gradient
    through, the gated ones and every secondary cut sit on side paths and are dropped; when
    they would not, the cuts behind stay when the loss uses their value (a comparison counted
    after a rounding; not a select's mask). A loss of comparisons alone keeps its comparison.
    """
    reach = forward(graph, node, anc, diff_only=False)
    diff_reach = forward(graph, node, anc, diff_only=True)
    tensors = graph.trace.tensors
    found: list[tuple[bool, Cause]] = []
    for src in sorted(reach):
        for edge in graph.out_edges.get(src, ()):
            if edge.differentiable or edge.dst not in anc:
                continue
            primary = src in diff_reach
            if not primary and not tensors[src].trainable and (
                    edge.cause == "integer-dtype" or edge.dst not in value):
                # integer plumbing after an earlier cut is not news, nor an op on integers
                # whose result only indexes or sizes (a `//` on a crop size)
                continue
            op = graph.ops.get(edge.ref) if edge.kind == "op" else None
            gated = edge.gating or edge.dst not in value or (
                op is not None and op.op_type in COMPARISON_OPS)
            found.append((gated, Cause(edge.cause or "", primary, edge=edge)))
    ungated = [cause for gated, cause in found if not gated]
    if ungated:
        fixed = {id(c.edge) for c in ungated if c.primary}
        if reconnects(graph, node, anc, targets, fixed):
            found = [(False, c) for c in needed(graph, node, anc, targets,
                                                 [c for c in ungated if c.primary])]
        else:
            found = [(g, c) for g, c in found if not g or not c.primary and c.edge is not None
                     and not c.edge.gating and c.edge.dst in value]
    unique: dict[tuple[str, int, int], Cause] = {}
    for _, cause in found:
        assert cause.edge is not None
        key = (cause.edge.kind, cause.edge.ref, cause.edge.last_event)
        if key not in unique or (cause.primary and not unique[key].primary):
            unique[key] = cause
    kept = swapped(graph, node, anc, targets, list(unique.values()))
    return sorted(behind(graph, node, anc, targets, kept),
                  key=lambda c: (not c.primary, c.edge.seq if c.edge else 0))


def _host_events_reached(graph: ProvenanceGraph, node: int, tape: TapeRecord | None,
                         ) -> tuple[list[HostEvent], list[HostEvent]]:
    """Return (conversions, Python branches) of source-derived tensors, from one forward walk.

    Only events made while the tape recorded count. A conversion is the probable cut when no
    value links back into TensorFlow (a NumPy scalar times a Python float carries nothing back);
    a branch (``if`` on a tensor) chose constants.
    """
    events = [e for e in graph.trace.host_events
              if (e.kind == "bool" or e.kind in CONVERSIONS)
              and (tape is None or tape.recording_at(e.seq))]
    if not events:
        return [], []
    reach = forward(graph, node, set(graph.trace.tensors), diff_only=False)
    hits = [e for e in events if any(s in reach for s in e.sources)]
    return [e for e in hits if e.kind != "bool"], [e for e in hits if e.kind == "bool"]


def _first_op_outside(graph: ProvenanceGraph, node: int, bd_all: set[int],
                      tape: TapeRecord | None) -> int | None:
    reach = forward(graph, node, bd_all, diff_only=True)
    outside = sorted(
        e.seq for n in reach for e in graph.out_edges.get(n, ())
        if e.kind == "op" and e.dst in reach and tape is not None
        and not graph.trace.recorded_by(tape, e.seq)
    )
    return outside[0] if outside else None
