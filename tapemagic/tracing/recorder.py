"""The recorder: tensor serials, the op callback, implicit variable reads, host-value links.

Imports TensorFlow (through ``_tf_private``). One :class:`Recorder` lives for one traced run;
the patches in ``hooks`` and ``tapes`` report to it. Its state has owners: the tensor serials
are the table ``ids`` (``_tf_private.ids``: it keeps no tensor alive past the run), the
backward fast path's facts ``backward`` (``backward.BackwardState``), a Keras initialiser's
``initialising`` (``initializers.Initialising``), graph mode's ``graphs`` (``GraphTracer``).
Other modules read its counters and flags; they change them through its methods, and do their
own work inside ``with rec.quiet():`` (ops and hooks record nothing meanwhile). Only variable
handles, gradient targets and sources and small host values are held strongly, and all of them
are dropped by :meth:`finish`.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import numpy as np

from tapemagic import frames
from tapemagic.optypes import CREATE_OPS, CUSTOM_GRADIENT_MODULE, READ_OPS, WRITE_OPS
from tapemagic.trace import OpRecord, RawLocation, Trace
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import foreign, naming, replicas, witness
from tapemagic.tracing._tf_private.ids import TensorIds, eager_uid, handle_of
from tapemagic.tracing.backward import BackwardState, note_op_type
from tapemagic.tracing.backward import flush as flush_backward
from tapemagic.tracing.backward import record as record_backward
from tapemagic.tracing.declared import integer_declared
from tapemagic.tracing.forward_ops import forward_of
from tapemagic.tracing.graphs import GraphTracer
from tapemagic.tracing.host_values import HostRoundTrips
from tapemagic.tracing.initializers import Initialising, own_op, owner_known
from tapemagic.tracing.layer_sites import Placer
from tapemagic.tracing.saturation import askable, keep
from tapemagic.tracing.values import (
    ScopeMemo,
    SiteMemo,
    custom_gradient_of,
    dtype_info,
    host_value,
    same_value,
)

_EAGER = tfp.EagerTensor
#: Stop recording ops past this many (a long training loop): the first steps are enough.
MAX_OPS = 400_000
#: op type as TensorFlow reports it (bytes from an eager op) -> its name (a few hundred types)
_OP_NAMES: dict[Any, str] = {}


def _op_name(op_type: Any) -> str:
    name = op_type.decode() if isinstance(op_type, bytes) else str(op_type)
    if len(_OP_NAMES) < 4096:
        _OP_NAMES[op_type] = name
    return name


class Recorder(HostRoundTrips):
    """Collect one run's ops, tensors, host round-trips and tapes into a :class:`Trace`."""

    def __init__(self) -> None:
        self.trace = Trace()
        self.seq = 0
        self.busy = False  # re-entrancy guard: our own work never records itself
        self.gradient_depth = 0
        self.function_depth = 0
        self.function_arrays: list[int] = []  # ids of NumPy arguments of running tf.functions
        self.saturated_depth = 0  # >0 while inside a tape whose call site was analysed already
        self.ids = TensorIds(self.trace.tensors)  # tensor -> serial (and its TensorRecord)
        self.handle_objects: dict[int, Any] = {}  # handle serial -> handle tensor (strong)
        self._handle_serial_by_id: dict[int, int] = {}
        self.pending_reads: list[Any] = []  # variables whose `_trainable` the C fast path read
        self.variables_seen: dict[int, Any] = {}  # id -> variable, for naming handles
        self.host_values: list[tuple[int, np.ndarray]] = []  # (event id, value), oldest first
        self._host_bytes = 0
        self.api_frames: dict[tuple[str, str], Any] = {}
        self.graphs = GraphTracer(self)  # graph mode (``graphs.enabled``: trace-time ops)
        # Keras layers and optimizers whose name scope an op ran in: their variables name the
        # handles at the end (instead of a scan of the whole heap)
        self.scope = ScopeMemo()
        self.scope_callers = self.scope.callers
        # The thread that runs the traced code: class-level patches (tensor dunders, tapes,
        # `_trainable`) also run in other threads, which must never reach this recorder
        # unless TensorFlow runs the traced code on them (``replicas``, :meth:`mine`).
        self.thread = threading.get_ident()
        self.attached = False  # the op callback is registered (see attach / detach)
        self.callback = self.on_op  # the one object registered (replica threads inherit it)
        self._threads: dict[int, int] = {}  # other threads' idents -> numbers (see thread_number)
        # threads the user's code started, their ops kept for this thread, open tapes (foreign.py)
        self.foreign_threads: dict[int, int] = {}
        self.foreign_events: list[Any] = []
        self.open_tapes: set[int] = set()
        self.site = SiteMemo()  # where the last op ran (consecutive ops share it)
        self.placer = Placer()  # a Keras layer's own ops: the line that made or applied it
        self.backward = BackwardState()  # the backward fast path (backward.py)
        self.initialising = Initialising()  # a Keras variable being initialised (initializers.py)
        # the op callback's attrs, per op seq: a gradient that comes back None is asked of the
        # op's registered gradient at the end, built again from them (witness.py)
        self.attrs: Any = None
        self.op_attrs: dict[int, Any] = {}
        #: eager ops recorded under a tape, with their tensors (saturation.resolve)
        self.value_ops: list[tuple[OpRecord, tuple[Any, ...], tuple[Any, ...]]] = []
        self._quiet = _Quiet(self)

    def quiet(self) -> _Quiet:
        """Return the context in which the recorder's own work records nothing (``busy``).

        Not for a per-op path (the op callback sets the flag itself): a ``with`` costs more.
        """
        return self._quiet

    # -- attach / detach ------------------------------------------------------------------------
    def attach(self) -> None:
        """Register the op callback on this thread (ops are recorded from now on)."""
        if not self.attached:
            tfp.add_op_callback(self.callback)
            self.attached = True
            self.backward.attached_seq = self.seq

    def detach(self) -> None:
        """Unregister the op callback: ops run as without tapemagic (no Python call per op)."""
        if self.attached:
            tfp.remove_op_callback(self.callback)
            self.attached = False
            self.pending_reads.clear()

    def mine(self) -> bool:
        """Return True when the calling thread runs the traced code (see ``replicas``)."""
        return threading.get_ident() == self.thread or (
            replicas.has_op_callback(self.callback) if self.attached
            else replicas.waited_on_by(self.thread))

    def recording(self) -> bool:
        """Return True when a hook on the calling thread should record (attached, not busy)."""
        return self.attached and not self.busy and (
            threading.get_ident() == self.thread or replicas.has_op_callback(self.callback))

    # -- sequence and tensors ---------------------------------------------------------------
    def next_seq(self) -> int:
        """Return the next event number (ops, host events and tape events share it)."""
        self.seq += 1
        if threading.get_ident() != self.thread:
            self.trace.seq_threads[self.seq] = self.thread_number()
        return self.seq

    def next_seq_of_entering_thread(self) -> int:
        """Return the next event number, counted as the entering thread's (which waits for it).

        For an event on a thread TensorFlow runs a graph's py_function body on, while the
        entering thread waits for that graph (``py_bodies``).
        """
        self.seq += 1
        return self.seq

    def thread_number(self) -> int:
        """Return 0 on the entering thread, else the replica's number (``replicas.number``)."""
        return replicas.number(self.thread, self._threads)

    def handle_serial(self, handle: Any, find_owner: bool = False) -> int:
        """Return the serial of a variable's resource handle, registering it once.

        ``find_owner``: the caller has only the handle (an op input): look for its variable on
        the stack, once, to name it at the end. A handle captured by a tf.function has the
        outer handle's serial.
        """
        serial = self._handle_serial_by_id.get(id(handle))
        if serial is None:
            external = self.graphs.external_of(handle)
            if external is not None:
                self.graphs.aliases.append(handle)  # pinned: its id stays this handle's
                serial = self._handle_serial_by_id[id(handle)] = self.handle_serial(external)
                return serial
            serial = self.ids.register(handle, None, "handle", strong=True)
            self.handle_objects[serial] = handle
            self._handle_serial_by_id[id(handle)] = serial
            if find_owner:
                naming.find_owner(handle, self.variables_seen, sys._getframe(1))
        return serial

    def known_handle(self, handle: Any) -> int | None:
        """Return the serial of a variable handle the run has seen, else None (never registers)."""
        return self._handle_serial_by_id.get(id(handle))

    def note_trainable(self) -> None:
        """Remember which Keras variables are frozen now (at an analysed gradient call)."""
        naming.note_trainable(self._handle_serial_by_id, self.variables_seen,
                              self.scope_callers, self.trace.handle_trainable)

    # -- the op callback ----------------------------------------------------------------------
    def on_op(
        self,
        op_type: Any,
        inputs: Any,
        attrs: Any,
        outputs: Any,
        op_name: Any = None,
        graph: Any = None,
    ) -> None:
        """Record one op (``op_callbacks`` signature); graph mode: see ``tracing/graphs.py``."""
        if self.busy:
            return None
        graphs, backward = self.graphs, self.backward
        if graph is not None:
            self.trace.graph_events += 1
            if not graphs.enabled or not tfp.is_traced_graph(graph):
                return None
        if (self.saturated_depth or len(self.trace.ops) + backward.deferred >= MAX_OPS
                or self.trace.recorder_error):
            self.trace.truncated = (self.trace.truncated
                                    or len(self.trace.ops) + backward.deferred >= MAX_OPS)
            self.pending_reads.clear()
            return None
        name = _OP_NAMES.get(op_type) or _op_name(op_type)
        if graph is None and self.initialising.depth and own_op(self, name, inputs):
            return None  # an initialiser's own op, on nothing recorded (initializers.py)
        self.busy = True  # not `with self.quiet()`: once per op
        self.attrs = attrs
        try:
            if self.foreign_events:
                foreign.drain(self)  # what other threads ran meanwhile comes first
            if graph is not None:
                graphs.record(name, tuple(inputs or ()), tuple(outputs or ()), graph)
            elif backward.current is not None and backward.current.takes(name):
                record_backward(self, name, inputs or (), outputs or ())
            elif not graphs.enabled or not graphs.eager_call(
                    name, inputs or (), outputs or ()):
                self.record_op(name, inputs or (), outputs or ())
        except Exception as error:  # noqa: BLE001 - never break the user's op for our bookkeeping
            self.trace.recorder_error = f"{type(error).__name__}: {error} (op {name})"
        finally:
            self.busy = self.attrs = False
            self.pending_reads.clear()
        return None

    def record_op(self, name: str, inputs: Any, outputs: Any, graph: Any = None,
                  placed: Any = None) -> None:
        """Record one op run (eagerly) or created (in ``graph``, at trace time).

        ``placed``: ``(location, API key, API globals)`` of an op another thread ran (foreign.py).
        """
        if placed is None:
            user, api, loc = self.site.locate(sys._getframe(1))
            api_key = None
            if api is not None:
                api_key = frames.api_key(api)
                self.api_frames.setdefault(api_key, api.f_globals)
            layer = self.scope.layer()
        else:
            (loc, api_key, api_globals), user, layer = placed, None, ""
            if api_key is not None:
                self.api_frames.setdefault(api_key, api_globals)
        number = self.graphs.graph_id(graph) if graph is not None else 0
        in_serials = []
        serial_of, by_uid = self.ids.serial_of, self.ids.by_uid
        for index, tensor in enumerate(inputs):
            serial = (by_uid.get(eager_uid(tensor)) if type(tensor) is _EAGER
                      else serial_of(tensor))  # serial_of, inline for an eager tensor
            if serial is None:
                serial = (self.graphs.leaf(tensor, number, layer, loc) if number
                          else self.new_leaf(tensor, name, index, loc, layer))
            in_serials.append(serial)
        seq = self.next_seq()
        if name in READ_OPS or name in WRITE_OPS:
            # the handle is long-lived: make sure it is held and indexed as a handle
            if inputs:
                in_serials[0] = self.handle_serial(inputs[0], find_owner=True)
        if name in CREATE_OPS and outputs:
            # the handle of the Keras variable being initialised: the initialiser hook names
            # its owners, no walk of the stack (initializers.py)
            own = placed is None and owner_known(self, user)
            out_serials: tuple[int, ...] = (self.handle_serial(outputs[0], find_owner=not own),)
            if loc is not None:
                self.trace.handle_created[out_serials[0]] = loc
        else:
            register = self.ids.register
            out_serials = tuple([register(t, (seq, i), None) for i, t in enumerate(outputs)])
        op = OpRecord(
            seq, name, tuple(in_serials), out_serials, loc,
            api_key[0] if api_key else None, api_key[1] if api_key else None, layer,
            self.gradient_depth > 0, self.function_depth > 0 or number > 0, graph=number,
        )
        if op.in_gradient and number:
            op.grad_of = forward_of(self.ids, self.trace, sys._getframe(1))
        if user is not None and tfp.tape_set_is_empty():
            op.outer_loc = self.site.call_site(user, loc)
        if layer and not op.in_gradient and name not in CREATE_OPS and name not in WRITE_OPS:
            op.layer_loc = self.placer.place(sys._getframe(1), user)
            if name == "Cast" and outputs:  # cast to an integer dtype declared elsewhere?
                op.layer_loc = integer_declared(sys._getframe(1), user, outputs[0]) or op.layer_loc
        if api_key is not None and api_key[0] == CUSTOM_GRADIENT_MODULE and not op.in_gradient:
            self.backward.python_seq = seq
            found = custom_gradient_of(sys._getframe(1))
            if found is not None:
                self.trace.custom_gradients[seq] = found
        if (not number and not op.in_gradient and outputs and askable(name)
                and not tfp.tape_set_is_empty()):
            keep(self, op, inputs, outputs)  # asked if a gradient comes back zero (saturation.py)
        self.trace.ops.append(op)
        if self.attrs:
            self.op_attrs[seq] = self.attrs
        note_op_type(self, name, seq, number)
        if self.backward.current is not None and placed is None:
            self.backward.current.learn(op)
        if name in WRITE_OPS:
            value = in_serials[1] if len(in_serials) > 1 else None
            self.trace.state_writes[seq] = (in_serials[0], value, self.scope.write_label(layer))

    def new_leaf(
        self, tensor: Any, consumer: str, index: int, loc: RawLocation | None, layer: str
    ) -> int:
        """Return the serial of an op input seen for the first time (a variable read, a leaf)."""
        dtype = getattr(tensor, "dtype", None)
        if dtype is not None and dtype_info(dtype)[0] == "resource":
            return self.handle_serial(tensor, find_owner=True)
        variable = self._match_pending(tensor)
        if variable is not None:
            # TensorFlow's C fast path read this variable with no op callback
            # (pywrap_tfe_src.cc ReadVariableOp: "TODO: Should we run post exec callbacks here?")
            handle = self.handle_serial(handle_of(variable))
            seq = self.next_seq()
            serial = self.ids.register(tensor, (seq, 0), None)
            self.trace.ops.append(
                OpRecord(seq, "ReadVariableOp", (handle,), (serial,), loc, layer=layer,
                         in_gradient=self.gradient_depth > 0,
                         in_function=self.function_depth > 0, implicit=True)
            )
            self.trace.registry.setdefault("ReadVariableOp", "fn")
            return serial
        serial = self.ids.register(tensor, None, "constant")
        if self.host_values:
            self._link_host_value(tensor, serial)
        return serial

    def _match_pending(self, tensor: Any) -> Any:
        if not self.pending_reads:
            return None
        shape = getattr(tensor, "shape", None)
        candidates = [
            v for v in self.pending_reads
            if v.dtype.base_dtype == tensor.dtype and v.shape == shape
        ]
        if not candidates:
            return None
        if len(candidates) > 1:
            value = host_value(tensor)
            exact = [v for v in candidates if same_value(host_value(v), value)]
            candidates = exact or candidates
        chosen = candidates[0]
        # by identity: list.remove compares with ==, which on variables is an elementwise TF op
        # (it raised InvalidArgumentError for variables of different dtypes)
        for index, pending in enumerate(self.pending_reads):
            if pending is chosen:
                del self.pending_reads[index]
                break
        return chosen

    # -- end of run -------------------------------------------------------------------------------
    def finish(self) -> Trace:
        """Resolve names, drop every tensor reference, and return the trace."""
        if self.foreign_events:
            with self.quiet():
                foreign.drain(self)
        flush_backward(self)
        witness.note(self)
        self.trace.handle_names = naming.name_handles(self.handle_objects, self.variables_seen,
                                                      self.scope_callers)
        self.trace.api_labels = {k: naming.api_label(k, g) for k, g in self.api_frames.items()}
        self.ids.clear()
        for held in (self.handle_objects, self._handle_serial_by_id, self.variables_seen,
                     self.pending_reads, self.host_values, self.api_frames, self.graphs,
                     self.op_attrs, self.value_ops):
            held.clear()
        self.scope.clear()  # and scope_callers, its `callers`
        self.placer.clear()
        self.placer.clear()
        self.site = SiteMemo()
        return self.trace


class _Quiet:
    """``with rec.quiet():`` -- the recorder is busy inside, as it was before after."""

    __slots__ = ("rec", "was")

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.was: list[bool] = []  # a stack: quiet blocks nest

    def __enter__(self) -> None:
        self.was.append(self.rec.busy)
        self.rec.busy = True

    def __exit__(self, *exc: object) -> None:
        self.rec.busy = self.was.pop()
