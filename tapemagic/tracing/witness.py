"""Which inputs of an op TensorFlow's own registered gradient leaves without a gradient.

Imports TensorFlow (through ``_tf_private``). Some ops are differentiable in some inputs only:
``tf.math.betainc``'s gradient returns None for its shape parameters ``a`` and ``b``,
``tf.math.zeta``'s for ``x`` (tensorflow/python/ops/math_grad.py). The trace shows a
differentiable path, TensorFlow returns None, and only the registry can say why. So at the end
of a run in which a gradient call returned None for a source, each op between such a source and
that call's target is built again on a scratch ``FuncGraph`` (placeholders of the recorded
input dtypes and shapes, the recorded attrs), its registered gradient function is called with
ones as output gradients, and the inputs that come back None are the witness
(``Trace.none_inputs``, named from the op's definition). No list of op types: every op with a
registered gradient is asked the same way, once per (op type, attrs, input signature).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import tensorflow as tf
from tensorflow.python.framework import op_def_registry

from tapemagic.optypes import (
    METADATA_OPS,
    READ_OPS,
    RETURNS_NONE,
    VARIABLE_OPS,
    is_function_call,
)
from tapemagic.trace import GradientCallRecord, OpRecord, SourceRecord, Trace
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import cancel, zero_witness
from tapemagic.tracing._tf_private.grad_frames import raising_gradient

Signature = tuple[tuple[str, "tuple[int | None, ...] | None"], ...]

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

#: (op type, attrs, input and output signature) -> {input position: input name} it gives None
_CACHE: dict[tuple[str, str, tuple[Any, ...]], dict[int, str]] = {}
#: ops whose registered gradient passes its output gradient through or is the user's own
_PASSING = frozenset({"Identity", "IdentityN", "StopGradient", "EagerPyFunc", "PyFunc",
                      "PyFuncStateless"})


def note(rec: Recorder) -> None:
    """Fill ``rec.trace.none_inputs`` for the ops on the path of a source that got None."""
    trace = rec.trace
    with rec.quiet():  # the scratch graph's ops are ours (a nested check records)
        for op, positions in _candidates(trace):
            attrs = rec.op_attrs.get(op.seq)
            if attrs is None:
                continue
            found = _witness(trace, op, attrs)
            named = {i: name for i, name in found.items() if i in positions}
            if named:
                trace.none_inputs[op.seq] = named
        zero_witness.note(rec, reached(trace, _zeroed), _input_names)
        cancel.note(rec)  # a difference of equal terms (its gradients are zeros)


def note_raised(rec: Recorder, call: GradientCallRecord, error: BaseException) -> None:
    """Note that ``call`` raised ``error``, and name the op whose gradient function raised it.

    ``tf.linalg.qr(full_matrices=True)`` on a tall matrix has a registered gradient that raises
    ``NotImplementedError`` (linalg_grad.py ``_QrGrad``); any error type counts, since the
    op is the one thing the user can change. The op is found by its forward outputs, which the
    backward pass hands its gradient function (``Trace.raising_gradients``).
    """
    call.error_type = type(error).__name__
    call.error_message = str(error)
    if not isinstance(error, Exception):
        return
    try:
        _note_raised(rec, call, error)
    except Exception:  # noqa: BLE001 - the user's error leaves unchanged whatever happens here
        return


def _note_raised(rec: Recorder, call: GradientCallRecord, error: Exception) -> None:
    found = raising_gradient(error)
    if found is None:
        return
    op_type, outputs = found
    text = f"{type(error).__name__}: {error}".strip()
    trace = rec.trace
    with rec.quiet():
        for tensor in outputs:
            serial = rec.ids.serial_of(tensor)
            op = trace.producer_of(serial) if serial is not None else None
            if op is not None and op.op_type == op_type:
                trace.raising_gradients[op.seq] = (call.id, text)
                return
        if outputs:
            return
        # the tape kept no output to tell the op by (its gradient reads none): each op of
        # that type on the call's path, since the backward pass asks the gradient of every one
        anc = ancestors(trace, call.targets)
        for op in trace.ops:
            if (op.op_type == op_type and not op.in_gradient and op.outputs
                    and all(out in anc for out in op.outputs[:1])):
                trace.raising_gradients[op.seq] = (call.id, text)


def _candidates(trace: Trace) -> Iterable[tuple[OpRecord, set[int]]]:
    """Yield each op (and its input positions) between a None source and its call's target."""
    return reached(trace, lambda call: [s for s in call.sources if s.result == "none"])


def _zeroed(call: GradientCallRecord) -> list[SourceRecord]:
    """Return the sources whose gradient was zero in every checked run (``moved.py``)."""
    return [call.sources[i] for i, _ in call.zeroed if i < len(call.sources)]


def reached(trace: Trace, pick: Callable[[GradientCallRecord], list[SourceRecord]],
            ) -> Iterable[tuple[OpRecord, set[int]]]:
    """Yield each op (and its input positions) between a picked source and its call's target.

    Only inputs a source's value reaches, of a dtype gradients flow through, on ops whose
    registered gradient is a function (not None, not missing, not one known to return None).
    """
    picked = [(c, chosen) for c in trace.gradient_calls if (chosen := pick(c))]
    if not picked:
        return
    consumers: dict[int, list[OpRecord]] = defaultdict(list)
    for op in trace.ops:
        for serial in op.inputs:
            consumers[serial].append(op)
    positions_of: dict[int, set[int]] = {}
    for call, sources in picked:
        anc = ancestors(trace, call.targets)
        for source in sources:
            node = source.handle if source.handle is not None else source.tensor
            if node is None:
                continue
            for op, position in _reached(trace, consumers, node, anc):
                positions_of.setdefault(op.seq, set()).add(position)
    for seq, positions in sorted(positions_of.items()):
        found = trace.op_at(seq)
        if found is not None:
            yield found, positions


