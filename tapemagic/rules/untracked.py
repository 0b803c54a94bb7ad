"""The runtime matcher shared by the untracked-weights rules (TM114 to TM117).

TF-free. ``Trace.untracked`` holds what Keras itself did not track, or froze for good, read
from its objects while the run lived (``tracing/tracking.py``); a fact becomes a finding only
for its weights that the run reads on a loss path and never trains (``untrained.never_trained``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tapemagic.rules.base import Match
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.untrained import never_trained
from tapemagic.trace import Untracked


def matches(ctx: RuleContext, how: str,
            params: Callable[[Untracked], dict[str, str]]) -> Iterator[Match]:
    """Yield one match per ``how`` fact with weights never trained, at the fact's line."""
    for fact in ctx.trace.untracked:
        if fact.how != how:
            continue
        left = never_trained(ctx, fact)
        if left:
            yield Match((place(fact.loc),), fact.loc, True, params(fact),
                        variables=tuple(ctx.handle_name(h) for h in left))
