"""Graph mode: ops of tf.function graphs recorded at trace time, and each call tied to them.

Imports TensorFlow (through ``_tf_private``). While a ``tf.function`` (or Keras ``fit``'s train
function) is traced, op callbacks get every op created in its FuncGraph with symbolic tensors;
the :class:`~tapemagic.tracing.recorder.Recorder` records them once, numbering each graph. This
module resolves what a graph tensor stands for: a captured variable handle is the outer handle
(same serial, same name), another capture is joined to the outer tensor, a nested function's
call op is joined to the inner graph, and each later call of a traced function (eagerly, or in
an outer graph) links its arguments and results to the graph's inputs and outputs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tapemagic import frames
from tapemagic.optypes import is_function_call
from tapemagic.trace import HostEvent, OpRecord, SourceRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import constants, keras_state, py_bodies, zero_factors
from tapemagic.tracing.probes import Probes
from tapemagic.tracing.results import classify
from tapemagic.tracing.saturation import askable
from tapemagic.tracing.weight_values import note_zero_values

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder


#: Ops that call a nested tf.function in a graph (not reported to op callbacks)
_CALL_OPS = frozenset({"PartitionedCall", "StatefulPartitionedCall"})

#: Ops that run one of two traced branch functions (tf.cond, autograph's `if` on a tensor).
COND_OPS = frozenset({"If", "StatelessIf"})
#: Ops that run a traced loop body (tf.while_loop, tf.scan, autograph's `while`/`for` on a
#: tensor): their inputs are the body's inputs and the body's outputs are theirs.
WHILE_OPS = frozenset({"While", "StatelessWhile"})


class GraphTracer:
    """The FuncGraphs one :class:`Recorder` saw, and how their tensors map to the run's."""

    def __init__(self, recorder: Recorder) -> None:
        self.rec = recorder
        self.enabled = False  # graph mode: record the trace-time ops of tf.function graphs
        self.probes = Probes(recorder)  # in-graph facts of traced gradients (probes.py)
        self._graph_ids: dict[int, int] = {}  # id(FuncGraph) -> graph number
        self._graphs: list[Any] = []  # the FuncGraphs numbered (strong: ids stay unique)
        self._captures: dict[int, tuple[int, dict[int, Any]]] = {}  # graph number -> captures
        #: trace-time gradients (symbolic, result "ok") whose value the first run may show
        self.pending: list[tuple[Any, SourceRecord]] = []
        #: the variable sources of traced gradient calls, until the first run shows their values
        self.pending_variables: list[tuple[Any, SourceRecord]] = []
        self.after_values: Callable[[], None] | None = None  # pending resolved: may detach
        self.aliases: list[Any] = []  # capture placeholders mapped to outer handles (pinned)
        #: errors raised by host round-trips on symbolic tensors, with their host event
        self.failed_events: list[tuple[BaseException, HostEvent]] = []
        #: host event id -> serial of the loss traced on past its failed round-trip
        self.continued: dict[int, int] = {}

    def clear(self) -> None:
        """Drop every graph reference (end of the run)."""
        self.pending.clear()
        self.pending_variables.clear()
        self.probes.clear()
        self.aliases.clear()
        self.failed_events.clear()
        self.continued.clear()
        self._graph_ids.clear()
        self._graphs.clear()
        self._captures.clear()

    def graph_id(self, graph: Any) -> int:
        """Return the number of a FuncGraph (1, 2, ... in first-seen order)."""
        number = self._graph_ids.get(id(graph))
        if number is None:
            number = len(self._graphs) + 1
            self._graphs.append(graph)
            self._graph_ids[id(graph)] = number
            self.rec.trace.graph_names[number] = str(getattr(graph, "name", type(graph).__name__))
        return number

    def current_graph(self) -> int:
        """Return 0 when running eagerly, else the number of the graph being traced."""
        if tfp.executing_eagerly():
            return 0
        graph = tfp.get_default_graph()
        return self.graph_id(graph) if tfp.is_traced_graph(graph) else 0

    def external_of(self, tensor: Any) -> Any:
        """Return what a capture placeholder stands for (outer tensor or handle), or None."""
        graph = getattr(tensor, "graph", None) if not isinstance(
            tensor, tfp.EagerTensorBase) else None
        if graph is None or id(graph) not in self._graph_ids:
            return None
        number = self._graph_ids[id(graph)]
        size, table = self._captures.get(number, (-1, {}))
        found = table.get(id(tensor))
        if found is None:
            pairs = tfp.graph_captures(graph)
            if len(pairs) != size:  # captures only grow while a graph is traced
                table = {id(internal): external for external, internal in pairs}
                self._captures[number] = (len(pairs), table)
                found = table.get(id(tensor))
        return found

    def leaf(self, tensor: Any, number: int, layer: str, loc: Any = None) -> int:
        """Give a serial to a graph tensor no recorded op produced.

        A resource is a variable handle (a capture resolves to the outer handle). Another
        capture is joined to the outer tensor it stands for by an ``Identity`` op; anything
        else is a function input or a tensor of an op TensorFlow did not report.
        """
        if tfp.dtype_name(getattr(tensor, "dtype", None)) == "resource":
            return self.rec.handle_serial(tensor)
        op = getattr(tensor, "op", None)
        if op is not None and op.type in _CALL_OPS:
            # a nested tf.function: its call op is not reported to op callbacks
            function = tfp.nested_function(op)
            if function is not None:
                self.link_call(function, tuple(op.inputs), tuple(op.outputs), number)
                serial = self.rec.ids.serial_of(tensor)
                if serial is not None:
                    return serial
        external = self.external_of(tensor)
        if external is None:
            return self.rec.ids.register(tensor, None, "placeholder")
        outer = self.rec.ids.serial_of(external)
        if outer is None and not isinstance(external, tfp.EagerTensorBase) and not (
                tfp.is_traced_graph(getattr(external, "graph", None))):
            # a tensor of a plain tf.Graph (a SavedModel export wraps functions in one)
            return self.rec.ids.register(tensor, None, "placeholder")
        if outer is None:
            outer_graph = 0 if isinstance(external, tfp.EagerTensorBase) else self.graph_id(
                external.graph)
            outer = (self.leaf(external, outer_graph, layer, loc) if outer_graph
                     else self.rec.ids.register(external, None, "constant"))
        return self.identity(outer, tensor, loc, layer, number)  # at the consumer's line

    def mark(self) -> int:
        """Return how many ops the graph being traced has (a tape begins recording in it)."""
        graph = tfp.get_default_graph()
        return len(graph.get_operations()) if tfp.is_traced_graph(graph) else -1

    def link_unconsumed(self, start: int | None) -> None:
        """Tie results of nested tf.function calls made since op ``start`` to their calls.

        Called as a tape in a traced graph stops recording: a call op is not reported to op
        callbacks, only its consumers are (``leaf``), and a result nothing consumed yet can be
        the gradient target (``loss = inner(x)``); linked later, its link ops would lie
        outside the tape's span.
        """
        graph = tfp.get_default_graph()
        if start is None or start < 0 or id(graph) not in self._graph_ids:
            return
        number, layer = self.graph_id(graph), keras_state.keras_layer_path()
        with self.rec.quiet():
            try:
                for op in graph.get_operations()[start:]:
                    if op.type in _CALL_OPS:
                        for tensor in op.outputs:
                            if self.rec.ids.serial_of(tensor) is None:
                                self.leaf(tensor, number, layer)
            except Exception as error:  # noqa: BLE001 - never break the user's tape
                self.rec.trace.recorder_error = f"{type(error).__name__}: {error} (nested call)"

    def identity(self, src: int, dst: Any, loc: Any, layer: str, graph: int) -> int:
        """Record an ``Identity`` op from serial ``src`` to ``dst`` (a serial or a new tensor)."""
        seq = self.rec.next_seq()
        serial = dst if isinstance(dst, int) else self.rec.ids.register(dst, (seq, 0), None)
        self.rec.trace.ops.append(OpRecord(seq, "Identity", (src,), (serial,), loc, layer=layer,
                                           in_function=graph > 0, graph=graph))
        self.rec.trace.registry.setdefault("Identity", "fn")
        return serial

    def record(self, name: str, inputs: tuple[Any, ...], outputs: tuple[Any, ...],
               graph: Any) -> None:
        """Record an op created in a traced graph (the recorder's callback, at trace time).

        A placeholder (a function input or capture) is resolved when an op consumes it; an
        ``If`` op is replaced by links to its branches when both were traced.
        """
        if name == "Placeholder":
            return
        if name == "Const" and outputs:
            external = tfp.const_capture_source(sys._getframe(1))
            outer = self.rec.ids.serial_of(external) if external is not None else None
            if outer is not None:  # a recorded eager tensor captured by value
                user, _ = frames.user_frame(sys._getframe(1))
                loc = frames.location_of(user) if user is not None else None
                self.identity(outer, outputs[0], loc, keras_state.keras_layer_path(),
                               self.graph_id(graph))
                return
        if name in COND_OPS:
            user, _ = frames.user_frame(sys._getframe(1))
            loc = frames.location_of(user) if user is not None else None
            if self.link_cond(inputs, outputs, self.graph_id(graph), keras_state.keras_layer_path(),
                              loc):
                return
        if name in WHILE_OPS and not self.rec.gradient_depth:
            user, _ = frames.user_frame(sys._getframe(1))
            loc = frames.location_of(user) if user is not None else None
            if self.link_while(inputs, outputs, self.graph_id(graph),
                               keras_state.keras_layer_path(), loc):
                return
        self.rec.record_op(name, inputs, outputs, graph)
        if outputs and askable(name) and not self.rec.gradient_depth:
            self.probes.note(self.rec.trace.ops[-1], name, inputs, outputs, graph)
        if name in py_bodies.PY_FUNCTION_OPS and outputs and not self.rec.gradient_depth:
            py_bodies.note_op(self.rec, outputs[0].op, self.rec.trace.ops[-1].seq)
        if name == "Const" and outputs:
            constants.note(self.rec.trace, self.rec.ids.serial_of(outputs[0]), outputs[0])

    def eager_call(self, name: str, inputs: Any, outputs: Any) -> bool:
        """Tie an eager op that calls a traced function to its trace; False if it is not one.

        A backward function's call (inside ``gradient``) adds nothing to the forward graph: it
        is recorded as an ordinary (pass-through) op.
        """
        if not is_function_call(name):
            return False
        self.rec.trace.function_calls += 1
        self.rec.backward.note_python(self.rec.seq)  # its backward function may be traced
        function = None if self.rec.gradient_depth else tfp.calling_function(sys._getframe(2))
        if function is None:
            return False
        self.link_call(function, tuple(inputs), tuple(outputs), 0)
        # the step's own facts of the gradients it applied itself, after its first run
        if self.probes.read() and not self.pending and self.after_values is not None:
            self.after_values()
        return True

    def link_cond(self, inputs: tuple[Any, ...], outputs: tuple[Any, ...], number: int,
                  layer: str, loc: Any) -> bool:
        """Join an ``If`` op (autograph's ``if`` on a tensor, ``tf.cond``) to its branches.

        Input 0 is the condition; the others flow into both branch graphs' inputs, and each
        branch's outputs into the op's. The op itself is then not recorded (its registered
        gradient would hide a cut inside a branch). False when a branch was not recorded.
        """
        if not outputs:
            return False
        op = outputs[0].op
        branches = [tfp.cached_function_graph(tfp.nested_function(op, attr))
                    for attr in ("then_branch", "else_branch")]
        if not self._link_bodies(inputs[1:], outputs, branches, number, layer, loc):
            return False
        # the condition decides every output (cond_v2's _IfGrad gives it None): an `If` op
        # of the condition alone, its input a gate (optypes.GATING_INPUTS)
        seq, results = self.rec.next_seq(), tuple(self.rec.ids.serial_of(t) for t in outputs)
        self.rec.trace.ops.append(OpRecord(
            seq, op.type, (self.serial_for(inputs[0], number, layer),),
            tuple(r for r in results if r is not None), loc, layer=layer, in_function=True,
            graph=number))
        return True

    def link_while(self, inputs: tuple[Any, ...], outputs: tuple[Any, ...], number: int,
                   layer: str, loc: Any) -> bool:
        """Join a ``While`` op (``tf.while_loop``, ``tf.scan``, autograph loops) to its body.

        while_v2 gives the op and its body the same loop variables, in order (the counter and
        the iteration bound first, then the user's, then the captured tensors): input i flows
        into the body's input i and the body's output i into the op's output i. The loop's
        registered gradient would hide a cut inside the body (TensorFlow then hands back
        zeros, not None: while_v2 turns the body's missing gradients into zeros). The
        condition graph only decides when to stop. False when the body was not recorded.
        """
        if not outputs:
            return False
        body = tfp.cached_function_graph(tfp.nested_function(outputs[0].op, "body"))
        if not self._link_bodies(inputs, outputs, [body], number, layer, loc):
            return False
        self.rec.trace.loop_bodies.add(self.graph_id(body))
        self.rec.trace.loop_unchanged.update(zero_factors.unchanged_loop_inputs(self.rec, body))
        return True

    def _link_bodies(self, args: tuple[Any, ...], outputs: tuple[Any, ...], bodies: list[Any],
                     number: int, layer: str, loc: Any) -> bool:
        """Link ``args`` into every body graph's inputs and its outputs into ``outputs``."""
        if any(b is None or id(b) not in self._graph_ids for b in bodies):
            return False
        results: dict[int, int] = {}
        for body in bodies:
            for arg, placeholder in zip(args, body.inputs, strict=False):
                inner = self.rec.ids.serial_of(placeholder)
                if inner is not None and tfp.dtype_name(placeholder.dtype) != "resource":
                    self.identity(self.serial_for(arg, number, layer), inner, loc, layer, number)
            for index, (inner_out, result) in enumerate(zip(body.outputs, outputs,
                                                            strict=False)):
                inner = self.rec.ids.serial_of(inner_out)
                if inner is not None:
                    results[index] = self.identity(inner, results.get(index, result), loc,
                                                    layer, number)
        for index, result in enumerate(outputs):
            if index not in results:
                self.rec.ids.register(result, None, "placeholder")
        return True

    def link_call(self, function: Any, args: tuple[Any, ...], outputs: tuple[Any, ...],
                  caller: int) -> None:
        """Tie one call of a traced function to its graph: args -> inputs, outputs -> results.

        ``caller`` is the graph the call was made in (0: eagerly). Each argument flows into the
        graph's input placeholder and each graph output into the call's result through an
        ``Identity`` op numbered now, so the body traced once serves every call and a tape's
        span is checked at the call. A function traced before the run began has no recorded
        ops: the call is one opaque op.
        """
        graph = tfp.cached_function_graph(function)
        user, _ = frames.user_frame(sys._getframe(2))
        loc = frames.location_of(user) if user is not None else None
        layer = keras_state.keras_layer_path()
        if graph is None or id(graph) not in self._graph_ids:
            self.rec.trace.opaque_calls += 1
            name = function.name.decode() if isinstance(function.name, bytes) else str(
                function.name)
            in_serials = tuple(self.serial_for(t, caller, layer) for t in args)
            seq = self.rec.next_seq()
            outs = tuple(self.rec.ids.register(t, (seq, i), None) for i, t in enumerate(outputs))
            self.rec.trace.ops.append(OpRecord(
                seq, name, in_serials, outs, loc, layer=layer,
                in_gradient=self.rec.gradient_depth > 0, in_function=True, graph=caller))
            self.rec.trace.registry.setdefault(name, "fn")  # a pass-through (provenance)
            return
        for arg, placeholder in zip(args, graph.inputs, strict=False):
            if tfp.dtype_name(getattr(placeholder, "dtype", None)) == "resource":
                continue  # variable handles: the graph reads the outer handle's serial
            inner = self.rec.ids.serial_of(placeholder)
            if inner is not None:  # else the body never used this input
                self.identity(self.serial_for(arg, caller, layer), inner, loc, layer, caller)
        for inner_out, result in zip(graph.outputs, outputs, strict=False):
            inner = self.rec.ids.serial_of(inner_out)
            if inner is not None and result is not None:
                self.identity(inner, result, loc, layer, caller)
        if self.pending and not caller:
            self._check_values(graph, outputs)

    def _check_values(self, graph: Any, outputs: tuple[Any, ...]) -> None:
        """Tie the first run back to trace-time gradients: an all-zero one is ``zero``.

        Only gradients the function returns have a value here; the others stay ``ok`` (what a
        trace can say) and are not waited for any longer.
        """
        if not any(_same_graph(t, graph) for t, _ in self.pending):
            return  # a function called while the traced one runs (an optimizer's): not its run
        # by name: `op.inputs` makes new Tensor objects, so their ids never match the pending
        returned: dict[str, Any] = {}
        for inner_out, result in zip(graph.outputs, outputs, strict=False):
            returned[inner_out.name] = result
            if inner_out.op.type == "Identity":  # a FuncGraph returns Identity(the value)
                returned[inner_out.op.inputs[0].name] = result
        for tensor, source in self.pending:
            value = returned.get(tensor.name) if _same_graph(tensor, graph) else None
            if value is not None:
                # the norm too: a gradient vanishing next to the others, or round-off where
                # the maths gives zero (a bias before a batch normalization), is read from it
                result, norm = classify(value)
                source.norm = norm
                if result == "zero":
                    source.result = "zero"
        if any(source.result == "zero" for _, source in self.pending):
            # the weights' values after the run are those it read, unless it wrote them
            trace = self.rec.trace
            written = frozenset(handle for seq, (handle, _, _) in trace.state_writes.items()
                                if (op := trace.op_at(seq)) is not None and op.graph
                                and trace.graph_names.get(op.graph) == graph.name)
            note_zero_values(self.rec, self.pending_variables, written)
        self.pending.clear()
        self.pending_variables.clear()
        if self.after_values is not None:
            self.after_values()

    def serial_for(self, tensor: Any, number: int, layer: str) -> int:
        """Return the serial of a call argument (of graph ``number``; 0: eager), new if unseen."""
        serial = self.rec.ids.serial_of(tensor)
        if serial is not None:
            return serial
        if number and not isinstance(tensor, tfp.EagerTensorBase):
            return self.leaf(tensor, number, layer)
        if tfp.dtype_name(getattr(tensor, "dtype", None)) == "resource":
            return self.rec.handle_serial(tensor)
        return self.rec.ids.register(tensor, None, "constant")


def _same_graph(tensor: Any, graph: Any) -> bool:
    """Return True when ``tensor`` was made in the function ``graph``, compared by name.

    The call's graph object is not the traced one.
    """
    return getattr(getattr(tensor, "graph", None), "name", None) == getattr(graph, "name", "")
