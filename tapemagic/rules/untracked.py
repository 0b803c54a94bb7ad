"""The runtime matcher shared by the untracked-weights rules (TM114 to TM117).

TF-free. ``Trace.untracked`` holds what Keras itself did not track, or froze for good, read
from its objects while the run lived (``tracing/tracking.py``); a fact becomes a finding only
for its weights that the run reads on a loss path and never trains (``untrained.never_trained``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from tapemagic.graph.walks import forward
from tapemagic.locations import source_lines
from tapemagic.rules.base import Match
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.untrained import never_trained
from tapemagic.untracked_facts import Untracked


def matches(ctx: RuleContext, how: str, params: Callable[[Untracked], dict[str, str]],
            skip: Callable[[RuleContext, Untracked], bool] = lambda ctx, fact: False,
            ) -> Iterator[Match]:
    """Yield one match per ``how`` fact with weights never trained, at the fact's line."""
    for fact in ctx.trace.untracked:
        if fact.how != how or skip(ctx, fact):
            continue
        left = never_trained(ctx, fact)
        if left:
            yield Match((place(fact.loc),), fact.loc, True, params(fact),
                        variables=tuple(ctx.handle_name(h) for h in left))


def sources_feed_them(ctx: RuleContext, fact: Untracked) -> bool:
    """Return True when the sources of the fact's gradient call flow into its weights' layers.

    The shape of optimising an input through a model kept fixed on purpose (style transfer,
    a GAN inversion, a learned prompt): the sources are the model's input, not parameters
    beside it. Read from the recorded dataflow: an op that reads one of the fact's weights
    also takes a tensor computed from a source.
    """
    graph = ctx.graph
    for analysis in ctx.analyses:
        if place(analysis.call.loc) != place(fact.step or fact.loc):
            continue
        start = [value for s in analysis.call.sources if s.handle is not None
                 for value in graph.read_values(s.handle, True)]
        downstream = forward(graph, start, analysis.ancestors, False) if start else set()
        for handle in fact.handles:
            for value in graph.read_values(handle, True):
                for edge in graph.out_edges.get(value, ()):
                    op = graph.ops.get(edge.ref)
                    if op is not None and downstream.intersection(op.inputs):
                        return True
    return False


def calls_on(file: str, line: int) -> list[ast.Call]:
    """Return the calls of the statement of ``file`` that spans ``line`` (none: unreadable)."""
    try:
        tree = ast.parse("".join(source_lines(file)))
    except (SyntaxError, ValueError):
        return []
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and node.lineno <= line <= (node.end_lineno or node.lineno)]
