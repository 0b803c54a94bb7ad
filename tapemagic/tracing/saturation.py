"""Whether an op passed no gradient on this run's values, asked of its registered gradient.

Imports TensorFlow (through ``_tf_private``). A weight's gradient came back all zeros, and the
path to the loss is connected: some op on it passed nothing back on these values (a ReLU with
no active unit, a clip or a fake-quant whose range clamps every element, a tanh saturated to
float precision). No list of such ops: the op's own registered gradient function is called on
the op as it ran, with an output gradient that is nowhere zero (:func:`_upstream`), and the op
counts as saturated (``OpRecord.saturated``) when the gradient it gives its first (data) input
is zero everywhere.
The same predicate, :func:`zero_flag`, runs eagerly on an eager op's recorded values and is
built into a traced step's probe (probes.py) for a graph op.

Which ops are asked: those whose registered gradient to the input the weights reach them
through (``OpRecord.data_input``: input 0, or 1 in ``tf.maximum(0.0, x)``) reads that input
itself or an output of the op beyond its shape (:func:`gated`, asked once per op signature on
a scratch graph). A gradient that reads only the *other* inputs (``Mul``, ``MatMul``, a convolution)
is zero only where another factor is zero: a zero weight, which ``graph/first_step.py``
explains (ReZero), not a saturation. ``Softmax`` is the one op asked another way: its gradient
``p * (g - sum(g * p))`` is zero only where ``p`` is exactly one-hot, where the rule that
explains it (TM505) counts a row whose largest probability is exactly 1.0 in float32: that is
what it is asked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import tensorflow as tf

from tapemagic.optypes import (
    METADATA_OPS,
    MULTIPLYING,
    READ_OPS,
    VARIABLE_OPS,
    WRITE_OPS,
    is_function_call,
)
from tapemagic.trace import OpRecord, Trace
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing.witness import ancestors, scratch_gradients

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

#: at most this many ops are asked per gradient call (the nearest the sources first)
MAX_ASKED = 256
#: eager ops kept (with their tensors) while a tape records, for :func:`resolve`
MAX_KEPT = 4096
#: (op type, attrs, signature, graph, input) -> whether the gradient to it reads its values
_GATED: dict[tuple[str, str, tuple[Any, ...], bool, int], bool] = {}
_SKIPPED = METADATA_OPS | READ_OPS | VARIABLE_OPS | WRITE_OPS | {"Identity", "IdentityN",
                                                                  "StopGradient"}


def askable(op_type: str) -> bool:
    """Return True for an op type worth keeping: not a variable, metadata or pass-through op."""
    return op_type not in _SKIPPED and not is_function_call(op_type)


def zero_flag(op_type: str, op: Any, outputs: tuple[Any, ...] | list[Any],
              index: int = 0) -> Any:
    """Return a bool tensor: ``op``'s registered gradient gives input ``index`` zeros everywhere.

    ``op`` is the op as TensorFlow hands it to gradient functions: a graph ``Operation``, or
    eager backprop's stand-in (``MockOp``) over the recorded values; the result is eager or
    symbolic with it. None when the op has no gradient function or gives that input None.
    """
    if op_type == "Softmax":  # one-hot to float precision on every row
        p = outputs[0]
        return tf.reduce_all(tf.equal(tf.reduce_max(p, axis=-1), tf.ones([], p.dtype)))
    function = tfp.gradient_lookup(op_type)
    if function is None:
        return None
    upstream = [_upstream(t) if tfp.is_trainable_dtype(t.dtype) else None for t in outputs]
    grads = function(op, *upstream)
    if not isinstance(grads, (list, tuple)):
        grads = [grads]
    first = grads[index] if index < len(grads) else None
    if first is None:
        return None
    first = tf.convert_to_tensor(first)
    return tf.reduce_all(tf.equal(first, tf.zeros([], first.dtype)))


def _upstream(tensor: Any) -> Any:
    """Return an output gradient that is never zero and not constant: 1, 2, 3, 1, 2, 3, ...

    Ones would say nothing of an op whose gradient removes constants (a batch
    normalization's input gradient, like a softmax's, is zero for any constant output
    gradient); a ReLU, a clip or a fake-quant still passes zero exactly where it saturates.
    """
    count = tf.size(tensor)
    pattern = tf.cast(tf.math.floormod(tf.range(count), 3) + 1, tensor.dtype)
    return tf.reshape(pattern, tf.shape(tensor))


def gated(trace: Trace, op: OpRecord, attrs: Any) -> bool:
    """Return True when ``op``'s registered gradient to its data input reads it or an output."""
    tensors = trace.tensors
    if attrs is None or not op.inputs or not op.outputs:
        return False
    try:
        ins = tuple((tensors[s].dtype, tensors[s].shape) for s in op.inputs)
        outs = tuple((tensors[s].dtype, tensors[s].shape) for s in op.outputs)
    except KeyError:
        return False
    index = op.data_input if op.data_input < len(op.inputs) else 0
    if not tensors[op.inputs[index]].trainable:
        return False
    key = (op.op_type, repr(attrs), (ins, outs), bool(op.graph), index)
    found = _GATED.get(key)
    if found is None:
        try:
            found = _reads_values(op.op_type, attrs, ins, outs, bool(op.graph), index)
        except Exception:  # noqa: BLE001 - a gradient function that needs more than we have
            found = False
        if len(_GATED) < 4096:
            _GATED[key] = found
    return found


