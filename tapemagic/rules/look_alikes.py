"""Weights the loss reads in the sources' place that look like them: another model object.

TF-free. The shape of a resume script that keeps ``params = model.trainable_variables`` from
before ``model = keras.models.load_model(path)``: the loss reads the reloaded model's weights,
the sources are the old model's, and every gradient is None. Keras 3 names a variable by the
layer path it was made under (``Variable.path``): the reloaded model's ``rs_hidden/kernel``
and the old ``resumed/rs_hidden/kernel`` share the layer and variable part. A *look-alike* of
a source is a trainable weight on the call's recorded loss path that no gradient call trains
and nothing writes (``untrained.untrained_on_path``), whose name is the source's (or one is the
other under a leading model scope) and whose shape and dtype are the source's. Only when no
source is read on the target's dataflow while the tape recorded and every source has its own
look-alike: the source list, not the loss, is stale (TM110, sources-mismatch). A target network
made by the same code under another model name (``target_q/...``) is no look-alike: its
names differ in the model part (``RuleContext.other_model``'s, TM104).
"""

from __future__ import annotations

from tapemagic.graph.verdicts import CallAnalysis
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untrained import untrained_on_path


def look_alikes(ctx: RuleContext, analysis: CallAnalysis) -> dict[int, int]:
    """Return source index -> the look-alike weight read in its place, or {} (see above)."""
    tape, tensors = analysis.tape, ctx.trace.tensors
    if tape is None or not analysis.sources or any(
            s.source.handle is None or s.verdict == "connected" for s in analysis.sources):
        return {}
    anc = analysis.ancestors
    for source in analysis.sources:
        for op in ctx.graph.reads.get(source.source.handle or -1, ()):
            if not op.in_gradient and tape.recording_at(op.seq) and set(op.outputs) & anc:
                return {}
    facts: dict[int, tuple[str, object, str]] = {}
    for handle in untrained_on_path(ctx, analysis):
        for op in ctx.graph.reads.get(handle, ()):
            record = tensors.get(op.outputs[0]) if op.outputs else None
            if record is not None and not op.in_gradient:
                facts[handle] = (ctx.handle_name(handle), record.shape, record.dtype)
                break
    found: dict[int, int] = {}
    for index, source in enumerate(analysis.sources):
        s = source.source
        match = next((h for h, (name, shape, dtype) in facts.items()
                      if h not in found.values() and shape == s.shape and dtype == s.dtype
                      and _same_path(name, s.name)), None)
        if match is None:
            return {}
        found[index] = match
    return found


def _same_path(one: str, other: str) -> bool:
    """Return True when two Keras paths name the same layer's variable, under any model scope.

    Equal, or the shorter is the longer's tail after a leading scope: ``rs_hidden/kernel`` and
    ``resumed/rs_hidden/kernel``. A layer and variable part (two components) at least.
    """
    short, long = sorted((one.split("/"), other.split("/")), key=len)
    return len(short) >= 2 and long[len(long) - len(short):] == short
