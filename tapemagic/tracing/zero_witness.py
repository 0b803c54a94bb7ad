"""Which inputs of a traced op its registered gradient gives zeros whatever the values.

Imports TensorFlow (through ``_tf_private``). Some registered gradients return a tensor, not
None, for an input they do not differentiate: ``QuantizeAndDequantizeV4Grad`` (the op behind
``tf.quantization.quantize_and_dequantize_v2``) fills the gradients of ``input_min`` and
``input_max`` with zeros, so a learned quantisation range gets exact zeros on every step and
the path looks connected. ``witness.py`` names an input whose gradient is None; this names an
input whose gradient is zero on any values. At the end of a run, for the ops between a source
whose gradient was zero in every checked run (``GradientCallRecord.zeroed``) and its call's
target, the op is built again on a scratch ``FuncGraph`` from its recorded attrs, its
registered gradient is called with an output gradient drawn at random, and the graph is run on
:data:`DRAWS` random input draws. An input whose gradient is all zero on every draw that ran
(two at least) is the witness (``Trace.zero_inputs``). No list of op types; only ops traced in
a graph (their attrs rebuild them), with floating inputs (a random integer index could be out
of range), and never an input whose gradient depends on the values the draws chose (a
clamp's range gets a gradient wherever an element sits outside it, and random draws do).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import tensorflow as tf

from tapemagic.tracing import _tf_private as tfp

if TYPE_CHECKING:
    from tapemagic.trace import OpRecord
    from tapemagic.tracing.recorder import Recorder

#: random input draws per op signature (an op may refuse some: a range whose min exceeds max)
DRAWS = 6
#: a dimension the trace left unknown is drawn at this size
_UNKNOWN = 3
#: (op type, attrs, signature) -> the input positions its gradient gives zeros
_CACHE: dict[tuple[str, str, tuple[Any, ...]], frozenset[int]] = {}


def note(rec: Recorder, candidates: Iterable[tuple[OpRecord, set[int]]],
         names: Callable[[str, int], list[str]]) -> None:
    """Fill ``rec.trace.zero_inputs`` for the traced ops among ``candidates``.

    ``candidates``: (op, the input positions a zeroed source reaches); ``names``: an op type's
    input names by position (``witness.py``, from the op's definition).
    """
    trace = rec.trace
    for op, positions in candidates:
        attrs = rec.op_attrs.get(op.seq)
        if not op.graph or attrs is None or op.seq in trace.none_inputs:
            continue
        try:
            ins = tuple((trace.tensors[s].dtype, trace.tensors[s].shape) for s in op.inputs)
        except KeyError:
            continue
        key = (op.op_type, repr(attrs), ins)
        found = _CACHE.get(key)
        if found is None:
            found = _asked(op.op_type, attrs, ins)
            if found is not None and len(_CACHE) < 4096:
                _CACHE[key] = found
        if not found:
            continue
        # input 0 is the data: a zero there on these values is a saturation (saturation.py)
        chosen = sorted(i for i in found & positions if i > 0)
        if chosen:
            labels = names(op.op_type, len(op.inputs))
            trace.zero_inputs[op.seq] = {i: labels[i] for i in chosen}


def _asked(op_type: str, attrs: Any, ins: tuple[tuple[str, Any], ...],
           ) -> frozenset[int] | None:
    """Return ``_ask``'s answer; None (not kept: asked again next time) when it raised twice."""
    for _ in range(2):  # a scratch session can fail for reasons of the moment (resources)
        try:
            return _ask(op_type, attrs, ins)
        except Exception:  # noqa: BLE001, PERF203 - a gradient we cannot build says nothing
            continue
    return None


def _ask(op_type: str, attrs: Any, ins: tuple[tuple[str, Any], ...]) -> frozenset[int]:
    """Return the input positions whose gradient is all zero on every draw that ran."""
    function = tfp.gradient_lookup(op_type)
    dtypes = [tfp.as_dtype(d) for d, _ in ins]
    if function is None or not all(d.is_floating for d in dtypes):
        return frozenset()
    scratch = tfp.FuncGraph("tapemagic_zero_witness")
    with scratch.as_default():
        inputs = [tf.compat.v1.placeholder(d, s) for d, (_, s) in zip(dtypes, ins, strict=True)]
        op = scratch.create_op(op_type, inputs,
                               attrs=dict(zip(attrs[::2], attrs[1::2], strict=True)))
        upstream = [tf.random.stateless_normal(tf.shape(t), seed=[7, i], dtype=t.dtype)
                    if t.dtype.is_floating else None for i, t in enumerate(op.outputs)]
        grads = function(op, *upstream)
        grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
        if len(grads) != len(inputs):
            return frozenset()
        asked = [i for i, g in enumerate(grads) if g is not None]
        fetches = [tf.reduce_all(tf.equal(tf.convert_to_tensor(grads[i]), 0)) for i in asked]
    zero = dict.fromkeys(asked, True)
    ran = 0
    with tf.compat.v1.Session(graph=scratch) as session:
        for draw in range(DRAWS):
            rng = np.random.default_rng(draw)
            feed = {t.name: rng.normal(size=[_UNKNOWN if n is None else n for n in (s or ())])
                    .astype(d.as_numpy_dtype) for t, d, (_, s) in zip(inputs, dtypes, ins,
                                                                      strict=True)}
            try:
                flags = session.run(fetches, feed)
            except Exception:  # noqa: BLE001 - values the op refuses (min above max): redraw
                continue
            ran += 1
            for i, flag in zip(asked, flags, strict=True):
                zero[i] = zero[i] and bool(flag)
    return frozenset(i for i, z in zero.items() if z) if ran >= 2 else frozenset()
