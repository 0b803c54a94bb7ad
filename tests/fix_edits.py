"""The quick-fix harness shared by the fix tests: a program in ``linecache``, a rule's fix on it.

Each test registers a small program where tapemagic reads sources, builds the rule module's fix
for a finding at a given place, applies the edits and gets the program text back (TF-free).
"""

from __future__ import annotations

import ast
import itertools
import linecache
import textwrap

from tapemagic.graph.provenance import ProvenanceGraph
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, registry
from tapemagic.rules.context import RuleContext
from tapemagic.trace import Trace
from tapemagic.verify import apply_edits

# One counter for every fix test, so that no two programs share a linecache name.
NAMES = itertools.count()


def fix(code: str, source: str, needle: str, occurrence: int = 0,
        op_type: str | None = None, **params: str) -> tuple[str, tuple[Edit, ...]]:
    """Apply rule ``code``'s fix for a finding on ``needle`` in ``source``; return the text."""
    source = textwrap.dedent(source)
    name = f"<fix-{next(NAMES)}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    lines = source.splitlines()
    hits = [(i, ln.index(needle)) for i, ln in enumerate(lines) if needle in ln]
    number, col = hits[occurrence]
    location = Location(name, number + 1, number + 1, col, col + len(needle), lines[number])
    ctx = RuleContext(ProvenanceGraph(Trace()), [], SourceIndex())
    draft = Draft(code, (), None, True, dict(params), op_type=op_type)
    edits = registry()[code].fix(draft, location, ctx)
    fixed = apply_edits(source, edits)
    ast.parse(fixed)
    return fixed, edits

