"""Weights a gradient call asks for that nothing trains because they are frozen (TM107, TM117).

TF-free, over the checker's analysis (:class:`~tapemagic.lint.context.LintContext`): a
``tf.Variable(..., trainable=False)`` among the sources (the tape never watches it), a weight
list that holds BatchNormalization's moving statistics, a model set ``trainable = False``
before a train step of its own reads its (then empty) trainable list.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint.context import LintContext
from tapemagic.lint.interp import GradientCall
from tapemagic.lint.values import Site, Value


def frozen_sources(ctx: LintContext) -> Iterator[tuple[GradientCall, Site, str]]:
    """Yield gradient calls asking for non-trainable weights the tape will not watch.

    With the place to change and its text: where a ``tf.Variable(..., trainable=False)``
    source was made (also inside a list joined to other weights,
    ``model.trainable_variables + [temperature]``), or the source list itself when it is
    ``model.weights`` / ``model.variables`` of a model with BatchNormalization (its moving
    statistics are not trainable).
    """
    for call, run in ctx.calls:
        node = call.sources_node
        watched = run.roots.expand(call.watched)
        frozen = sorted(r for r in call.sources_value.weights
                        if r in run.untrainable and r in run.made
                        and not run.roots.covered(r, watched))
        if frozen:  # tf.Variable(..., trainable=False), never watched
            for root in frozen:
                site = run.made[root]
                yield call, site, ctx.segment(site) or "tf.Variable(...)"
        elif isinstance(node, ast.Attribute) and node.attr in ("weights", "variables") \
                and any(_frozen(model) for model in call.sources_value.items):
            yield call, Site.of(node), ctx.text(node)

def frozen_lists(ctx: LintContext) -> Iterator[tuple[Site, str]]:
    """Yield where a model was frozen before a train step of its own read its weights.

    ``model.trainable = False`` empties ``model.trainable_variables``: a gradient call
    given only that list trains nothing (the Keras 2 GAN recipe in a Keras 3
    ``train_step``), nor does the model's own Keras train step first traced while it is
    frozen (``fit``/``train_on_batch``). With the frozen model's text.
    """
    for _call, run in ctx.calls:
        for stepped in run.frozen_steps.values():
            yield stepped, ctx.segment(stepped).rsplit(".trainable", 1)[0]
    for call, run in ctx.calls:
        value = call.sources_value
        if value.text != "keras:frozen" or value.weights:
            continue
        for model in value.items:
            for root in sorted(model.weights):
                site = run.frozen_sites.get(root)
                if site is not None:
                    yield site, ctx.segment(site).rsplit(".trainable", 1)[0]


#: Keras layers with non-trainable weights (moving statistics, adapted means).
_FROZEN_LAYERS = frozenset({"BatchNormalization", "SyncBatchNormalization", "Normalization"})


def _frozen(model: Value, depth: int = 0) -> bool:
    if model.text in _FROZEN_LAYERS:
        return True
    return depth < 8 and any(_frozen(item, depth + 1) for item in model.items)
