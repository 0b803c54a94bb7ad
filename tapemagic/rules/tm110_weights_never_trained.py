"""TM110 weights-never-trained: trainable weights on the loss path that nothing ever trains.

Matcher, over the whole run: trainable variables the tape watched and that have a
differentiable path to a gradient call's target, but that are a source of no gradient call in
the run and are never written (an encoder left out of ``sources``). Not a finding: frozen layers
(``trainable=False``: the tape does not watch them), weights that another gradient call of the
run takes as sources (a GAN discriminator on the generator's loss path), and weights the run
writes (a target network updated by an EMA or a copy), and calls whose sources are inputs, not
weights of the same kind (a saliency map or an adversarial example takes the gradient with
respect to the image: a tensor, or a plain ``tf.Variable`` next to Keras weights), and a copy
of a trained model (a DQN's target network read inside the tape, synced by ``set_weights``
every N steps: same layer shapes as a model some gradient call trains), and weights an
untracked-weights rule (TM114 to TM117) names with the reason Keras left them out. Information
at the gradient call: a notebook cell may train one part on purpose (a generator step whose
discriminator trains in another cell).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.untrained import claimed, untrained_on_path


@register
class WeightsNeverTrained(RuleModule):
    code = "TM110"
    causes = frozenset({"sources-mismatch"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        reported = claimed(ctx)  # the weights an untracked-weights rule names, with its cause
        trained = _shapes_by_model([(s.name, s.shape) for a in ctx.analyses
                                    for s in (x.source for x in a.sources)
                                    if s.handle is not None])
        for analysis in ctx.analyses:
            call = analysis.call
            if analysis.tape is None or call.error_type or not any(
                    s.verdict == "connected" for s in analysis.sources):
                continue
            left = [h for h in untrained_on_path(ctx, analysis) if h not in reported]
            left = [h for h in left if not _copy_of_trained(ctx, h, left, trained)]
            if not left:
                continue
            reported.update(left)
            yield Match((place(call.loc),), call.loc, True, {},
                        variables=tuple(ctx.handle_name(h) for h in left))


def _model_of(name: str) -> str | None:
    """Return the model part of a Keras weight path (``target/dense_1/kernel`` -> ``target``)."""
    return name.split("/", 1)[0] if "/" in name else None


def _shapes_by_model(named: list[tuple[str, object]]) -> dict[str, list[object]]:
    found: dict[str, list[object]] = {}
    for name, shape in named:
        model = _model_of(name)
        if model is not None:
            found.setdefault(model, []).append(shape)
    return {model: sorted(shapes, key=repr) for model, shapes in found.items()}


def _copy_of_trained(ctx: RuleContext, handle: int, left: list[int],
                     trained: dict[str, list[object]]) -> bool:
    """Return True when ``handle``'s model has the layer shapes of a model a call trains.

    A target network (DQN, DDPG, TD3) is built by the same code as the network it follows and
    synced by copies the run may not reach: its weights on the loss path are by design.
    """
    model = _model_of(ctx.handle_name(handle))
    if model is None or model in trained:
        return False
    mine = _shapes_by_model([(ctx.handle_name(h), _shape(ctx, h)) for h in left
                             if _model_of(ctx.handle_name(h)) == model])[model]
    return any(shapes == mine for shapes in trained.values())


def _shape(ctx: RuleContext, handle: int) -> object:
    """Return a variable's shape, read from the output of one of its reads."""
    for op in ctx.graph.reads.get(handle, ()):
        record = ctx.trace.tensors.get(op.outputs[0]) if op.outputs else None
        if record is not None:
            return record.shape
    return None