def _reads_values(op_type: str, attrs: Any, ins: Any, outs: Any, graph: bool,
                  index: int = 0) -> bool:
    if op_type == "Softmax":
        return index == 0
    found = read_inputs(op_type, attrs, ins, outs, graph, index)
    return found is not None and (index in found or OUTPUT in found)


#: in :func:`read_inputs`' answer: the gradient reads an output of the op
OUTPUT = -1


def read_inputs(op_type: str, attrs: Any, ins: Any, outs: Any, graph: bool,
                index: int = 0) -> frozenset[int] | None:
    """Return which inputs (``OUTPUT``: an output) the registered gradient to ``index`` reads.

    Read off the ops that gradient function builds on a scratch graph (a shape is not a
    value): ``Mul``'s gradient to ``x`` reads ``y``, a ReLU's reads its output. None when the
    op has no gradient function or gives that input None. Raises what the function raises.
    """
    built = scratch_gradients(op_type, attrs, ins, outs, graph)
    if built is None or index >= len(built[2]) or built[2][index] is None:
        return None
    inputs, outputs, grads = built
    own = {id(t): i for i, t in enumerate(inputs)} | {id(t): OUTPUT for t in outputs}
    start = grads[index]
    stack = [getattr(start, "values", start)]
    seen: set[int] = set()
    found: set[int] = set()
    while stack:
        tensor = stack.pop()
        if id(tensor) in own:
            found.add(own[id(tensor)])
            continue
        if id(tensor) in seen or tensor.op.type in METADATA_OPS:
            continue  # a shape is not a value
        seen.add(id(tensor))
        stack.extend(tensor.op.inputs)
    return frozenset(found)


def _all_zero(outputs: tuple[Any, ...]) -> bool:
    """Return True when the op's first output holds only zeros (read once, on a saturation)."""
    first = outputs[0] if outputs else None
    if first is None or not tfp.is_trainable_dtype(first.dtype):
        return False
    return bool(tf.reduce_all(tf.equal(first, tf.zeros([], first.dtype))))


def on_path(trace: Trace, nodes: Iterable[int], targets: Iterable[int]) -> list[OpRecord]:
    """Return the ops between ``nodes`` (source handles or tensors) and ``targets``, in order."""
    anc = ancestors(trace, targets)
    consumers: dict[int, list[OpRecord]] = defaultdict(list)
    for op in trace.ops:
        if not op.in_gradient:
            for serial in op.inputs:
                consumers[serial].append(op)
    found: dict[int, OpRecord] = {}
    stack = [n for n in nodes if n in anc]
    seen: set[int] = set()
    while stack:
        serial = stack.pop()
        if serial in seen:
            continue
        seen.add(serial)
        for op in consumers.get(serial, ()):
            # a shape read passes no gradient: a loss divided by its size is not reached
            # through its divisor (metadata ops are never a path)
            if op.op_type not in METADATA_OPS and any(out in anc for out in op.outputs):
                if op.seq not in found:  # the first input the weights reach it through
                    op.data_input = op.inputs.index(serial)
                found[op.seq] = op
                stack.extend(op.outputs)
    return [found[seq] for seq in sorted(found)]


def feeding(trace: Trace, nodes: Iterable[int]) -> list[OpRecord]:
    """Return the ops whose output a product reading one of ``nodes`` multiplies.

    A zeroed kernel's gradient is its input activations times the output's: when those
    activations are a clamp's all-zero output (a fake-quant on the data, with no weight
    before it), that clamp is on no weight's path, and is asked for this (``zero_output``).
    """
    wanted = set(nodes)
    reads = {out for op in trace.ops if op.op_type in READ_OPS and op.inputs[:1]
             and op.inputs[0] in wanted for out in op.outputs} | wanted
    found: dict[int, OpRecord] = {}
    for op in trace.ops:
        if op.in_gradient or op.op_type not in MULTIPLYING or not set(op.inputs) & reads:
            continue
        for serial in op.inputs:
            producer = trace.producer_of(serial)
            if serial not in reads and producer is not None and askable(producer.op_type):
                found[producer.seq] = producer
    return [found[seq] for seq in sorted(found)]


def keep(rec: Recorder, op: OpRecord, inputs: Any, outputs: Any) -> None:
    """Keep an eager op's tensors while a tape records (the tape holds most of them anyway)."""
    kept = rec.value_ops
    if len(kept) >= MAX_KEPT:
        del kept[:MAX_KEPT // 4]  # the oldest: the nearest the inputs
    kept.append((op, tuple(inputs), tuple(outputs)))


def resolve(rec: Recorder, nodes: list[int], targets: tuple[int, ...]) -> None:
    """Ask the kept eager ops between zeroed sources and the target whether they saturated."""
    kept = {op.seq: (op, ins, outs) for op, ins, outs in rec.value_ops}
    if not kept:
        return
    trace = rec.trace
    asked = 0
    with rec.quiet():
        path = on_path(trace, nodes, targets)
        ops = path + [op for op in feeding(trace, nodes) if op.seq not in {p.seq for p in path}]
        for op in ops:
            entry = kept.get(op.seq)
            if entry is None or op.saturated:
                continue
            attrs = rec.op_attrs.get(op.seq)
            if not gated(trace, op, attrs):
                continue
            asked += 1
            try:
                mock = tfp.MockOp(attrs, list(entry[1]), list(entry[2]), op.op_type, None)
                flag = zero_flag(op.op_type, mock, entry[2], op.data_input)
                op.saturated = bool(flag is not None and bool(flag))
                op.zero_output = op.saturated and _all_zero(entry[2])
            except Exception:  # noqa: BLE001 - unknown: not saturated
                op.saturated = False
            if asked >= MAX_ASKED:
                break
