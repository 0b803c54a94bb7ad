"""Which input zeroed an op's gradient on the run's values: a mask, a condition, a divisor.

Imports TensorFlow. ``saturation.py`` asks the ops whose registered gradient reads the input
the weights reach them through (a ReLU, a clip). An op whose gradient to that input reads
*another* input (``Mul``'s gradient to ``x`` is ``g * y``, ``MatMul``'s, a select's to its
branch reads the condition, ``divide_no_nan``'s reads the divisor) passes zeros when that other
input makes it: an all-zero mask, an all-false condition, a zero divisor. Which inputs a
gradient reads is read from TensorFlow's registry (``saturation.read_inputs``), not a list.

For each such op on the weights' path (:class:`Asked`), the probe computes whether its
registered gradient gives each path input zeros everywhere (``saturation.zero_flag``, built
only when an input it reads is all zero: a ``tf.cond``, so a live step pays one reduction per
input) and which of its inputs are all zero; for the ops that made those inputs (a ``Cast``
of a comparison, a product with a zero factor) within a few ops, which of their inputs are all
zero. Read back, ``OpRecord.zero_factors`` says which input zeroed which path input and
``OpRecord.zero_values`` which inputs were all zero: ``graph/zero_factors.py`` walks back to
where the zero was made (the comparison, the zero-initialised variable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import tensorflow as tf

from tapemagic.optypes import READ_OPS
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing.saturation import OUTPUT, on_path, read_inputs, zero_flag

if TYPE_CHECKING:
    from tapemagic.trace import OpRecord, Trace
    from tapemagic.tracing.recorder import Recorder

#: at most this many ops asked per probe (factors and the ops that made their inputs)
MAX_ASKED = 128
#: how many ops back from a factor's zero input the walk to its origin is prepared
DEPTH = 6
#: (op type, attrs, signature, graph, input) -> the inputs its gradient reads
_READS: dict[tuple[str, str, tuple[Any, ...], bool, int], frozenset[int] | None] = {}


@dataclass
class Asked:
    """One op the probe asks: its path inputs' gradients (a factor) or its inputs' values."""

    op: OpRecord
    #: per input the weights reach it through, the other inputs its gradient reads (itself
    #: included when the gradient reads it, as a divisor's does); empty for an origin-walk op
    reads: dict[int, tuple[int, ...]]
    name: str = ""


def _reads(trace: Trace, op: OpRecord, attrs: Any, index: int) -> frozenset[int] | None:
    tensors = trace.tensors
    try:
        ins = tuple((tensors[s].dtype, tensors[s].shape) for s in op.inputs)
        outs = tuple((tensors[s].dtype, tensors[s].shape) for s in op.outputs)
    except KeyError:
        return None
    key = (op.op_type, repr(attrs), (ins, outs), bool(op.graph), index)
    if key not in _READS:
        try:
            found = read_inputs(op.op_type, attrs, ins, outs, bool(op.graph), index)
        except Exception:  # noqa: BLE001 - a gradient function that needs more than we have
            found = None
        if len(_READS) >= 4096:
            return found
        _READS[key] = found
    return _READS[key]


def plan(trace: Trace, attrs: dict[int, Any], path: list[OpRecord], nodes: set[int],
         noted: set[int]) -> list[Asked]:
    """Return the ops to ask among ``path`` (ops on the weights' paths, in order).

    ``nodes``: the sources' handles and tensors; ``noted``: the seqs of the ops whose
    tensors the probe holds (the others cannot be asked). A factor is asked when its gradient
    to a path input reads other inputs only (``Mul``, a select's condition, a divisor), or
    only that input itself and nothing of the op's output.
    """
    reached = set(nodes) | {s for op in path for s in op.outputs}
    asked: list[Asked] = []
    for op in path:
        if op.seq not in noted or op.in_gradient or attrs.get(op.seq) is None:
            continue
        reads: dict[int, tuple[int, ...]] = {}
        for i, serial in enumerate(op.inputs):
            record = trace.tensors.get(serial)
            if serial not in reached or record is None or not record.trainable:
                continue
            found = _reads(trace, op, attrs[op.seq], i)
            if not found or OUTPUT in found or (i in found and found != {i}):
                # a gradient reading its own input beside others (a fake-quant clamp, a
                # maximum) is zero by that input's value: a saturation (saturation.py), not
                # the other input's zero (a min of 0.0 is no mask)
                continue
            reads[i] = tuple(sorted(found))
        if reads:
            asked.append(Asked(op, reads))
        if len(asked) >= MAX_ASKED:
            return asked
    return asked + _makers(trace, asked, noted, MAX_ASKED - len(asked))


def _makers(trace: Trace, factors: list[Asked], noted: set[int], room: int) -> list[Asked]:
    """Return the ops that made the factors' read inputs, up to ``DEPTH`` ops back."""
    found: dict[int, Asked] = {}
    asked = {factor.op.seq for factor in factors}
    frontier = [(trace.producer_of(factor.op.inputs[k]), 0) for factor in factors
                for ks in factor.reads.values() for k in ks]
    while frontier and len(found) < room:
        op, depth = frontier.pop()
        if op is None or op.seq in found or op.op_type in READ_OPS or depth >= DEPTH:
            continue
        if op.seq in noted and op.seq not in asked and op.inputs:
            found[op.seq] = Asked(op, {})
        frontier.extend((trace.producer_of(s), depth + 1) for s in op.inputs)
    return [found[seq] for seq in sorted(found)]


def flags(asked: list[Asked], ops: list[Any]) -> list[Any]:
    """Return the bool tensors of ``asked``, given each op as (inputs, outputs, op) or None.

    ``op`` is the op as gradient functions get it: the graph ``Operation`` (None: the
    outputs' op), or eager backprop's stand-in over recorded values. Layout per op: for a
    factor, per path input (in ``reads`` order) whether its gradient is zero everywhere;
    then, for every op, per input whether it is all zero (all false).
    """
    out: list[Any] = []
    for entry, tensors in zip(asked, ops, strict=True):
        count = len(entry.reads) + len(entry.op.inputs)
        if tensors is None or not tensors[1]:
            out.extend(tf.constant(False) for _ in range(count))
            continue
        inputs, outputs, op = tensors
        zero = [_all_zero(t) if _free(t) else tf.constant(False) for t in inputs]
        for i, ks in entry.reads.items():
            out.append(_gradient_zero(entry.op.op_type, op or outputs[0].op, outputs, i,
                                      [zero[k] for k in ks]))
        out.extend(zero)
    return out


def _free(tensor: Any) -> bool:
    """Return True when reading ``tensor`` cannot change how the step computes.

    A graph tensor read by one op only may be fused into it by Grappler (a MatMul's output
    into its BiasAdd and ReLU: ``_FusedMatMul``); one more reader would undo the fusion and
    change the step's float rounding. A tensor two ops read already (a factor its gradient
    reads too) is never fused away, and an eager value is only read.
    """
    consumers = getattr(tensor, "consumers", None)
    return not isinstance(tensor, tfp.SymbolicTensor) or consumers is None or len(
        consumers()) >= 2


def _all_zero(tensor: Any) -> Any:
    try:
        return tf.reduce_all(tf.equal(tensor, tf.zeros([], tensor.dtype)))
    except Exception:  # noqa: BLE001 - a resource or string input: never a zero factor
        return tf.constant(False)


def _gradient_zero(op_type: str, op: Any, outputs: Any, index: int, zeros: list[Any]) -> Any:
    """Return whether the op's gradient to ``index`` is zero, asked only when a read is zero."""
    def ask() -> Any:
        try:
            flag = zero_flag(op_type, op, outputs, index)
        except Exception:  # noqa: BLE001 - one op we cannot ask leaves the rest probed
            flag = None
        return tf.constant(False) if flag is None else flag

    return tf.cond(tf.reduce_any(tf.stack(zeros)), ask, lambda: tf.constant(False))


def count(asked: list[Asked]) -> int:
    """Return how many flags :func:`flags` makes for ``asked``."""
    return sum(len(a.reads) + len(a.op.inputs) for a in asked)


def apply(asked: list[Asked], values: Any) -> None:
    """Write the flags read back (``values``, in :func:`flags`' layout) into the op records."""
    at = 0
    for entry in asked:
        grads = [bool(values[at + n] == 1.0) for n in range(len(entry.reads))]
        at += len(entry.reads)
        zero = [bool(values[at + n] == 1.0) for n in range(len(entry.op.inputs))]
        at += len(entry.op.inputs)
        entry.op.zero_values = tuple(k for k, z in enumerate(zero) if z)
        factors = []
        for (i, ks), zeroed in zip(entry.reads.items(), grads, strict=True):
            culprit = next((k for k in ks if zero[k]), None)
            if zeroed and culprit is not None:
                factors.append((i, culprit))
        entry.op.zero_factors = tuple(factors)


def graph_ops(graph: Any, asked: list[Asked]) -> list[Any]:
    """Return each asked op's (inputs, outputs) in ``graph``, found by name (None: absent)."""
    out = []
    for entry in asked:
        try:
            found = graph.get_operation_by_name(entry.name)
        except (KeyError, ValueError):
            found = None
        out.append((tuple(found.inputs), tuple(found.outputs), found)
                   if found is not None else None)
    return out


def resolve(rec: Recorder, nodes: list[int], targets: tuple[int, ...]) -> None:
    """Ask the kept eager ops on zeroed sources' paths the same, on their recorded values."""
    kept = {op.seq: (op, ins, outs) for op, ins, outs in rec.value_ops}
    if not kept:
        return
    trace = rec.trace
    with rec.quiet():
        asked = plan(trace, rec.op_attrs, on_path(trace, nodes, targets), set(nodes),
                     set(kept))
        if not asked or not any(a.reads for a in asked):
            return
        ops = []
        for entry in asked:
            op, ins, outs = kept[entry.op.seq]
            mock = tfp.MockOp(rec.op_attrs.get(op.seq), list(ins), list(outs), op.op_type, None)
            ops.append((ins, outs, mock))
        try:
            values = [float(bool(flag)) for flag in flags(asked, ops)]
        except Exception:  # noqa: BLE001 - unknown: nothing zeroed through another input
            return
    apply(asked, values)


def unchanged_loop_inputs(rec: Recorder, body: Any) -> list[int]:
    """Return the serials of the loop variables a ``While`` body returns as it got them.

    while_v2 gives the body's inputs and outputs the loop variables in order: an output that
    is its own input (a recurrent cell returning its incoming state) never changes, so each
    iteration sees the loop's initial value there. The counter and bound (0, 1) are left out.
    """
    found = []
    for index, (inner, result) in enumerate(zip(body.inputs, body.outputs, strict=False)):
        while result.op.type == "Identity" and result is not inner:
            result = result.op.inputs[0]
        serial = rec.ids.serial_of(inner) if index >= 2 and result is inner else None
        if serial is not None:
            found.append(serial)
    return found
