"""The backward pass of an eager gradient call, recorded on a fast path.

Imports TensorFlow (through ``_tf_private``). The backward pass of an eager
``tape.gradient`` runs about as many ops as the forward pass (an eager ResNet50 step: 3,168 of
6,449). When no user code can run in it, every one of its ops runs at the same place: the
user's frame is the one that called ``tape.gradient`` (or ``fit``), below it the same library
frames, the same Keras name scope. Its first op is recorded as any op; the others reuse that
op's location, API, layer and call site instead of walking some 20 frames each, and their
records are built in one loop when the pass ends (:func:`flush`). The records are the same as
on the slow path: every op, its inputs and outputs (the gradients' data flow into what
follows: an optimizer's writes, a host round-trip, a later tape), ``in_gradient``.

User code can run in a backward pass through a ``tf.custom_gradient`` function (its forward
op is made in ``tensorflow.python.ops.custom_gradient``), ``tf.py_function`` (``EagerPyFunc``:
its gradient runs the function again under a tape), a gradient registered outside TensorFlow
(``tf.RegisterGradient``), and a ``tf.function`` whose backward function is traced lazily (a
call op). Any such op recorded while the tape recorded keeps the whole call on the slow path,
as does a tape that recorded while the op callback was off, a tape made before the run, a call
inside a ``tf.function`` or on another thread, and ``jacobian``. Variable ops and call ops
always take the slow path.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from tapemagic.optypes import VARIABLE_OPS, is_function_call
from tapemagic.trace import OpRecord, TapeRecord, TensorRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing._tf_private.ids import eager_uid
from tapemagic.tracing.values import enum_info

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

#: Ops whose gradient runs Python the user wrote (script_ops.py: ``EagerPyFunc``'s gradient
#: calls the function again under a tape).
PYTHON_BACKWARD_OPS = frozenset({"EagerPyFunc", "PyFunc", "PyFuncStateless"})
#: Modules whose registered gradient functions are TensorFlow's or Keras' own.
_OWN_GRADIENTS = ("tensorflow.", "keras.", "tf_keras.")


def python_backward(op_type: str) -> bool:
    """Return True when a backward pass through an ``op_type`` op may run the user's code.

    A py_function, a ``tf.function`` call, or an op type whose registered gradient function
    is not TensorFlow's or Keras' own (``tf.RegisterGradient`` in the user's code).
    """
    if op_type in PYTHON_BACKWARD_OPS or is_function_call(op_type):
        return True
    module = tfp.gradient_module(op_type)
    return bool(module) and not module.startswith(_OWN_GRADIENTS)


class BackwardState:
    """What the recorder knows for the fast path: the pass taking it, and when it may not.

    ``current``: the gradient call whose backward ops take the fast path (None: slow path);
    ``python_seq``: the last op whose backward pass may run user code, ``python_ops`` such op
    types; ``attached_seq``: when the op callback attached; ``deferred``: ops taken but not
    yet in ``trace.ops`` (:func:`flush`).
    """

    __slots__ = ("current", "python_seq", "python_ops", "attached_seq", "deferred")

    def __init__(self) -> None:
        self.current: BackwardPass | None = None
        self.python_seq = -1
        self.python_ops: set[str] = set()
        self.attached_seq = 0
        self.deferred = 0

    def note_python(self, seq: int) -> None:
        """Note that a backward pass through event ``seq`` may run user code."""
        self.python_seq = max(self.python_seq, seq)


class BackwardPass:
    """One eager gradient call whose backward ops take the fast path (see the module)."""

    __slots__ = ("thread", "template", "pending", "dtypes", "shapes", "ops_from")

    def __init__(self, thread: int) -> None:  # noqa: D107
        self.thread = thread
        #: (location, API module, API function, layer, call site) of the pass's first op
        self.template: tuple[Any, str | None, str | None, str, Any] | None = None
        #: the ops taken so far, made into records by :func:`flush`: (seq, op type, input
        #: serials, first output serial, output count, no tape recording, in a tf.function)
        self.pending: list[tuple[int, str, tuple[int, ...], int, int, bool, bool]] = []
        #: each pending output's DataType enum and shape, in order
        self.dtypes: list[int] = []
        self.shapes: list[Any] = []
        self.ops_from = -1  # len(trace.ops) when the first pending op was taken

    def takes(self, name: str) -> bool:
        """Return True when the op being reported can be recorded from the template."""
        return (self.template is not None and threading.get_ident() == self.thread
                and name not in VARIABLE_OPS and not is_function_call(name))

    def learn(self, op: OpRecord) -> None:
        """Take the first backward op's (slow-path) record as the template of the others."""
        if self.template is None and op.in_gradient and threading.get_ident() == self.thread:
            self.template = (op.loc, op.api_module, op.api_function, op.layer, op.outer_loc)


def begin(rec: Recorder, tape: TapeRecord, method: str) -> BackwardPass | None:
    """Return the :class:`BackwardPass` of an analysed gradient call, or None (slow path).

    ``tape``'s first recording span must postdate every op that can run user code in a backward
    pass (``BackwardState.python_seq``) and the op callback's attachment.
    """
    if (method != "gradient" or tape.made_before or tape.graph or not tape.spans
            or rec.trace.truncated or not rec.attached or not tfp.executing_eagerly()
            or threading.get_ident() != rec.thread):
        return None
    start = tape.spans[0][0]
    if start <= rec.backward.python_seq or start <= rec.backward.attached_seq:
        return None
    return BackwardPass(rec.thread)


def record(rec: Recorder, name: str, inputs: Any, outputs: Any) -> None:
    """Take one backward op from the template; :func:`flush` makes the slow path's records.

    While the pass runs, only what the next ops need is kept: its input serials and its
    outputs' serials (by ``_id``), dtype enums and shapes. Building the records in one loop
    after the pass, rather than between its kernels, costs a third as much (an eager
    ResNet50 step's 3,167 backward ops, bench/overhead.py).
    """
    state = rec.backward
    bp = state.current
    assert bp is not None and bp.template is not None
    loc, api_module, api_function, layer, outer = bp.template
    ids, eager = rec.ids, tfp.EagerTensor
    serial_of, by_uid = ids.serial_of, ids.by_uid
    in_serials = []
    for index, tensor in enumerate(inputs):
        serial = (by_uid.get(eager_uid(tensor)) if type(tensor) is eager
                  else serial_of(tensor))  # TensorIds.serial_of, inline for an eager tensor
        in_serials.append(serial if serial is not None
                          else rec.new_leaf(tensor, name, index, loc, layer))
    seq = rec.next_seq()
    for tensor in outputs:
        if type(tensor) is not eager:  # not from C: the slow path's record, at once
            register = ids.register
            out_serials = tuple([register(t, (seq, i), None) for i, t in enumerate(outputs)])
            rec.trace.ops.append(OpRecord(
                seq, name, tuple(in_serials), out_serials, loc, api_module, api_function, layer,
                True, rec.function_depth > 0,
                outer_loc=outer if tfp.tape_set_is_empty() else None))
            note_op_type(rec, name, seq)
            return
    if not bp.pending:
        bp.ops_from = len(rec.trace.ops)
    first = ids.reserve(len(outputs))  # the serials register() would have given
    ids.adopt(outputs, first, bp.dtypes)
    shape_of = tfp.shape_tuple
    bp.shapes.extend([shape_of(tensor) for tensor in outputs])
    bp.pending.append((seq, name, tuple(in_serials), first, len(outputs),
                       tfp.tape_set_is_empty(), rec.function_depth > 0))
    state.deferred += 1


def flush(rec: Recorder) -> None:
    """Make the records of the ops :func:`record` took (the slow path's, in seq order).

    Called when the gradient call returns or raises, and before anything reads the trace
    while it runs (a host round-trip). Never raises: a failure is the trace's
    ``recorder_error``, as in the op callback.
    """
    bp = rec.backward.current
    if bp is None or not bp.pending or bp.template is None:
        return
    try:
        loc, api_module, api_function, layer, outer = bp.template
        tensors, dtypes, shapes = rec.trace.tensors, bp.dtypes, bp.shapes
        made: list[OpRecord] = []
        k = 0
        for seq, name, in_serials, first, count, no_tape, in_function in bp.pending:
            for offset in range(count):
                dtype, trainable = enum_info(dtypes[k])
                tensors[first + offset] = TensorRecord(first + offset, dtype, shapes[k],
                                                       trainable, (seq, offset), None)
                k += 1
            made.append(OpRecord(seq, name, in_serials, tuple(range(first, first + count)), loc,
                                 api_module, api_function, layer, True, in_function,
                                 outer_loc=outer if no_tape else None))
            note_op_type(rec, name, seq)
        ops = rec.trace.ops
        between = ops[bp.ops_from:]  # slow-path ops recorded during the pass
        ops[bp.ops_from:] = sorted(between + made, key=_seq) if between else made
    except Exception as error:  # noqa: BLE001 - never break the user's gradient call
        rec.trace.recorder_error = f"{type(error).__name__}: {error} (backward records)"
    finally:
        bp.pending.clear()
        bp.dtypes.clear()
        bp.shapes.clear()
        bp.ops_from = -1
        rec.backward.deferred = 0


def _seq(op: OpRecord) -> int:
    return op.seq


def note_op_type(rec: Recorder, name: str, seq: int, graph: int = 0) -> None:
    """Look a new op type up in the gradient registry; note an op whose backward runs Python."""
    if name not in rec.trace.registry:
        rec.trace.registry[name] = tfp.registry_entry(name)
        if python_backward(name):
            rec.backward.python_ops.add(name)
    if graph or name in rec.backward.python_ops:
        # a backward pass through it may run user code; flush() notes a pass's ops after a
        # later slow-path op may have noted its own, hence the max
        rec.backward.note_python(seq)
