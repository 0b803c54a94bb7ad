"""TM114 untracked-variable: a variable a Keras 3 layer reads but does not track, never trained.

Matcher: a trainable variable read in the call of a model the run trains that no layer of
it tracks (``tracing/tracking.py`` asks Keras' own ``weights``): a raw ``tf.Variable`` a user's
layer holds (an attribute, or in a list), any variable behind an object Keras does not look
into (a ``tf.Module``, a helper object of the user's), or one a function the layer calls
closed over (a ``Lambda`` over a global ``tf.Variable``), or one ``fit``'s train step reads
outside the model's layers that no layer tracks (a loss closes over it: ``fit`` trains only
the model's list); taken by no gradient call or optimizer and never written. Points at the
line that made it untracked: the ``tf.Variable(...)`` line for a raw or closed-over variable
(or, made before the check, the line that read it), the ``self.<attr> = ...`` that stored
the untracked object on the layer.
No quick fix: ``self.add_weight`` needs the shape and initialiser the user meant.
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import closures, containers, holders
from tapemagic.lint import untracked as shapes
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untracked import calls_on, matches
from tapemagic.untracked_facts import CLOSURE, STEP, Untracked


@register
class UntrackedVariable(RuleModule):
    code = "TM114"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        return matches(ctx, "variable", lambda fact: {"layer": fact.holder,
                                                      "held": held(fact)}, skip=_constant)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for call in shapes.raw_variables(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(call), {"api": f"{ctx.text(call.func)}(...)",
                                                       "where": _IN_LAYER})
        # a helper object or tf.Module holding the variable: the line that stored it
        for holder, _variable in holders.held_variables(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(holder), {"api": f"{ctx.text(holder.func)}(...)",
                                                         "where": _IN_LAYER})
        # layers in a container Keras 3 does not look into (a deque): the line that stored it
        for call in containers.untracked_containers(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(call), {
                "api": f"{ctx.text(call.func)}(...)",
                "where": "holds layers in a container Keras 3 does not track, and their weights"})
        # a variable only the loss given to `compile` reads: no model's weight, fit skips it
        for call in closures.compiled_loss_variables(ctx):
            yield LintMatch(self.code, Site.of(call), {
                "api": f"{ctx.text(call.func)}(...)", "where": "read by the compiled loss"})


_IN_LAYER = "in a Keras 3 layer"


def _constant(ctx: RuleContext, fact: Untracked) -> bool:
    """Whether a variable only ``fit``'s loss reads was made without ``trainable=True``.

    Then it is the Keras 2 idiom for a constant (``weights = K.variable(class_weights)`` in a
    loss factory) as much as a weight meant to learn: precision first, as lint does
    (``lint/closures.py``), only the explicit flag on the line that made it counts.
    """
    if fact.via != STEP or fact.loc is None:
        return False
    return not any(closures.meant_to_train(call)
                   for call in calls_on(fact.loc.file, fact.loc.line))


def held(fact: Untracked) -> str:
    """Say how the layer reaches variables it does not track."""
    if fact.via == STEP:
        return (f"its train step reads them outside its layers, where a loss or the step "
                f"closes over them, and `fit` trains only the `{fact.holder_type}`'s own "
                "`trainable_variables`")
    if fact.via == CLOSURE:
        return (f"a function its call runs closes over them, and a `{fact.holder_type}` "
                "owns no variable it is not given")
    if fact.via:
        return (f"they are kept in `self.{fact.attribute}`, a `{fact.via}`, and Keras tracks "
                "only its own variables and layers")
    return "they are made with `tf.Variable`, and Keras tracks only its own variables"
