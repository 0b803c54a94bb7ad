"""A gradient call given another call's loss where its own loss was meant. TF-free.

The shape of a GAN step written with two tapes that differentiates the discriminator's loss
for the generator (``g_tape.gradient(d_loss, generator.trainable_variables)``): the
generator's one path into ``d_loss`` crosses the ``tf.stop_gradient`` the discriminator's
term puts on the fake images, and the generator's own loss, computed from it in the same
tape, is left out (``graph/left_out.py``). What tells it from a loss term the user forgot to
add into a total (an actor-critic's value loss) is a fact of the run: the call's target is
also the target of another gradient call, over other sources. The line to change is then the
gradient call's target, not the line that built ``d_loss``, and the fix names the left-out
term there (a change of what is differentiated, which the fix says).
"""

from __future__ import annotations

import ast

from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.locations import SourceIndex
from tapemagic.rules.context import RuleContext
from tapemagic.trace import OpRecord, RawLocation

__all__ = ["SWAPPED", "other_call_loss", "term_name"]

#: what the swap changes, said in the fix's title (``fixes.ChangesValues.how``)
SWAPPED = "the call differentiates another loss, so the gradients it gives change"


def other_call_loss(ctx: RuleContext, analysis: CallAnalysis) -> CallAnalysis | None:
    """Return another gradient call of the run whose target is this call's, over other sources.

    None when the call's target is its own (no other call differentiates it), or when the
    other call's sources are this call's too (the same loss for two parts of one model).
    """
    targets = set(analysis.call.targets)
    mine = {s.source.handle for s in analysis.sources}
    for other in ctx.analyses:
        if other is analysis or set(other.call.targets) != targets:
            continue
        theirs = {s.source.handle for s in other.sources}
        if not theirs & mine and None not in theirs:
            return other
    return None


def term_name(index: SourceIndex, term: OpRecord) -> str | None:
    """Return the plain name the left-out term is assigned to on its line, if one.

    ``g_loss = bce(tf.ones_like(fake_out), fake_out)`` gives ``g_loss``; a term written into a
    larger expression, or assigned to an attribute or a subscript, gives None.
    """
    raw: RawLocation | None = term.loc
    tree = index.tree(raw.file) if raw is not None else None
    if raw is None or tree is None:
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and node.lineno <= raw.line <= (node.end_lineno or 0)
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            return node.targets[0].id
    return None
