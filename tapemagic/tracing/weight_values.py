"""What a gradient call returned per source, and which weights were exactly zero when it ran.

Imports TensorFlow (through ``_tf_private``). A weight whose value is all zeros and that gets a
gradient (ReZero's ``alpha = 0``, a zero-initialised last layer of a residual branch, Fixup's
zero scale) makes the gradients behind it zero on that step only: the first update moves it.
The analysis tells those zeros from a cut by this fact (``SourceRecord.zero_value``), read
only when some source of the call got an all-zero gradient: eagerly as the call returns (the
values its forward pass read), in graph mode after the function's first run (when the
function did not write that weight itself).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from tapemagic.trace import GradientCallRecord, SourceRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import zero_factors
from tapemagic.tracing.results import classify, flatten
from tapemagic.tracing.saturation import resolve

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder


def note_results(rec: Recorder, call: GradientCallRecord, result: Any, sources: Any) -> None:
    """Set each source's result and norm from what the call returned (``classify``).

    A traced function's gradient (symbolic) is zeros by construction or waits for the
    function's first run (``GraphTracer.pending``); its variable waits with it.
    """
    flat = flatten(result)
    objects = flatten(sources)
    if len(flat) != len(call.sources):
        return
    traced: list[tuple[Any, SourceRecord]] = []
    for source, value in zip(call.sources, flat, strict=False):
        source.result, source.norm = classify(value)
        data = getattr(value, "values", value)
        if source.result == "ok" and isinstance(data, tfp.SymbolicTensor):
            if tfp.is_static_zero(data):
                source.result, source.norm = "zero", 0.0
            else:
                traced.append((data, source))
    if traced:
        # the step computes its gradients' facts and its weights' zero values itself
        # (probes.py); what it cannot probe is seen only if the function returns it
        site = (*(call.site or ("?", 0)), call.method)  # as the tape hooks key it
        unprobed = rec.graphs.probes.arm(site, call.sources, objects, traced, call.targets)
        rec.graphs.pending.extend(unprobed)
        waiting = {id(s) for _, s in unprobed}
        rec.graphs.pending_variables.extend(
            (variable, source) for variable, source in zip(objects, call.sources, strict=False)
            if id(source) in waiting and source.kind != "tensor")
    if tfp.executing_eagerly() and any(s.result == "zero" for s in call.sources):
        note_zero_values(rec, zip(objects, call.sources, strict=False))
        # which op on the way passed nothing back on these values (a dead ReLU, a clamped
        # fake-quant): asked of each op's registered gradient
        zeroed = [s.handle if s.handle is not None else s.tensor for s in call.sources
                  if s.result == "zero"]
        resolve(rec, [n for n in zeroed if n is not None], call.targets)
        zero_factors.resolve(rec, [n for n in zeroed if n is not None], call.targets)


def note_zero_values(rec: Recorder, pairs: Iterable[tuple[Any, SourceRecord]],
                     written: frozenset[int] = frozenset()) -> None:
    """Mark the variable sources whose value is all zeros now (not those in ``written``)."""
    with rec.quiet():  # the reads are ours, not the user's ops
        for variable, source in pairs:
            if source.kind == "tensor" or source.handle in written:
                continue
            try:
                value = np.asarray(variable.numpy())
            except Exception:  # noqa: BLE001 - no readable value (remote, uninitialised)
                continue
            source.zero_value = bool(value.size) and not np.any(value)
