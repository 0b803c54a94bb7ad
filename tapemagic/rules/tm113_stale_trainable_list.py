"""TM113 stale-trainable-list: a traced step keeps the trainable list of the time it was traced.

Matcher: a ``Trace.stale_steps`` entry (``tracing/unfreeze.py``): a layer's ``trainable = True``
made frozen weights trainable after a ``tf.function`` step (Keras ``fit``'s train function, a
``train_step``, a user's ``@tf.function``) had been traced with ``owner.trainable_variables``
as its sources, and that same graph was called again while they stayed trainable. Only weights
the analysed gradient call reads on its differentiable loss path are named; a step whose call
was not analysed is not reported (nothing shows it reads them), nor weights another gradient
call of the run takes as sources (a GAN discriminator unfrozen for its own step). Points at
the ``trainable`` assignment: the line the user must follow with a new trace (``compile``
before the next ``fit``, a new optimizer and ``make_train_function(force=True)`` in a
callback, a new ``tf.function``).
With ``--eager`` a user's ``tf.function`` runs eagerly (it reads the list on every call: no
finding), but ``fit`` resumes graph mode once its first steps were analysed, so its stale train
function is found there too.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class StaleTrainableList(RuleModule):
    code = "TM113"
    causes = frozenset({"sources-mismatch"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        # weights another gradient call of the run takes as sources do train (a GAN's
        # discriminator unfrozen for its own step, left out of the combined model's on purpose)
        trained = {s.handle for c in ctx.trace.gradient_calls for s in c.sources
                   if s.handle is not None}
        for stale in ctx.trace.stale_steps:
            analysis = next((a for a in ctx.analyses if a.call.site == stale.site), None)
            if analysis is None or analysis.call.error_type:
                continue
            read = [h for h in stale.handles if h in analysis.connected and h not in trained]
            if not read:
                continue
            fit = "`fit`'s train function" if analysis.call.keras_fit else "the traced step"
            yield Match((place(stale.loc),), stale.loc, True,
                        {"layer": stale.layer, "step": fit, "runs": str(stale.runs)},
                        variables=tuple(ctx.handle_name(h) for h in read))
