"""Diagnosis: turn the cut analysis into findings, worded by the rule catalog.

TF-free. Each cause of each source becomes (or joins) one :class:`~tapemagic.report.model.Finding`
keyed by rule and place, so a ``.numpy()`` that cuts off four weights is one finding naming all
four. Wording comes only from ``tapemagic/rules/catalog.json`` (``format_message``); this module
picks the rule and fills its parameters. Findings are ordered primary first, then by place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tapemagic import rules
from tapemagic.fixes import edits_for
from tapemagic.graph.analysis import CallAnalysis, Cause, SourceAnalysis, _path
from tapemagic.graph.numpy_chain import numpy_chain
from tapemagic.graph.provenance import READ_OPS, WRITE_API, Edge, ProvenanceGraph
from tapemagic.locations import CellMap
from tapemagic.report.model import ChainStep, Finding, Fix
from tapemagic.trace import RawLocation

_CAUSE_RULES = {
    "outside-tape": "TM103",
    "not-connected": "TM104",
    "unexplained": "TM106",
    "non-differentiable-op": "TM201",
    "integer-dtype": "TM202",
    "host-round-trip": "TM301",
    "numpy-function": "TM302",
    "python-control-flow": "TM303",
    "stop-gradient": "TM401",
    "variable-assign": "TM402",
}
_REASONS = {
    "none": "it is registered as not differentiable",
    "missing": "no gradient is registered for it",
    "returns-none": "its registered gradient returns None",
}
_MAX_NAMES = 4


@dataclass
class _Draft:
    rule: str
    raw: RawLocation | None
    primary: bool
    params: dict[str, str]
    api: str | None = None
    op_type: str | None = None
    variables: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    chain: list[ChainStep] = field(default_factory=list)
    context: dict[str, str] = field(default_factory=dict)


class Diagnoser:
    """Collect findings over all analysed gradient calls of one trace."""

    def __init__(self, graph: ProvenanceGraph, cells: CellMap) -> None:
        self.graph = graph
        self.cells = cells
        self._drafts: dict[tuple[object, ...], _Draft] = {}
        self.source_findings: dict[tuple[str, int], list[tuple[object, ...]]] = {}
        self.edge_findings: dict[tuple[str, int, int], tuple[object, ...]] = {}

    # -- collecting ----------------------------------------------------------------------------
    def add_call(self, analysis: CallAnalysis) -> None:
        """Add the findings of one gradient call."""
        call = analysis.call
        for index, source in enumerate(analysis.sources):
            causes = source.causes
            if analysis.keras_zero_error:  # TM105 already says these are not connected
                causes = [c for c in causes if c.cause != "not-connected"]
            keys = [self._add_cause(analysis, source, cause) for cause in causes]
            if source.verdict == "unexplained":
                keys.append(self._simple("TM106", call.loc, source, call.id, True))
            self.source_findings[(call.id, index)] = keys
        if analysis.keras_zero_error:
            unconnected = [s for s in analysis.sources
                           if any(c.cause == "not-connected" for c in s.causes)]
            for source in unconnected or analysis.sources:
                key = self._simple("TM105", call.loc, source, call.id, True)
                self.source_findings.setdefault(
                    (call.id, analysis.sources.index(source)), []).append(key)

    def _simple(self, rule: str, raw: RawLocation | None, source: SourceAnalysis, call_id: str,
                primary: bool, **params: str) -> tuple[object, ...]:
        key = (rule, _place(raw))
        draft = self._drafts.get(key)
        if draft is None:
            draft = self._drafts[key] = _Draft(rule, raw, primary, dict(params))
        self._join(draft, source, call_id, primary)
        return key

    def _join(self, draft: _Draft, source: SourceAnalysis, call_id: str, primary: bool) -> None:
        if source.source.name not in draft.variables:
            draft.variables.append(source.source.name)
        if call_id not in draft.calls:
            draft.calls.append(call_id)
        draft.primary = draft.primary or primary
        if not draft.chain and source.path:
            draft.chain = self._chain(source, draft)

    def _add_cause(self, analysis: CallAnalysis, source: SourceAnalysis,
                   cause: Cause) -> tuple[object, ...]:
        call, tape, graph = analysis.call, analysis.tape, self.graph
        if cause.cause == "not-watched":
            if source.source.handle is None:
                rule = "TM102"
            elif not source.source.trainable and (tape is None or tape.watch_accessed_variables):
                rule = "TM107"
            else:
                rule = "TM101"
            raw = tape.loc if tape is not None else call.loc
            tape_loc = self.cells.location(raw)
            tape_line = str(tape_loc.line) if tape_loc else "?"
            return self._simple(rule, raw, source, call.id, cause.primary, tape_line=tape_line)
        if cause.cause == "not-connected":
            return self._simple("TM104", call.loc, source, call.id, cause.primary,
                                target=call.target_label)
        if cause.cause == "python-control-flow" and cause.event is not None:
            event = graph.events[cause.event]
            return self._simple("TM303", event.loc, source, call.id, cause.primary,
                                api=self.cells.snippet(event.loc) or "if")
        if cause.cause == "host-round-trip" and cause.edge is None and cause.event is not None:
            event = graph.events[cause.event]
            event_key: tuple[object, ...] = ("TM301", _place(event.loc), cause.event)
            draft = self._drafts.get(event_key)
            if draft is None:
                draft = self._drafts[event_key] = _Draft("TM301", event.loc, cause.primary,
                                                   {"api": event.api}, api=event.api)
                draft.chain = [ChainStep(source.source.name), self._host_step(event, True),
                               *self._numpy_links(event.loc, draft), ChainStep("loss")]
            self._join(draft, source, call.id, cause.primary)
            self.edge_findings[("event", cause.event, 0)] = event_key
            return event_key
        if cause.cause == "outside-tape":
            op = graph.ops.get(cause.op_seq or -1)
            raw = op.loc if op is not None else call.loc
            api = self._op_api(op) if op is not None else call.target_label
            return self._simple("TM103", raw, source, call.id, cause.primary, api=api)
        edge = cause.edge
        assert edge is not None
        rule = _CAUSE_RULES[cause.cause]
        key: tuple[object, ...]
        if edge.kind == "host":
            chain = graph.host_chain(edge.ref, edge.last_event)
            root = chain[0]
            key = (rule, _place(root.loc), edge.ref)
            draft = self._drafts.get(key)
            if draft is None:
                draft = self._drafts[key] = _Draft(rule, root.loc, cause.primary,
                                                   {"api": root.api}, api=root.api)
                draft.context["after_cut"] = "numpy"
        elif edge.kind == "state":
            op = graph.ops[edge.ref]
            handle = graph.trace.state_writes.get(edge.ref, (0, None, ""))[0]
            api = WRITE_API.get(op.op_type, op.op_type)
            key = (rule, _place(op.loc), op.op_type, handle)
            draft = self._drafts.get(key)
            if draft is None:
                draft = self._drafts[key] = _Draft(
                    rule, op.loc, cause.primary,
                    {"api": api, "variable": graph.trace.handle_names.get(handle, "?")},
                    api=api, op_type=op.op_type)
        else:
            op = graph.ops[edge.ref]
            api = self._op_api(op)
            key = (rule, _place(op.loc), op.op_type)
            draft = self._drafts.get(key)
            if draft is None:
                params = {"api": api, "op": op.op_type}
                if rule == "TM201":
                    entry = graph.trace.registry.get(op.op_type, "fn")
                    params["reason"] = _REASONS.get(entry, _REASONS["returns-none"])
                if rule == "TM202":
                    tensors = graph.trace.tensors
                    dtype = tensors[edge.dst].dtype if tensors[edge.src].trainable else tensors[
                        edge.src].dtype
                    params["dtype"] = dtype
                    if op.op_type in READ_OPS:  # the variable itself holds integers
                        params["api"] = api = f"tf.Variable(dtype={dtype})"
                draft = self._drafts[key] = _Draft(rule, op.loc, cause.primary, params, api=api,
                                                   op_type=op.op_type)
        if not draft.chain:  # the finding's own path: through its cut, not any shortest one
            through = self._path_through(source, edge, set(call.targets))
            if through:
                draft.chain = self._chain(source, draft, through)
        self._join(draft, source, call.id, cause.primary)
        self.edge_findings[(edge.kind, edge.ref, edge.last_event)] = key
        return key

    def _numpy_links(self, raw: RawLocation | None, draft: _Draft) -> list[ChainStep]:
        """Return the NumPy calls made on the converted value (read from the source) as steps."""
        if raw is None:
            return []
        links = numpy_chain(raw.file, raw.line, raw.col)
        loc = self.cells.location(raw)
        count = loc.execution_count if loc else None
        draft.context["numpy_links"] = ";".join(
            f"{link.label}:{link.line}:{link.col}:{link.func_end_col}" for link in links)
        return [ChainStep(link.label, link.line, False, count) for link in links]

    def _host_step(self, event: object, cut: bool) -> ChainStep:
        from tapemagic.trace import HostEvent

        assert isinstance(event, HostEvent)
        loc = self.cells.location(event.loc)
        return ChainStep(event.api, loc.line if loc else None, cut,
                         loc.execution_count if loc else None)

    def _op_api(self, op: object) -> str:
        from tapemagic.trace import OpRecord

        assert isinstance(op, OpRecord)
        label = None
        if op.api_module and op.api_function:
            label = self.graph.trace.api_labels.get((op.api_module, op.api_function))
        if label is None or not label.startswith("tf.") or label.startswith("tf.__"):
            label = self.cells.snippet(op.loc) or op.op_type
        return label

    def _path_through(self, source: SourceAnalysis, edge: Edge, targets: set[int]) -> list[int]:
        """Return a tensor path source → edge.src → edge.dst → target (empty if none)."""
        if source.node is None:
            return []
        everything = set(self.graph.trace.tensors)
        head = _path(self.graph, source.node, everything, {edge.src})
        tail = _path(self.graph, edge.dst, everything, targets)
        return head + tail if head and tail else []

    def _chain(self, source: SourceAnalysis, draft: _Draft,
               path: list[int] | None = None) -> list[ChainStep]:
        """Collapse the source→target path into steps: one per Keras layer or user line."""
        graph = self.graph
        path = path or source.path
        steps: list[ChainStep] = [ChainStep(source.source.name)]
        previous_key = None
        for src, dst in zip(path, path[1:], strict=False):
            edge = next((e for e in graph.out_edges[src] if e.dst == dst), None)
            if edge is None:
                continue
            tensors = graph.trace.tensors
            cut = not edge.differentiable and not (
                edge.cause == "integer-dtype" and not tensors[edge.src].trainable)
            if edge.kind == "host":
                label, raw = graph.events[edge.ref].api, graph.events[edge.ref].loc
            elif edge.kind == "state":
                op = graph.ops[edge.ref]
                label, raw = WRITE_API.get(op.op_type, op.op_type), op.loc
            else:
                op = graph.ops[edge.ref]
                label, raw = op.layer or op.op_type, op.loc
                if cut:
                    label = f"{self._op_api(op)} ({op.op_type})"
            loc = self.cells.location(raw)
            step_key = (label, loc.line if loc else None)
            if step_key == previous_key and not cut:
                continue
            previous_key = step_key
            steps.append(ChainStep(label, loc.line if loc else None, cut,
                                   loc.execution_count if loc else None))
            if edge.kind == "host" and draft.context.get("after_cut") == "numpy":
                steps += self._numpy_links(graph.events[edge.ref].loc, draft)
        steps.append(ChainStep("loss"))
        return steps

    # -- output --------------------------------------------------------------------------------
    def findings(self) -> tuple[list[Finding], dict[tuple[object, ...], str]]:
        """Return the findings in report order and the finding id of each internal key."""
        ordered = sorted(self._drafts.items(), key=lambda item: _order(item[1], self.cells))
        out: list[Finding] = []
        ids: dict[tuple[object, ...], str] = {}
        for number, (key, draft) in enumerate(ordered, start=1):
            fid = f"F{number}"
            ids[key] = fid
            out.append(self._finding(fid, draft))
        return out, ids

    def _finding(self, fid: str, draft: _Draft) -> Finding:
        rule = rules.get_rule(draft.rule)
        params = dict(draft.params)
        params["variables"] = _names(draft.variables)
        params = {p: params.get(p, "?") for p in rule.params}
        location = self.cells.location(draft.raw)
        edits = edits_for(draft.rule, location, draft.context) if location else ()
        fix = Fix(rule.fix_title, rule.fix_applicability,
                  edits if rule.fix_applicability != "display-only" else (), None)
        return Finding(
            id=fid, rule=rule.code, name=rule.name, cause=rule.cause, severity=rule.severity,
            message=rules.format_message(rule.code, params), location=location,
            variables=tuple(draft.variables), gradient_calls=tuple(draft.calls),
            primary=draft.primary, api=draft.api, op_type=draft.op_type,
            chain=tuple(draft.chain), params=params, fix=fix,
        )


def _place(raw: RawLocation | None) -> tuple[object, ...]:
    if raw is None:
        return ("?",)
    return (raw.file, raw.line, raw.col)


def _order(draft: _Draft, cells: CellMap) -> tuple[object, ...]:
    loc = cells.location(draft.raw)
    return (not draft.primary, (loc.execution_count or 0) if loc else 0, loc.file if loc else "",
            loc.line if loc else 0, (loc.col or 0) if loc else 0, draft.rule)


def _names(names: list[str]) -> str:
    shown = [f"`{n}`" for n in names[:_MAX_NAMES]]
    if len(names) > _MAX_NAMES:
        return ", ".join(shown) + f" and {len(names) - _MAX_NAMES} more"
    return ", ".join(shown)
