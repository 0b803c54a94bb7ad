"""The seam every rule plugs into: a rule module = a matcher + a quick-fix builder, by code.

TF-free. Each ``tapemagic/rules/tmNNN_<name>.py`` defines one :class:`RuleModule` subclass and
registers it with :func:`register` under its catalog code. :func:`registry` imports every rule
module once and returns them in code order; ``tests/test_catalog.py`` checks that the registry
and ``catalog.json`` match one to one. Diagnosis is a loop over the registry:

1. ``match(ctx)`` reads the analysed trace through the :class:`~tapemagic.rules.context.RuleContext`
   (the cut analysis of every gradient call, the provenance graph, the source index) and yields
   :class:`Match` objects: one per (place, affected source);
2. matches with the same rule and ``key`` become one finding naming all their weights;
3. ``fix(draft, location, ctx)`` returns the quick-fix edits for the finding's location
   (maybe none);
4. ``lint(ctx)``, the static matcher, yields hints from the source alone (no run; default none).

Adding a rule = a catalog entry, one rule module, its bad/good examples in the catalog.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from tapemagic.graph.numpy_chain import Link
from tapemagic.report.model import ChainStep, Edit, Location
from tapemagic.trace import RawLocation

if TYPE_CHECKING:
    from tapemagic.graph.provenance import Edge
    from tapemagic.graph.verdicts import CallAnalysis, Cause, SourceAnalysis
    from tapemagic.lint.context import LintContext, LintMatch
    from tapemagic.rules.context import RuleContext


@dataclass(frozen=True, slots=True)
class Hit:
    """One cause of one source of one gradient call, as the cut analysis found it."""

    analysis: CallAnalysis
    index: int
    source: SourceAnalysis
    cause: Cause


@dataclass
class Match:
    """What a rule found at one place for one affected source.

    ``key`` tells places apart within the rule (matches with equal keys merge into one
    finding); ``raw`` is where the finding points; ``hit`` is the analysed source it explains
    (None for a finding about the run as a whole); ``edge`` the cut edge whose path the
    finding's chain follows; ``graph_edge`` the key of the drawn edge to mark with the finding.
    """

    key: tuple[object, ...]
    raw: RawLocation | None
    primary: bool
    params: dict[str, str] = field(default_factory=dict)
    hit: Hit | None = None
    api: str | None = None
    op_type: str | None = None
    edge: Edge | None = None
    chain: list[ChainStep] | None = None
    links: tuple[Link, ...] = ()
    graph_edge: tuple[str, int, int] | None = None
    variables: tuple[str, ...] = ()


@dataclass
class Draft:
    """A finding being assembled from the matches of one rule at one place."""

    code: str
    key: tuple[object, ...]
    raw: RawLocation | None
    primary: bool
    params: dict[str, str]
    api: str | None = None
    op_type: str | None = None
    variables: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    chain: list[ChainStep] = field(default_factory=list)
    links: tuple[Link, ...] = ()
    hits: list[Hit] = field(default_factory=list)


class RuleModule:
    """Base class of a rule: its catalog ``code``, its matcher and its quick-fix builder."""

    code: ClassVar[str]
    #: The causes of the cut analysis this rule explains (checked: each hit needs a rule).
    causes: ClassVar[frozenset[str]] = frozenset()
    #: True for a rule that states a symptom another rule may explain (TM118: a weight that
    #: did not change): its finding is left out when other findings name all its weights,
    #: and the engine notes the symptom beside them instead (``Diagnoser.corroborated``).
    corroborates: ClassVar[bool] = False

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        """Yield what this rule finds in the analysed trace."""
        raise NotImplementedError

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        """Return the quick-fix edits for a finding at ``location`` (none by default)."""
        return ()

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        """Yield what this rule's static matcher sees in the source (no hints by default).

        ``ctx`` is the abstract interpretation of a source that never ran
        (:mod:`tapemagic.lint`); each match becomes a hint worded from the rule's ``hint``.
        """
        return ()


_REGISTRY: dict[str, RuleModule] = {}


def register(cls: type[RuleModule]) -> type[RuleModule]:
    """Class decorator: register one instance of ``cls`` under ``cls.code``.

    Raises
    ------
    ValueError
        If another rule module already registered the same code.
    """
    if cls.code in _REGISTRY and type(_REGISTRY[cls.code]) is not cls:
        raise ValueError(f"two rule modules register {cls.code}")
    _REGISTRY[cls.code] = cls()
    return cls


def registry() -> dict[str, RuleModule]:
    """Return every registered rule module by code, importing ``tmNNN_*`` modules once."""
    import tapemagic.rules as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("tm"):
            importlib.import_module(f"{package.__name__}.{info.name}")
    return dict(sorted(_REGISTRY.items()))


class EdgeRule(RuleModule):
    """A rule whose findings are the cut edges of its one cause (an op, host or state edge)."""

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        """Yield one match per hit of the rule's cause that has a cut edge."""
        for cause in self.causes:
            for hit in ctx.hits(cause):
                if hit.cause.edge is not None:
                    yield ctx.edge_match(hit)
