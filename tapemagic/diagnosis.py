"""Diagnosis: a loop over the rule registry that turns the cut analysis into findings.

TF-free. Every rule module (``tapemagic/rules/tmNNN_*.py``) matches what it explains in the
analysed run; matches of one rule at one place (same ``key``) become one
:class:`~tapemagic.report.model.Finding` naming all their weights. Wording comes only from
``tapemagic/rules/catalog.json`` (``format_message``); fixes from the rule module. Findings are
ordered primary first, then by place. A cause of the cut analysis that no rule claims is a bug
(:meth:`Diagnoser.unclaimed` lists them; the tests check it stays empty).
"""

from __future__ import annotations

from collections.abc import Sequence

from tapemagic import rules
from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Applicability, Edit, Finding, Fix
from tapemagic.rules.base import Draft, Hit, Match, registry
from tapemagic.rules.chains import chain_for
from tapemagic.rules.context import RuleContext

_MAX_NAMES = 4


class Diagnoser:
    """Collect findings over all analysed gradient calls of one trace."""

    def __init__(self, graph: ProvenanceGraph, index: SourceIndex,
                 analyses: Sequence[CallAnalysis]) -> None:
        self.ctx = RuleContext(graph, analyses, index)
        self.index = index
        self._drafts: dict[tuple[object, ...], Draft] = {}
        #: (call id, source index) -> draft keys of the findings that explain it
        self.source_findings: dict[tuple[str, int], list[tuple[object, ...]]] = {}
        #: drawn edge key -> draft key of the finding that cut it
        self.edge_findings: dict[tuple[str, int, int], tuple[object, ...]] = {}
        self._claimed: set[int] = set()
        self._named: set[tuple[object, ...]] = set()  # drafts whose op is the call's own op
        #: (a corroborating draft left out, the keys of the drafts naming its weights)
        self.corroborated: list[tuple[Draft, list[tuple[object, ...]]]] = []
        for module in registry().values():
            for match in module.match(self.ctx):
                self._add(module.code, match)
        self._fold_behind()
        self._fold_corroborating()

    def _add(self, code: str, match: Match) -> None:
        key = (code, *match.key)
        draft = self._drafts.get(key)
        if draft is None:
            draft = self._drafts[key] = Draft(code, key, match.raw, match.primary,
                                              dict(match.params), match.api, match.op_type,
                                              links=match.links)
        elif (match.op_type != draft.op_type and key not in self._named
              and self._names_call(match)):
            # one API call made of several ops: name the op the call is named after (ArgMax
            # for argmax), not the first of its helpers (a Bitcast)
            draft.op_type = match.op_type
            draft.params.update(match.params)
            draft.chain = chain_for(self.ctx, match)
        if self._names_call(match) and draft.op_type == match.op_type:
            self._named.add(key)
        draft.primary = draft.primary or match.primary
        for name in match.variables:
            if name not in draft.variables:
                draft.variables.append(name)
        hit = match.hit
        if hit is not None:
            self._claimed.add(id(hit.cause))
            draft.hits.append(hit)
            name = hit.source.source.name
            if name not in draft.variables:
                draft.variables.append(name)
            call_id = hit.analysis.call.id
            if call_id not in draft.calls:
                draft.calls.append(call_id)
            keys = self.source_findings.setdefault((call_id, hit.index), [])
            if key not in keys:
                keys.append(key)
        if not draft.chain:
            draft.chain = chain_for(self.ctx, match)
        if match.graph_edge is not None:
            self.edge_findings[match.graph_edge] = key

    def _names_call(self, match: Match) -> bool:
        """Return True when the match's op is the one its API function is named after."""
        edge = match.edge
        op = self.ctx.graph.ops.get(edge.ref) if edge is not None and edge.kind == "op" else None
        return bool(op is not None and op.api_function and op.op_type.lower()
                    == op.api_function.replace("_", "").lower())

    def _fold_behind(self) -> None:
        """Fold a secondary cut into the primary cut of the same rule on the same line.

        ``one_hot(argmax(x))``: the one-hot is cut only because the argmax was; the user
        rewrites the line once, so it is one finding. Only when the primary one explains every
        source the secondary one names (another model's cut elsewhere is not folded in).
        """
        primaries: dict[tuple[object, ...], tuple[object, ...]] = {}
        for key, draft in self._drafts.items():
            if draft.primary and draft.raw is not None:
                primaries.setdefault((draft.code, draft.raw.file, draft.raw.line), key)
        for key, draft in list(self._drafts.items()):
            if draft.primary or draft.raw is None:
                continue
            into = primaries.get((draft.code, draft.raw.file, draft.raw.line))
            if into is None:
                continue
            target = self._drafts[into]
            covered = {(h.analysis.call.id, h.index) for h in target.hits}
            if not draft.hits or any((h.analysis.call.id, h.index) not in covered
                                     for h in draft.hits):
                continue
            target.hits.extend(draft.hits)
            del self._drafts[key]
            for keys in self.source_findings.values():
                if key in keys:
                    keys.remove(key)
                    if into not in keys:
                        keys.append(into)
            for edge, found in list(self.edge_findings.items()):
                if found == key:
                    self.edge_findings[edge] = into

    def _fold_corroborating(self) -> None:
        """Leave out a symptom's finding when other findings already name all its weights."""
        modules = registry()
        for key, draft in list(self._drafts.items()):
            if not modules[draft.code].corroborates:
                continue
            others = [(k, d) for k, d in self._drafts.items()
                      if not modules[d.code].corroborates]
            naming = [k for k, d in others if set(d.variables) & set(draft.variables)]
            named = {v for k, d in others if k in naming for v in d.variables}
            if naming and set(draft.variables) <= named:
                del self._drafts[key]
                self.corroborated.append((draft, naming))

    def unclaimed(self) -> list[Hit]:
        """Return the hits of the cut analysis that no rule turned into a finding."""
        return [h for h in self.ctx.all_hits if id(h.cause) not in self._claimed]

    # -- output --------------------------------------------------------------------------------
    def findings(self) -> tuple[list[Finding], dict[tuple[object, ...], str]]:
        """Return the findings in report order and the finding id of each internal key."""
        ordered = sorted(self._drafts.items(), key=lambda item: self._order(item[1]))
        out: list[Finding] = []
        ids: dict[tuple[object, ...], str] = {}
        for number, (key, draft) in enumerate(ordered, start=1):
            fid = f"F{number}"
            ids[key] = fid
            out.append(self._finding(fid, draft))
        return out, ids

    def _finding(self, fid: str, draft: Draft) -> Finding:
        rule = rules.get_rule(draft.code)
        params = dict(draft.params)
        params["variables"] = _names(draft.variables) or "the weights"
        params = {p: params.get(p, "?") for p in rule.params}
        location = self.index.location(draft.raw)
        edits: tuple = ()
        applicability = rule.fix_applicability
        if location is not None:
            edits = registry()[draft.code].fix(draft, location, self.ctx)
        if edits and applicability == "display-only":
            # a rule whose fix is the user's to choose offered one for this shape: it is
            # offered on a click, as an edit that changes what is trained
            applicability = "unsafe"
        return Finding(
            id=fid, rule=rule.code, name=rule.name, cause=rule.cause, severity=rule.severity,
            message=rules.format_message(rule.code, params), location=location,
            variables=tuple(draft.variables), gradient_calls=tuple(draft.calls),
            primary=draft.primary, api=draft.api, op_type=draft.op_type,
            chain=tuple(draft.chain), params=params,
            fix=finding_fix(rule.fix_title, applicability, edits),
        )

    def _order(self, draft: Draft) -> tuple[object, ...]:
        loc = self.index.location(draft.raw)
        return (not draft.primary, (loc.execution_count or 0) if loc else 0,
                loc.file if loc else "", loc.line if loc else 0, (loc.col or 0) if loc else 0,
                draft.code)


def finding_fix(title: str, applicability: Applicability, edits: tuple[Edit, ...]) -> Fix:
    """Return the finding's fix for ``edits`` (a rule module's ``fix()`` result).

    A result with no edit may say why none can be right (``fixes.NoEdit.why``); edits that
    change values on purpose say how in the title (``fixes.ChangesValues.how``).
    """
    how = getattr(edits, "how", None)
    if how is not None:
        title = f"{title}. This edit changes what the code computes: {how}"
    return Fix(title, applicability, tuple(edits), None, getattr(edits, "why", None),
               keeps_value=(how is None) if edits else None)


def _names(names: list[str]) -> str:
    shown = [f"`{n}`" for n in names[:_MAX_NAMES]]
    if len(names) > _MAX_NAMES:
        return ", ".join(shown) + f" and {len(names) - _MAX_NAMES} more"
    return ", ".join(shown)
