"""The trace of one run: what the tracer saw, as plain data.

TF-free. ``tapemagic.tracing`` fills a :class:`Trace` while a cell runs; ``tapemagic.graph``
reads it. Tensors are named by *serials* (ints in first-seen order), never by ``id()``, which
TensorFlow reuses as soon as a tensor dies. Every ``seq`` number comes from one counter shared
by ops, host round-trips and tape events, so ``a.seq < b.seq`` means "a happened first".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from tapemagic.py_body import PyBody
from tapemagic.switches import Switches
from tapemagic.untracked_facts import StaleStep, Unlossed, Untracked

#: ``Trace.state_writes`` label of a write a Keras optimizer made (a slot or a weight update)
OPTIMIZER_WRITE = "optimizer"


@dataclass(frozen=True, slots=True)
class RawLocation:
    """A user frame: file as compiled, 1-based lines, 0-based columns (None when unknown)."""

    file: str
    line: int
    end_line: int | None
    col: int | None
    end_col: int | None
    function: str


@dataclass(slots=True)
class TensorRecord:
    """What is known of one tensor; ``producer`` is (op seq, output index) or None for a leaf.

    ``leaf`` says where a producer-less tensor came from: ``constant`` (a Python/NumPy value
    converted without an op), ``handle`` (a variable's resource handle) or ``watched``.
    """

    serial: int
    dtype: str
    shape: tuple[int | None, ...] | None
    trainable: bool
    producer: tuple[int, int] | None = None
    leaf: str | None = None


@dataclass(slots=True)
class OpRecord:
    """One eager op, in execution order.

    ``api_module``/``api_function`` name the outermost library frame the user called (e.g.
    ``tensorflow.python.ops.sort_ops`` / ``argsort``), from which the user-facing API is named.
    ``implicit`` marks a ``ReadVariableOp`` that TensorFlow's C fast path ran without telling op
    callbacks (reconstructed from the ``_trainable`` hook). ``graph`` is 0 for an op that ran
    eagerly, else the number of the ``tf.function`` graph it was created in at trace time
    (``Trace.graph_names``); its tensors are symbolic and it ran on every call of that graph.
    """

    seq: int
    op_type: str
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    loc: RawLocation | None
    api_module: str | None = None
    api_function: str | None = None
    layer: str = ""
    in_gradient: bool = False
    in_function: bool = False
    implicit: bool = False
    graph: int = 0
    #: where the user's code called into the function that ran this op, for an op run while
    #: no tape recorded (a loss helper called after the ``with`` block): the call site
    outer_loc: RawLocation | None = None
    #: the user's line that made or applied the Keras layer running this op in Keras' own
    #: code (``x = Discretization(...)(h)``), where ``loc`` is the model's call or ``fit``
    layer_loc: RawLocation | None = None
    #: the op's gradient was zero everywhere at run time: a ReLU with no active unit, a
    #: clip or min/max whose every element sat at the bound (checked for optypes.SATURATING)
    saturated: bool = False
    #: a traced op whose run values a probe asked (tracing/probes.py): ``saturated`` is then
    #: a fact of the run, no longer unknown, so it is no probable cause of a zero
    probed: bool = False
    #: a saturated op's output was all zero too (a fake-quant clamping every element to a
    #: range floor of 0): a weight multiplying it gets zeros (graph/zero_weights.py)
    zero_output: bool = False
    #: the input the weights reach this op through (``tf.maximum(0.0, x)``: 1), set when
    #: the saturation check walks the path (tracing/saturation.on_path); its gradient is asked
    data_input: int = 0
    #: (path input, the all-zero input that zeroed its gradient: a mask, a condition, a
    #: divisor), and its all-zero inputs (None: not asked), on the run's values (zero_factors.py)
    zero_factors: tuple[tuple[int, int], ...] = ()
    zero_values: tuple[int, ...] | None = None
    #: a gradient op traced in a graph: the seq of the forward op whose registered gradient
    #: made it (``ResizeBicubicGrad``: the ``ResizeBicubic``), read from TensorFlow's frame
    grad_of: int | None = None


@dataclass(slots=True)
class HostEvent:
    """A host round-trip: a tensor (or a NumPy value derived from one) handled in Python.

    ``kind`` is ``numpy`` (``.numpy()``, Keras ``eval``), ``scalar`` (``float()``, ``int()``,
    ``__index__``), ``bool`` (a Python branch), ``ufunc`` (NumPy on a tensor) or
    ``numpy_function``. ``sources`` are tensor serials, ``parents`` earlier event ids.
    """

    id: int
    seq: int
    kind: str
    api: str
    sources: tuple[int, ...]
    parents: tuple[int, ...]
    loc: RawLocation | None
    in_function: bool = False


@dataclass(frozen=True, slots=True)
class HostLink:
    """A leaf tensor whose value came from host event ``event`` (``probable``: a scalar match)."""

    leaf: int
    event: int
    probable: bool


@dataclass(slots=True)
class TapeRecord:
    """A ``tf.GradientTape``: flags, when it recorded (op seq spans), what it was told to watch."""

    id: str
    loc: RawLocation | None
    persistent: bool
    watch_accessed_variables: bool
    spans: list[list[int]] = field(default_factory=list)
    watched_tensors: set[int] = field(default_factory=set)
    #: tensor serial -> (seq, where) of its first ``tape.watch``: ops run on it before that
    #: were not recorded (a watch after the forward pass)
    watch_events: dict[int, tuple[int, RawLocation | None]] = field(default_factory=dict)
    watched_handles: set[int] = field(default_factory=set)
    watched_handles_at_exit: set[int] = field(default_factory=set)
    creation_site: tuple[str, int] | None = None
    #: 0 for a tape made eagerly, else the graph (``OpRecord.graph``) it was made in at trace time
    graph: int = 0
    #: the thread it was made on (``Trace.thread_at``): a tape records only its own thread's ops
    thread: int = 0
    #: ``tape.watch(x)`` calls that raised: (where, "ValueError: ...", what was passed)
    failed_watches: list[tuple[RawLocation | None, str, str]] = field(default_factory=list)
    #: made before the run (another cell): what it recorded is not in the trace
    made_before: bool = False

    def recording_at(self, seq: int) -> bool:
        """Return True when the tape was recording at ``seq``."""
        for start, end in self.spans:  # a loop, not any(): asked for each edge of a walk
            if start <= seq and (end < 0 or seq < end):
                return True
        return False


@dataclass(slots=True)
class SourceRecord:
    """One flattened entry of ``sources``: a variable (by handle serial) or a tensor."""

    name: str
    kind: Literal["keras-variable", "variable", "tensor"]
    dtype: str
    shape: tuple[int | None, ...] | None
    trainable: bool
    handle: int | None
    tensor: int | None
    result: Literal["ok", "none", "zero", "error"] = "error"
    #: L2 norm of the gradient TensorFlow returned (None when it returned none or no value)
    norm: float | None = None
    #: a variable whose value was all zeros when the call ran (read only when some source of
    #: the call got an all-zero gradient): a zero scale the next update moves (ReZero's alpha)
    zero_value: bool = False
    #: a ``tf.Variable`` made with ``synchronization=ON_READ`` (a replica-local value):
    #: TensorFlow makes such a variable non-trainable unless ``trainable=True`` is passed
    on_read: bool = False

    @property
    def trainable_dtype(self) -> bool:
        """False for an integer or bool source (no gradient is defined for it)."""
        return not self.dtype.startswith(("int", "uint", "bool", "qint", "quint", "string"))


@dataclass(slots=True)
class GradientCallRecord:
    """One top-level ``gradient``/``jacobian``/``batch_jacobian`` call.

    ``in_function``: the call ran while a ``tf.function`` was traced, so its results were
    symbolic (``none`` is certain, ``ok`` means "a gradient tensor", never "non-zero").
    ``reached`` is False for a call the code never got to: the trace stopped at an error (a
    host round-trip on a symbolic tensor) inside the tape; its target is the loss the rest of
    the function computes, traced on past the error with a stand-in for the host value, or
    when that could not be traced, that error's value. ``stopped_at`` is the host event that
    raised; ``continued`` is True when the rest was traced.
    """

    id: str
    tape: str
    method: Literal["gradient", "jacobian", "batch_jacobian"]
    loc: RawLocation | None
    seq: int
    targets: tuple[int, ...]
    target_label: str
    sources: list[SourceRecord]
    unconnected: Literal["none", "zero"]
    error_type: str | None = None
    error_message: str | None = None
    keras_fit: bool = False
    site: tuple[str, int] | None = None
    calls: int = 1
    in_function: bool = False
    #: the target's value summed (eager calls; None in a traced function): the checked loss
    target_value: float | None = None
    reached: bool = True
    stopped_at: int | None = None
    continued: bool = False
    #: ``id()`` of the error that stopped the trace (its traceback keeps tensors alive)
    stopped_error: int | None = None
    #: later runs of this call site that were not analysed but returned None (or zeros) for a
    #: source this run got a gradient for: (run number, result per source)
    regressions: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    recovered: set[int] = field(default_factory=set)  #: None here, a gradient in a later run
    #: (run, source index): a later run passed a plain tensor there (the code replaced the
    #: variable by a tensor), and in ``remade`` another variable of the same name, new since
    replaced: list[tuple[int, int]] = field(default_factory=list)
    remade: list[tuple[int, int]] = field(default_factory=list)
    #: the threads (``Trace.thread_at`` numbers) its call site ran on: one per replica when a
    #: ``tf.distribute`` strategy ran it, not a retrace
    threads: set[int] = field(default_factory=set)
    #: (source index, intervals) of trainable weights that got a usable gradient yet did not
    #: move between this site's checked runs while other sources did (``tracing/moved.py``)
    unmoved: list[tuple[int, int]] = field(default_factory=list)
    #: how many runs of this site and set of sources the move check counted
    checked_runs: int = 0
    #: the optimizer call that was given other sources of this call but never an unmoved one
    unmoved_apply: RawLocation | None = None
    #: (source index, runs) of trainable weights whose gradient was all zero in every one of
    #: at least two checked runs (``tracing/moved.py``): whatever zeroed it, they do not train
    zeroed: list[tuple[int, int]] = field(default_factory=list)
    #: (source index, intervals, serial of the value given: None if unrecorded) of weights
    #: with usable gradients while all an optimizer was given was zero (a clip norm of 0),
    #: and the optimizer call (``tracing/moved.py``)
    emptied: list[tuple[int, int, int | None]] = field(default_factory=list)
    emptied_apply: RawLocation | None = None


@dataclass
class Trace:
    """Everything one traced run produced; no TensorFlow object is needed to read it."""

    tensors: dict[int, TensorRecord] = field(default_factory=dict)
    ops: list[OpRecord] = field(default_factory=list)
    host_events: list[HostEvent] = field(default_factory=list)
    host_links: dict[int, HostLink] = field(default_factory=dict)
    tapes: list[TapeRecord] = field(default_factory=list)
    gradient_calls: list[GradientCallRecord] = field(default_factory=list)
    #: assign ops: op seq -> (handle serial, value serial, user-facing API)
    state_writes: dict[int, tuple[int, int | None, str]] = field(default_factory=dict)
    #: handle serial -> display name (Keras path, else tf.Variable name without ``:0``)
    handle_names: dict[int, str] = field(default_factory=dict)
    #: handle serial -> a Keras variable's own ``trainable`` flag at the analysed gradient calls
    #: (a frozen layer sets it False while its tf.Variable still reads True); Keras only
    handle_trainable: dict[int, bool] = field(default_factory=dict)
    #: op seq of a ``tf.custom_gradient`` output -> (function name, its gradient function's def)
    custom_gradients: dict[int, tuple[str, RawLocation]] = field(default_factory=dict)
    #: handle serial -> seq of its last ``assign*`` call (also while per-op recording is detached)
    variable_writes: dict[int, int] = field(default_factory=dict)
    #: handle serial -> where the variable was created (its VarHandleOp ran during the run)
    handle_created: dict[int, RawLocation] = field(default_factory=dict)
    #: op type -> "fn" | "none" (NotDifferentiable) | "missing" (LookupError), from the registry
    registry: dict[str, str] = field(default_factory=dict)
    #: op seq -> {input position: input name} that the op's registered gradient gave None,
    #: asked of TensorFlow's registry for ops on the path of a source that got None
    none_inputs: dict[int, dict[int, str]] = field(default_factory=dict)
    #: op seq -> {input position: input name} that the op's registered gradient gives zeros
    #: on any values (``QuantizeAndDequantizeV4``'s range), asked for ops on the path of a
    #: source whose gradient was zero in every checked run (tracing/zero_witness.py)
    zero_inputs: dict[int, dict[int, str]] = field(default_factory=dict)
    #: op seq -> (gradient call id, "ErrorType: message") of an op whose registered gradient
    #: function raised inside that call's backward pass (``_QrGrad``: NotImplementedError)
    raising_gradients: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: ``tf.custom_gradient`` functions TensorFlow refused as the forward pass called them (a
    #: gradient function without ``variables=`` for a function that reads variables): (its
    #: gradient function's definition, the function's name, the handles it read, the error)
    custom_gradient_errors: list[tuple[RawLocation, str, tuple[int, ...], str]] = field(
        default_factory=list)
    #: seqs of ``Sub`` ops whose two terms are the same value by construction (cancel.py)
    self_cancelling: set[int] = field(default_factory=set)
    #: serials of all-zero float constants of a traced graph (a Python 0.0 frozen into it)
    zero_constants: set[int] = field(default_factory=set)
    scalar_constants: dict[int, float] = field(default_factory=dict)  #: traced scalar Consts
    #: traced steps whose sources went stale when a layer was unfrozen (graph mode)
    stale_steps: list[StaleStep] = field(default_factory=list)
    #: trainable variables the trained model reads that Keras does not track or froze for good
    untracked: list[Untracked] = field(default_factory=list)
    unlossed: list[Unlossed] = field(default_factory=list)  #: outputs `compile` gave no loss
    #: each Keras ``compile`` call: (the seq of the last op recorded before it, its place)
    compiles: list[tuple[int, RawLocation | None]] = field(default_factory=list)
    switches: Switches = field(default_factory=Switches)  #: stop_recording blocks, freezes
    function_calls: int = 0
    forced_eager: bool = True
    #: ``tape.watch`` calls that raised on a NumPy argument of a tf.function run eagerly by
    #: ``--eager`` (graph mode converts it to a tensor): the forced-eager door's, not a cut
    eager_array_watches: list[RawLocation | None] = field(default_factory=list)
    #: ``id()`` of exceptions that left a tf.function given NumPy arguments under ``--eager``
    eager_array_errors: set[int] = field(default_factory=set)
    fit_resumed_graph: bool = False
    #: graph number -> FuncGraph name, for the functions analysed from their traces
    graph_names: dict[int, str] = field(default_factory=dict)
    #: graph numbers of traced loop bodies (``While`` ops joined to their body): a cut inside
    #: one gets zeros from TensorFlow, not None (while_v2 fills missing gradients with zeros)
    loop_bodies: set[int] = field(default_factory=set)
    #: serials of loop bodies' inputs that the body returns unchanged (a cell that returns its
    #: incoming state): every iteration sees the loop's initial value there
    loop_unchanged: set[int] = field(default_factory=set)
    #: op seq of a ``tf.py_function`` (``EagerPyFunc``) traced into a graph -> (its token, its
    #: body function as ``file:line:name``), and token -> what its body did when the graph ran
    py_function_ops: dict[int, tuple[str, str]] = field(default_factory=dict)
    py_bodies: dict[str, PyBody] = field(default_factory=dict)
    #: host event id -> the position of the py_function body's argument it converted (a body
    #: run eagerly or by a graph; absent for a value the body derived)
    body_arguments: dict[int, int] = field(default_factory=dict)
    #: calls of functions traced before the run began (their ops were never seen)
    opaque_calls: int = 0
    graph_events: int = 0
    truncated: bool = False
    #: an error of tapemagic's own recorder (recording stopped there; the user's op went on)
    recorder_error: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    #: user-facing API labels resolved for (module, function) pairs seen on ops
    api_labels: dict[tuple[str, str], str] = field(default_factory=dict)
    #: seq -> number (1, 2, ...) of the thread TensorFlow started to run the user's code on (a
    #: ``tf.distribute`` replica thread), for every event that did not happen on the thread
    #: that entered the run (number 0, not stored)
    seq_threads: dict[int, int] = field(default_factory=dict)
    #: the numbers of threads the user's code started (a thread pool), whose ops ran while a
    #: tape of the entering thread was open (tracing/foreign.py): no tape recorded them
    foreign_threads: set[int] = field(default_factory=set)

    def recorded_by(self, tape: TapeRecord, seq: int) -> bool:
        """Return True when ``tape`` recorded the op (or event) numbered ``seq``.

        An op of another graph than the tape's (a tf.function body traced once, run on each
        call) is recorded whenever its call is: the call's own link ops carry the call's
        ``seq``, so the span is checked there, not on the trace-time ``seq``. An eager op is
        never recorded by a tape inside a traced graph (it ran before the graph existed: a
        kernel computed in ``build()``, captured by value).
        """
        if self.seq_threads.get(seq, 0) != tape.thread:
            # the tape stack is thread-local (tensorflow/c/eager/tape.h, GetTapeSet): a tape
            # opened around `strategy.run` never sees its replica threads' ops
            return False
        op = self._ops_by_seq().get(seq)
        if op is not None and op.graph != tape.graph:
            return op.graph != 0
        return tape.recording_at(seq)

    def span_test(self, tape: TapeRecord | None) -> Callable[[int], bool]:
        """Return ``seq -> recorded_by(tape, seq)`` (True for every seq without a tape).

        Memoised per seq: the walks of one gradient call ask it for each edge, and an op's
        edges share their op's seq.
        """
        if tape is None:
            return lambda seq: True
        memo: dict[int, bool] = {}

        def recorded(seq: int) -> bool:
            found = memo.get(seq)
            if found is None:
                found = memo[seq] = self.recorded_by(tape, seq)
            return found

        return recorded

    def thread_at(self, seq: int) -> int:
        """Return the number of the thread event ``seq`` happened on (0: the entering one)."""
        return self.seq_threads.get(seq, 0)

    def op_at(self, seq: int) -> OpRecord | None:
        """Return the op recorded with ``seq``, if any."""
        return self._ops_by_seq().get(seq)

    def producer_of(self, serial: int) -> OpRecord | None:
        """Return the recorded op that made tensor ``serial`` (None for a leaf or unknown)."""
        record = self.tensors.get(serial)
        return self.op_at(record.producer[0]) if record is not None and record.producer else None

    def _ops_by_seq(self) -> dict[int, OpRecord]:
        cache = self.__dict__.get("_by_seq")
        if cache is None or len(cache) != len(self.ops):
            cache = {op.seq: op for op in self.ops}
            self.__dict__["_by_seq"] = cache
        return cache