def ancestors(trace: Trace, targets: Iterable[int]) -> set[int]:
    """Return every tensor the targets depend on through recorded ops."""
    seen: set[int] = set()
    stack = list(targets)
    while stack:
        serial = stack.pop()
        if serial in seen:
            continue
        seen.add(serial)
        op = trace.producer_of(serial)
        if op is not None:
            stack.extend(op.inputs)
    return seen


def _reached(trace: Trace, consumers: dict[int, list[OpRecord]], node: int,
             anc: set[int]) -> Iterable[tuple[OpRecord, int]]:
    """Yield (op, input position) where a value of ``node`` enters an op the target needs."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        serial = stack.pop()
        if serial in seen or serial not in anc:
            continue
        seen.add(serial)
        for op in consumers.get(serial, ()):
            if op.in_gradient or not any(out in anc for out in op.outputs):
                continue
            stack.extend(op.outputs)
            if _askable(trace, op):
                for position, input_serial in enumerate(op.inputs):
                    record = trace.tensors.get(input_serial)
                    if input_serial == serial and record is not None and record.trainable:
                        yield op, position


def _askable(trace: Trace, op: OpRecord) -> bool:
    op_type = op.op_type
    return (trace.registry.get(op_type, "fn") == "fn" and op_type not in RETURNS_NONE
            and op_type not in METADATA_OPS and op_type not in VARIABLE_OPS
            and op_type not in READ_OPS and op_type not in _PASSING
            and not is_function_call(op_type) and op.seq not in trace.custom_gradients)


def _witness(trace: Trace, op: OpRecord, attrs: Any) -> dict[int, str]:
    """Return {input position: name} of the inputs the op's registered gradient gives None."""
    tensors = trace.tensors
    try:
        ins = tuple((tensors[s].dtype, tensors[s].shape) for s in op.inputs)
        outs = tuple((tensors[s].dtype, tensors[s].shape) for s in op.outputs)
    except KeyError:
        return {}
    key = (op.op_type, repr(attrs), (ins, outs, bool(op.graph)))
    found = _CACHE.get(key)
    if found is None:
        try:
            found = _ask(op.op_type, attrs, ins, outs, bool(op.graph))
        except Exception:  # noqa: BLE001 - a gradient function that needs more than we have
            found = {}
        if len(_CACHE) < 4096:
            _CACHE[key] = found
    return found


def _ask(op_type: str, attrs: Any, ins: Signature, outs: Signature, graph: bool,
         ) -> dict[int, str]:
    """Call ``op_type``'s registered gradient on a scratch graph; name the inputs it gives None."""
    built = scratch_gradients(op_type, attrs, ins, outs, graph)
    if built is None:
        return {}
    grads = built[2]
    names = _input_names(op_type, len(ins))
    return {i: names[i] for i, grad in enumerate(grads)
            if grad is None and tfp.is_trainable_dtype(tfp.as_dtype(ins[i][0]))}


def scratch_gradients(op_type: str, attrs: Any, ins: Signature, outs: Signature, graph: bool,
                      ) -> tuple[list[Any], list[Any], list[Any]] | None:
    """Build ``op_type`` on a scratch graph and call its registered gradient with ones.

    Returns (input placeholders, outputs, one gradient per input), or None when the op has no
    gradient function or it returned a different number of gradients. ``attrs`` as the op
    callback had them: ``(name, value, ...)``, the values AttrValue protos for an op made in a
    graph (the op is made again from them, as TensorFlow made it), Python values for an eager
    op (handed over in the stand-in op eager backprop builds). Raises what the gradient
    function raises.
    """
    function = tfp.gradient_lookup(op_type)
    if function is None:
        return None
    scratch = tfp.FuncGraph("tapemagic_witness")
    with scratch.as_default():
        inputs = [tf.compat.v1.placeholder(tfp.as_dtype(d), s) for d, s in ins]
        if graph:
            op: Any = scratch.create_op(op_type, inputs, attrs=dict(zip(attrs[::2], attrs[1::2],
                                                                         strict=True)))
            outputs = list(op.outputs)
        else:
            outputs = [tf.compat.v1.placeholder(tfp.as_dtype(d), s) for d, s in outs]
            op = tfp.MockOp(attrs, inputs, outputs, op_type, None)
        grads_out = [tf.ones_like(t) if tfp.is_trainable_dtype(t.dtype) else None
                     for t in outputs]
        grads = function(op, *grads_out)
    if not isinstance(grads, (list, tuple)):
        grads = [grads]
    if len(grads) != len(ins):
        return None
    return inputs, outputs, list(grads)


def _input_names(op_type: str, count: int) -> list[str]:
    """Name each input position from the op's definition (``x``; ``values[2]`` in a list)."""
    definition = op_def_registry.get(op_type)
    args = list(definition.input_arg) if definition is not None else []
    sized = [a for a in args if a.number_attr or a.type_list_attr]
    if len(sized) > 1 or (not sized and len(args) != count):
        return [f"input {i}" for i in range(count)]
    names: list[str] = []
    for arg in args:
        if arg.number_attr or arg.type_list_attr:
            names += [f"{arg.name}[{k}]" for k in range(count - len(args) + 1)]
        else:
            names.append(arg.name)
    return names
