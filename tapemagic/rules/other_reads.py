"""Where the loss read something other than the sources (TM104's places for two shapes).

TF-free. ``compiled_without``: for ``fit``, the ``compile`` whose loss dict or list gave an
output no loss (``tracing/compiled.py``, ``Trace.unlossed``): the line that decides which
outputs ``fit``'s loss reads, where a head that only that output reads is cut off;
``monitored``: an output weighted 0 there, on purpose (its head's zeros are no finding).
``same_code_again``: a twin evaluated twice where the sources' model was meant once.
``twin_read_inside``: the loss read, inside the tape, a twin of the sources made by the same
code (``RuleContext.other_model``) that it also reads outside the tape or under a
``stop_gradient`` on the target's dataflow (a DQN's bootstrap target from the target network):
the twin is the loss's frozen target, so its read inside the tape is where the sources' model
was meant (``Q(s, a)`` taken from the target network). A twin read only inside the tape (a
DDPG actor step differentiating by the target actor's weights) leaves the gradient call's
source list as the line to change.
"""

from __future__ import annotations

from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.rules.base import Hit
from tapemagic.rules.context import RuleContext
from tapemagic.trace import OpRecord
from tapemagic.untracked_facts import Unlossed


def compiled_without(ctx: RuleContext, hit: Hit) -> Unlossed | None:
    """Return the last ``compile`` before a ``fit`` that left out outputs of the source's model.

    Only for the gradient call of Keras' own train step (``fit``, ``train_on_batch``), whose
    target is the compiled loss: a weight its forward pass read that the loss does not
    depend on is one only those outputs read.
    """
    call, name = hit.analysis.call, hit.source.source.name
    if not call.keras_fit:
        return None
    found = [u for u in ctx.trace.unlossed if name in u.paths and u.outputs]
    return found[-1] if found else None


def monitored(ctx: RuleContext, analysis: CallAnalysis, index: int) -> bool:
    """Return True for a ``fit`` source of a model compiled with an output weighted 0.

    Keras documents ``loss_weights`` as the coefficients of the weighted sum it minimises: a
    weight of 0 keeps an output's loss computed and reported but out of the sum, a head only
    monitored on purpose, whose weights then get exact zeros by design.
    """
    name = analysis.sources[index].source.name if index < len(analysis.sources) else ""
    return analysis.call.keras_fit and any(
        u.unweighted and name in u.paths for u in ctx.trace.unlossed)


def left_outputs(outputs: tuple[str, ...]) -> str:
    """Say which outputs a ``compile`` gave no loss, and how to train or only monitor them."""
    names = ", ".join(f"`{n}`" for n in outputs)
    many = "s" if len(outputs) > 1 else ""
    return (f": this `compile` gives the model's output{many} {names} no loss, so `fit` "
            f"computes none from {'them' if many else 'it'} (give each output a loss, or a "
            "`loss_weights` entry of 0 to only monitor it)")


def twin_read_inside(ctx: RuleContext, hit: Hit, twin: int) -> OpRecord | None:
    """Return the first read of ``twin`` inside the tape on the target's dataflow (see above)."""
    tape, anc = hit.analysis.tape, hit.analysis.ancestors
    if tape is None:
        return None
    inside: list[OpRecord] = []
    frozen = False
    for op in ctx.graph.reads.get(twin, ()):
        if op.in_gradient or not set(op.outputs) & anc:
            continue
        if tape.recording_at(op.seq):
            inside.append(op)
        else:
            frozen = True  # read outside the tape too: the loss's constant target
    if not frozen or not inside:
        return None
    return min(inside, key=lambda op: op.seq)


def twin_detail(ctx: RuleContext, twin: int) -> str:
    """Say that a line reads, inside the tape, the twin the loss keeps as its fixed target."""
    return (f": this line reads the model that holds `{ctx.handle_name(twin)}` (made by the "
            "same code as the sources' model), which the loss also reads outside the tape as "
            "its fixed target: the sources' model may have been meant here")


def same_code_again(ctx: RuleContext, hit: Hit) -> tuple[OpRecord, int] | None:
    """Return the later of two evaluations of a twin model read in a variable source's place.

    The shape of a twin-critic step that calls ``critic_1`` twice where the second call was
    meant for ``critic_2``: the source was never read while the tape recorded, and a weight
    made by the same code (same line, shape and dtype) was read on the target's dataflow at
    two or more user lines. The last of those reads, and the twin's handle; else None.
    """
    source, trace = hit.source.source, ctx.trace
    made = trace.handle_created.get(source.handle) if source.handle is not None else None
    if made is None or source.kind != "keras-variable" or ctx.reads_in_span(hit):
        return None
    anc, tape, tensors = hit.analysis.ancestors, hit.analysis.tape, trace.tensors
    for handle, raw in trace.handle_created.items():
        if handle == source.handle or raw is None or (raw.file, raw.line) != (
                made.file, made.line):
            continue
        reads = []
        for op in ctx.graph.reads.get(handle, ()):
            record = tensors.get(op.outputs[0]) if op.outputs else None
            if (not op.in_gradient and op.loc is not None and record is not None
                    and set(op.outputs) & anc and (tape is None or tape.recording_at(op.seq))
                    and record.dtype == source.dtype and record.shape == source.shape):
                reads.append(op)
        lines = {(op.loc.file, op.loc.line) for op in reads if op.loc is not None}
        if len(lines) >= 2:
            return max(reads, key=lambda op: op.seq), handle
    return None


def again_detail(ctx: RuleContext, handle: int) -> str:
    """Say that a line evaluates again a twin of the sources' model (``same_code_again``)."""
    return (f": this line evaluates again the model that holds `{ctx.handle_name(handle)}` "
            "(made by the same code as the sources' model, already evaluated above), where "
            "the sources' model may have been meant")
