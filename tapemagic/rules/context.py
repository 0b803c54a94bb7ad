"""What a rule can ask about one analysed run: hits, ops, paths, the source index.

TF-free. One :class:`RuleContext` is built per report from the provenance graph, the cut
analysis of every gradient call and the :class:`~tapemagic.locations.SourceIndex`. Rules read
it; they never walk the trace or the source on their own, so every "where" and "which path"
question has one answer shared by all rules.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from functools import cached_property

from tapemagic.graph import made_by
from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.graph.walks import backward, forward
from tapemagic.locations import SourceIndex
from tapemagic.optypes import READ_OPS, ZERO_GRADIENT, write_api
from tapemagic.rules.base import Hit, Match
from tapemagic.rules.substitutes import repeated_candidate
from tapemagic.trace import OpRecord, RawLocation, TapeRecord

_REASONS = {
    "none": "it is registered as not differentiable",
    "missing": "no gradient is registered for it (the gradient call raises: no weight gets one)",
    "returns-none": "its registered gradient returns None",
    # the call did not raise: TensorFlow never asked for the missing gradient (an integer
    # output, a Discretization's bucket ids, carries none back to it)
    "missing-unasked": "no gradient is registered for it",
}


def place(raw: RawLocation | None) -> tuple[object, ...]:
    """Return a hashable key for a source position (file, line, column)."""
    if raw is None:
        return ("?",)
    return (raw.file, raw.line, raw.col)


#: The name TensorFlow gives every tf.Variable made without one (eager names are not unique).
_DEFAULT_NAME = re.compile(r"^Variable(_\d+)?(:0)?$")
_FLOATS = ("float16", "bfloat16", "float32", "float64")


class RuleContext:
    """The analysed run, as rules see it."""

    def __init__(self, graph: ProvenanceGraph, analyses: Sequence[CallAnalysis],
                 index: SourceIndex) -> None:
        self.graph = graph
        self.analyses = analyses
        self.index = index
        self.trace = graph.trace
        self._underflows: dict[int, list[int]] = {}

    # -- what the cut analysis found ---------------------------------------------------------------
    @cached_property
    def all_hits(self) -> tuple[Hit, ...]:
        """Every (call, source, cause) of the cut analysis, in call and source order."""
        return tuple(
            Hit(analysis, i, source, cause)
            for analysis in self.analyses
            for i, source in enumerate(analysis.sources)
            for cause in source.causes
        )

    def hits(self, cause: str) -> Iterator[Hit]:
        """Yield the hits whose cause is ``cause`` (a word of the cause vocabulary)."""
        return (h for h in self.all_hits if h.cause.cause == cause)

    # -- naming ------------------------------------------------------------------------------------
    def op_api(self, op: OpRecord) -> str:
        """Return what the user wrote for ``op``: its public ``tf.*`` API, else the snippet."""
        label = None
        if op.api_module and op.api_function:
            label = self.trace.api_labels.get((op.api_module, op.api_function))
        if label is None or not label.startswith("tf.") or label.startswith("tf.__"):
            # an op inside a Keras layer, traced (no columns): the call on its line, not the op
            label = self.index.snippet(op.layer_loc or op.loc) or (
                op.layer and self.index.snippet(self.index.line_call(op.loc))) or op.op_type
        return label

    def source_argument(self, loc: RawLocation | None, index: int) -> str | None:
        """Return the Python name the gradient call at ``loc`` passed as source ``index``.

        The call's second argument is one name or a list/tuple of names; None otherwise.
        """
        node = self.index.call_at(loc)
        argument = node.args[1] if node is not None and len(node.args) > 1 else None
        items = argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
        item = items[index] if index < len(items) else None
        return item.id if isinstance(item, ast.Name) else None

    def handle_name(self, handle: int) -> str:
        """Return the display name of a variable handle serial."""
        return self.trace.handle_names.get(handle, f"variable#{handle}")

    # -- where a connection ends ------------------------------------------------------------------
    def reads_in_span(self, hit: Hit) -> list[OpRecord]:
        """Return the forward reads of a variable source while its call's tape recorded."""
        node = hit.source.node
        if node is None or hit.source.source.handle is None:
            return []
        return self._reads_while(node, hit.analysis.tape)

    def _reads_while(self, handle: int, tape: TapeRecord | None) -> list[OpRecord]:
        """Return the forward reads of ``handle`` made while ``tape`` recorded."""
        return [op for op in self.graph.reads.get(handle, ())
                if not op.in_gradient and (tape is None or tape.recording_at(op.seq))]

    def recreated(self, hit: Hit) -> int | None:
        """Return the handle of a variable made again under the source's name, read instead.

        The shape of ``self.w = tf.Variable(...)`` inside ``__call__``: the source list holds
        the variable of an earlier call, the loss reads a new one with the same name.
        """
        if hit.source.source.handle is None or self.reads_in_span(hit):
            return None
        source = hit.source.source.handle
        name = self.handle_name(source)
        # every unnamed tf.Variable is "Variable": then only the same line making it again
        # tells a variable made again from another variable
        default = _DEFAULT_NAME.match(name) is not None
        first = self.trace.handle_created.get(source) if default else None
        if default and first is None:
            return None
        tape = hit.analysis.tape
        for handle, raw in self.trace.handle_created.items():
            if handle == source or self.handle_name(handle) != name or raw is None:
                continue
            if first is not None and (first.file, first.line) != (raw.file, raw.line):
                continue
            if self._reads_while(handle, tape):
                return handle
        return None

    def dangling(self, hit: Hit) -> OpRecord | None:
        """Return the last op computed from a source read in the tape that the loss never used."""
        spread = self._spread(hit)
        return None if spread is None else spread[1]

    def spread(self, hit: Hit) -> tuple[set[int], set[int]]:
        """Return the tensors the tape computed from a source, and those no recorded op read."""
        spread = self._spread(hit)
        return (set(), set()) if spread is None else (spread[0], spread[2])

    def _spread(self, hit: Hit) -> tuple[set[int], OpRecord, set[int]] | None:
        """Return what the tape computed from a variable source: tensors, last op, ends.

        The ends are the tensors of that spread that no recorded op read further (an
        encoder's returned states, a prediction): the values the loss never used.
        """
        reads = self.reads_in_span(hit)
        if not reads:
            return None
        tape = hit.analysis.tape
        seen = {t for op in reads for t in op.outputs}
        stack, last, inner = list(seen), max(reads, key=lambda op: op.seq), set()
        while stack:
            node = stack.pop()
            for edge in self.graph.out_edges.get(node, ()):
                op = self.graph.ops.get(edge.ref) if edge.kind == "op" else None
                if op is None or op.in_gradient:
                    continue
                if tape is not None and not tape.recording_at(op.seq):
                    continue
                inner.add(node)
                if edge.dst in seen:
                    continue
                seen.add(edge.dst)
                stack.append(edge.dst)
                if op.seq > last.seq and op.loc is not None:
                    last = op
        return seen, last, seen - inner

    def other_model(self, hit: Hit) -> int | None:
        """Return a weight of another model that the target reads in a variable source's place.

        The shape of a DDPG step differentiating the actor's loss with respect to the *target*
        actor's weights: both models were built by the same code (one factory function), so
        the weight the loss reads instead was made at the same line, with the same shape and
        dtype. None when any source of the call is read while the tape recorded (or is a
        tensor), when the run did not make it, or when no such twin reaches the target.
        """
        source = hit.source.source
        made = self.trace.handle_created.get(source.handle) if source.handle is not None else None
        if made is None:
            return None
        anc, tape, tensors = hit.analysis.ancestors, hit.analysis.tape, self.trace.tensors
        # the whole source list is the other model's: no source is read on the target's
        # dataflow (per-task heads made in one loop, each loss reading its own, are not; a
        # CycleGAN discriminator read for another loss of the same tape is)
        if any(s.handle is None or any(set(op.outputs) & anc
                                       for op in self._reads_while(s.handle, tape))
               for s in hit.analysis.call.sources):
            return None
        for handle, raw in self.trace.handle_created.items():
            if handle == source.handle or raw is None or (raw.file, raw.line) != (
                    made.file, made.line):
                continue
            for op in self._reads_while(handle, tape):
                record = tensors.get(op.outputs[0]) if op.outputs else None
                if (record is not None and op.outputs[0] in anc
                        and record.dtype == source.dtype and record.shape == source.shape):
                    return handle
        return None

    def float16_underflow(self, analysis: CallAnalysis) -> list[int]:
        """Return the sources of a call whose float16 gradients all underflowed to zeros.

        Empty unless every source whose differentiable path crosses a ``float16`` tensor got
        an all-zero gradient, and no op on those paths was seen zeroing it by value (a dead
        ReLU or a ``tf.sign`` found from the values is a different cause).
        """
        key = id(analysis)
        if key not in self._underflows:
            self._underflows[key] = self._float16_underflow(analysis)
        return self._underflows[key]

    def _float16_underflow(self, analysis: CallAnalysis) -> list[int]:
        tensors, found, within = self.trace.tensors, [], analysis.connected
        half = {t for t in within if t in tensors and tensors[t].dtype == "float16"}
        if not half:
            return []
        # one walk back from the float16 tensors, not one walk forward per source: a step of
        # 560 layers made that 560 walks over 7k ops
        crosses = backward(self.graph, half, lambda e: e.differentiable and e.src in within)
        for index, source in enumerate(analysis.sources):
            node = source.node
            if node is None or source.result == "none" or node not in crosses:
                continue
            if source.result != "zero" or source.verdict != "zero":
                return []  # a float16 weight that got a gradient: not an underflow of the step
            for cause in source.causes:
                op = self.graph.ops.get(cause.op_seq or -1)
                if cause.cause != "zero-at-runtime" or op is None or op.saturated or (
                        op.op_type in ZERO_GRADIENT):
                    return []  # the values show another zeroing op
            found.append(index)
        return found

    def frozen_zero(self, analysis: CallAnalysis, index: int) -> OpRecord | None:
        """Return the traced multiply by a constant 0 that every path of a zeroed source crosses.

        ``self.beta * kl`` in a ``tf.function`` traced while ``self.beta`` was 0.0: the Python
        number became a graph constant, so the weights behind ``kl`` get exact zeros on every
        run. None unless the source got all zeros (or its gradient stayed symbolic and the
        factor is one the code sets again and again) and no path avoids such a multiply.
        """
        source = analysis.sources[index]
        node, zeros = source.node, self.trace.zero_constants
        unseen = source.result == "ok" and source.norm is None
        if node is None or not (source.result == "zero" or unseen) or not zeros:
            return None
        graph, within = self.graph, analysis.connected
        reach = forward(graph, node, within, diff_only=True)
        muls = {e.ref for n in reach for e in graph.out_edges.get(n, ())
                if e.kind == "op" and e.dst in within and graph.ops[e.ref].op_type == "Mul"
                and graph.ops[e.ref].graph and set(graph.ops[e.ref].inputs) & zeros}
        if not muls:
            return None
        seen, stack, targets = {node}, [node], set(analysis.call.targets)
        while stack:  # the differentiable paths that avoid the zero multiplies
            for edge in graph.out_edges.get(stack.pop(), ()):
                if (edge.differentiable and edge.dst in within and edge.dst not in seen
                        and not (edge.kind == "op" and edge.ref in muls)):
                    if edge.dst in targets:
                        return None
                    seen.add(edge.dst)
                    stack.append(edge.dst)
        op = graph.ops[min(muls)]
        # the zeros are certain (a product with a 0 constant on every path), seen or not (a
        # step that applies its gradients itself shows them through its probe); the bug only
        # when the code meant to change the number: a literal `0.0 * kl`, or a factor set once
        # and never again, is the user's choice (where the source can be read)
        ramped = self.index.ramped_factor(op.loc) if op.loc is not None else None
        if ramped is None:  # no source to read: certain zeros that were seen still count
            return None if unseen else op
        return op if ramped else None

    def second_pass(self, hit: Hit) -> OpRecord | None:
        """Return the first read, on the target's dataflow, of a weight a tensor source came from.

        The shape of Grad-CAM's ``conv_out, _ = grad_model(img)`` then ``preds = model(img)``:
        the watched tensor was computed from some weights, and the target from the same
        weights read again (a second, independent forward pass) instead of from that tensor.
        None for a variable source, a source no weight made, or when no such read exists.
        """
        node = hit.source.node
        if node is None or hit.source.source.handle is not None:
            return None
        graph, tape = self.graph, hit.analysis.tape
        behind = backward(graph, {node}, lambda e: True)
        handles = [h for h in behind if h in graph.reads]
        anc = hit.analysis.ancestors
        reads = [op for h in handles for op in graph.reads[h]
                 if not op.in_gradient and op.loc is not None and set(op.outputs) & anc
                 and not set(op.outputs) & behind
                 and (tape is None or tape.recording_at(op.seq))]
        return min(reads, key=lambda op: op.seq) if reads else None

    def substitute(self, hit: Hit, dangling: OpRecord) -> OpRecord | None:
        """Return the op that built the loss from something else in the dangling value's place.

        The first op on the target's dataflow, recorded by the tape after ``dangling``, that
        takes a tensor of the shape and dtype of a value computed from the source and never
        used (``dangling``'s output, or any other end of what the tape computed from the
        source: an encoder's final states) which does not come from the source
        (``scores = discriminator(images)`` where ``fake`` was meant; a decoder's zero
        initial state where the encoder's states were meant).
        """
        if not dangling.outputs or hit.source.node is None:
            return None
        tensors, tape = self.trace.tensors, hit.analysis.tape
        spread = self._spread(hit)
        want = tensors.get(dangling.outputs[0])
        if want is None or want.shape is None:
            return None
        # the other ends count when they are float tensors with an axis: a scalar left over
        # (a metric) has the shape of every loss constant
        ends = (r for r in map(tensors.get, spread[2] if spread is not None else ()))
        wants = {(want.shape, want.dtype)} | {(r.shape, r.dtype) for r in ends if r is not None
                                              and r.shape and r.dtype in _FLOATS}
        from_source = forward(self.graph, hit.source.node, set(self.trace.tensors), False)
        anc = hit.analysis.ancestors
        found = [op for op in sorted((o for o in self.graph.ops.values() if o.seq > dangling.seq
                                      and not o.in_gradient and set(o.outputs) & anc
                                      and (tape is None or tape.recording_at(o.seq))),
                                     key=lambda o: o.seq)
                 if any(serial not in from_source and (r := tensors.get(serial)) is not None
                        and (r.shape, r.dtype) in wants for serial in op.inputs)]
        # two lines computing the same value in its place: the repeat is the unedited copy
        return repeated_candidate(self.index, found) or (found[0] if found else None)

    # -- edge-based matches ------------------------------------------------------------------------
    def edge_match(self, hit: Hit) -> Match:
        """Return the match of a cut *edge* (op, host or state), keyed by what the user wrote.

        One API call at one place is one finding, whatever the ops it ran (Keras' argmax runs
        seven) or the tensors crossing it; a host round-trip is keyed by its conversion's place;
        an assignment by its line and the variable it writes (the message names that variable).
        """
        edge = hit.cause.edge
        assert edge is not None
        graph, code = self.graph, hit.cause.cause
        graph_edge = (edge.kind, edge.ref, edge.last_event)
        if edge.kind == "host":
            chain = graph.host_chain(edge.ref, edge.last_event)
            root = chain[0]
            # keyed by the conversion's place, not its event: a loop runs it once per step
            return Match((place(root.loc), "host"), root.loc, hit.cause.primary,
                         {"api": root.api}, hit, api=root.api, edge=edge,
                         links=self.index.numpy_chain(root.loc), graph_edge=graph_edge)
        op = graph.ops[edge.ref]
        if edge.kind == "state":
            handle = self.trace.state_writes.get(edge.ref, (0, None, ""))[0]
            api = write_api(op, self.trace.api_labels)
            return Match((place(op.loc), op.op_type, handle), op.loc, hit.cause.primary,
                         {"api": api, "variable": self.handle_name(handle)}, hit, api=api,
                         op_type=op.op_type, edge=edge, graph_edge=graph_edge)
        api = self.op_api(op)
        params = {"api": api, "op": op.op_type}
        if code == "non-differentiable-op":
            entry = self.trace.registry.get(op.op_type, "fn")
            if entry == "missing" and hit.analysis.call.error_type is None:
                entry = "missing-unasked"
            params["reason"] = _REASONS.get(entry, _REASONS["returns-none"])
        if code == "integer-dtype":
            tensors = self.trace.tensors
            dtype = (tensors[edge.dst].dtype if tensors[edge.src].trainable
                     else tensors[edge.src].dtype)
            params["dtype"] = dtype
            if op.op_type in READ_OPS:  # the variable itself holds integers
                params["api"] = api = f"tf.Variable(dtype={dtype})"
        called: object = (op.api_module, op.api_function) if op.api_module else op.op_type
        raw = op.layer_loc or op.loc  # a Keras layer's own op: the line that made or applied it
        made = made_by.forward_op(self.trace, op)
        made_at = made_by.forward_place(made) if made is not None else None
        if made is not None and made_at is not None:
            # a gradient op the first gradient call made: the forward op the user chose (its
            # layer) is the line to change; the gradient call's line is named where it bites
            params["made_by"], params["made_op"] = made.layer or self.op_api(made), made.op_type
            params["bites"] = f"`{self.op_api(op)}`" + (f" (line {op.loc.line})" if op.loc else "")
            raw, called = made_at, ("grad-of", made.seq)
        return Match((place(raw), called), raw, hit.cause.primary, params, hit,
                     api=api, op_type=op.op_type, edge=edge, graph_edge=graph_edge)
