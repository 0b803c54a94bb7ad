"""Host round-trips on symbolic tensors: found in the error they raise, not by a hook.

Imports TensorFlow (through ``_tf_private``). While a ``tf.function`` (or Keras ``fit``'s train
function) is traced its tensors have no value, so ``.numpy()``, NumPy and
``keras.backend.eval`` on them raise (``AttributeError: 'SymbolicTensor' object has no
attribute 'numpy'``, ``NotImplementedError: Cannot convert a symbolic tf.Tensor``). Nothing is
patched for this: a wrapper would add its frame to the user's traceback. When such an error
leaves a tape, its traceback still holds the frames that raised it: TensorFlow's
``Tensor.__getattr__`` or ``Tensor.__array__`` (``self`` is the tensor) and, above them, the
user's line and the library API the user called.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

from tapemagic import frames
from tapemagic.trace import (
    GradientCallRecord,
    HostEvent,
    HostLink,
    RawLocation,
    SourceRecord,
    TapeRecord,
    TensorRecord,
    Trace,
)
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import continuation, keras_state
from tapemagic.tracing.hooks import HOST_APIS
from tapemagic.tracing.recorder import Recorder

_GETATTR = tfp.TensorBase.__getattr__.__code__
_ARRAY = tfp.TensorBase.__array__.__code__


def failed_event(rec: Recorder, error: BaseException) -> HostEvent | None:
    """Return the host event of a round-trip on a symbolic tensor that raised ``error``.

    Recorded once per error (an outer tape sees the error an inner one saw), at the moment the
    error leaves the first tape, which is still inside the trace (autograph's line map holds).
    """
    if not rec.graphs.enabled or rec.busy:
        return None
    for raised, event in rec.graphs.failed_events:
        if raised is error:
            return event
    with rec.quiet():
        # a tf.function called while another is traced re-raises its trace's error as a new
        # one (autograph's "in user code:", TensorFlow's frames filtered from its traceback):
        # the original, with the conversion's frames, is among its causes
        chain = frames.error_chain(error, 5)
        depth, found = next(((d, f) for d, f in enumerate(map(failed_round_trip, chain))
                             if f is not None), (0, None))
        if found is None:
            return None
        if depth and not _link_nested_call(rec, chain[:depth], found[2]):
            return None  # unlinked, the round-trip's value would look unconnected (TM104)
        kind, api, tensor, loc, frame = found
        graph = getattr(tensor, "graph", None)
        if rec.ids.serial_of(tensor) is None and tfp.is_traced_graph(graph):
            # e.g. the output of a nested tf.function's call, joined to its graph only when
            # an op consumes it (GraphTracer.leaf); the round-trip is its only consumer
            rec.graphs.serial_for(tensor, rec.graphs.graph_id(graph),
                                  keras_state.keras_layer_path())
        rec.add_host_event(kind, api, (rec.ids.hold(tensor),), (), loc)
        event = rec.trace.host_events[-1]
        event.in_function = True
        rec.graphs.failed_events.append((error, event))
    target = continuation.continue_past(rec, frame, loc, kind, api, tensor, event)
    if target is not None:
        rec.graphs.continued[event.id] = target
    return event


def _link_nested_call(rec: Recorder, outer: list[BaseException], tensor: Any) -> bool:
    """Tie the inputs of nested ``tf.function`` calls whose traces failed to their arguments.

    Their call ops were never made (the traces raised), so nothing joins the outer tensors to
    an inner graph's input placeholders. The outer errors' tracebacks hold autograph's
    ``converted_call`` of each such function, with its arguments; the innermost call (last
    frame of the nearest error) traced ``tensor``'s graph, the next one out that graph's
    ``outer_graph``, and so on up to the graph being traced now. Each tensor argument, in
    order, flows into the graph's argument placeholder of the same position (its inputs less
    its captures). False, and nothing tied, when a level's call is not found, or its arguments
    do not line up one to one with those placeholders (keywords, NumPy arrays, composite
    tensors or variables among them, other dtypes, tensors of another graph).
    """
    graph: Any = getattr(tensor, "graph", None)
    here = tfp.get_default_graph()
    links: list[tuple[FrameType, Any, list[Any], list[Any]]] = []
    for frame, args in _nested_calls(outer):
        if graph is None or graph is here or not tfp.is_traced_graph(graph):
            break
        parent = getattr(graph, "outer_graph", None)
        captured = {id(internal) for _, internal in tfp.graph_captures(graph)}
        inputs = [i for i in graph.inputs if id(i) not in captured]
        flat = [a for a in tfp.tf.nest.flatten(args) if isinstance(a, tfp.TensorBase)]
        if not flat or len(flat) != len(inputs) or any(
                a.dtype != i.dtype or (not isinstance(a, tfp.EagerTensorBase) and a.graph
                                       is not parent) for a, i in zip(flat, inputs, strict=True)):
            return False
        links.append((frame, parent, flat, inputs))
        graph = parent
    if not links or graph is not here:
        return False
    for frame, parent, flat, inputs in reversed(links):  # outermost first: its args are known
        user, _ = frames.user_frame(frame)
        loc = frames.location_of(user) if user is not None else None
        number = rec.graphs.graph_id(parent) if tfp.is_traced_graph(parent) else 0
        for arg, placeholder in zip(flat, inputs, strict=True):
            inner = rec.ids.serial_of(placeholder)
            if inner is None:
                inner = rec.ids.register(placeholder, None, "placeholder", strong=True)
            source = rec.graphs.serial_for(arg, number, keras_state.keras_layer_path())
            rec.graphs.identity(source, inner, loc, "", number)
    return True


def _nested_calls(outer: list[BaseException]) -> list[tuple[FrameType, tuple[Any, ...]]]:
    """Return autograph's ``converted_call`` frames of ``tf.function`` objects, innermost first.

    ``outer`` is nearest the user first; the innermost call is the last such frame of the
    error the original one caused directly.
    """
    found: list[tuple[FrameType, tuple[Any, ...]]] = []
    for error in reversed(outer):
        level: list[tuple[FrameType, tuple[Any, ...]]] = []
        tb = error.__traceback__
        while tb is not None:
            frame = tb.tb_frame
            tb = tb.tb_next
            if frame.f_code.co_name != "converted_call" or not frames.frame_module(
                    frame).startswith("tensorflow.python.autograph"):
                continue
            function, args = frame.f_locals.get("f"), frame.f_locals.get("args")
            if isinstance(function, tfp.Function) and isinstance(args, tuple):
                level.append((frame, args))
        found.extend(reversed(level))
    return found


def note_unreached(rec: Recorder, tape: Any, record: TapeRecord, event: HostEvent,
                   source_of: Callable[[Any], SourceRecord]) -> None:
    """Record the gradient call a tape never reached because ``event`` raised inside it.

    The gradient the code was heading for is the one of the loss the rest of the function
    computes, traced on past the round-trip (:mod:`continuation`); when that cannot be traced,
    of the value that left TensorFlow: a leaf fed by the host event. Its sources are the
    trainable variables the tape watched so far, each with result ``none`` (the conversion cut
    them off). The cut analysis then names the round-trip as for an eager run.
    """
    if any(c.tape == record.id for c in rec.trace.gradient_calls):
        return
    keras_fit = record.creation_site == ("keras-fit", 0)
    continued = rec.graphs.continued.get(event.id)
    with rec.quiet():
        sources = [source_of(v) for v in tape.watched_variables()
                   if getattr(v, "trainable", False)]
        if continued is None:
            # the loss is unknown: only the weights the round-trip cut. One the tape watched
            # that does not feed it may still reach the loss after it (``q = model(x)``
            # before ``host = other(x).numpy()``, both summed): nothing says it is cut off
            feeding = (continuation.handles_behind(rec, event.sources[0]) if event.sources
                       else set())
            sources = [s for s in sources if s.handle in feeding]
        if not sources:
            return
        site = (event.loc.file, event.loc.line) if event.loc else None
        handles = [s.handle for s in sources]
        if any(not c.reached and c.site == site and [s.handle for s in c.sources] == handles
               for c in rec.trace.gradient_calls):
            return  # the same trace failed again (the code caught its error): seen already
        call = GradientCallRecord(
            f"grad{len(rec.trace.gradient_calls) + 1}", record.id, "gradient", record.loc,
            rec.next_seq(), (_host_leaf(rec, event) if continued is None else continued,),
            "loss" if keras_fit else "target",
            sources, "none", keras_fit=keras_fit, site=site, in_function=True, reached=False,
            stopped_at=event.id, continued=continued is not None,
        )
        raised = next((e for e, ev in rec.graphs.failed_events if ev is event), None)
        if raised is not None:  # what stopped the trace, shown with the call in the report
            call.error_type, call.error_message = type(raised).__name__, str(raised)
            call.stopped_error = id(raised)
    for source in call.sources:
        source.result = "none"
    rec.trace.gradient_calls.append(call)


def name_unreached_sources(trace: Trace) -> None:
    """Name the sources of unreached calls as the report names weights (Keras paths).

    They came from ``tape.watched_variables()``, i.e. the inner ``tf.Variable``s; the names of
    their handles are known only once the run is finished.
    """
    for call in trace.gradient_calls:
        if not call.reached:
            for source in call.sources:
                if source.handle is not None:
                    source.name = trace.handle_names.get(source.handle, source.name)


def _host_leaf(rec: Recorder, event: HostEvent) -> int:
    """Return a new tensor serial standing for the host value of ``event`` (no object)."""
    like = rec.trace.tensors.get(event.sources[0]) if event.sources else None
    serial = rec.ids.new_serial()
    rec.trace.tensors[serial] = TensorRecord(serial, like.dtype if like else "float32",
                                             like.shape if like else None, True, None, "host")
    rec.trace.host_links[serial] = HostLink(serial, event.id, probable=False)
    return serial


def failed_round_trip(error: BaseException,
                      ) -> tuple[str, str, Any, RawLocation, FrameType] | None:
    """Return ``(kind, api, tensor, location, frame)`` when ``error`` is a failed round-trip.

    ``kind`` is ``numpy`` (``.numpy()``, Keras ``eval``/``get_value``), ``ufunc`` (NumPy on a
    symbolic tensor) or ``scalar`` (``float(t)`` on a local name); None when the error was
    raised elsewhere, or by a library's own conversion rather than one the user asked for.
    """
    chain: list[tuple[FrameType, int]] = []
    tb: TracebackType | None = error.__traceback__
    while tb is not None:
        chain.append((tb.tb_frame, tb.tb_lasti))
        tb = tb.tb_next
    for index in range(len(chain) - 1, -1, -1):
        frame = chain[index][0]
        if frame.f_code is _GETATTR and frame.f_locals.get("name") == "numpy":
            kind = "numpy"
        elif frame.f_code is _ARRAY:
            kind = "ufunc"
        else:
            continue
        tensor = frame.f_locals.get("self")
        if not isinstance(tensor, tfp.SymbolicTensor):
            return None
        found = _user_caller(chain[:index], kind)
        if found is None:
            return None
        return kind, found[1], tensor, found[0], found[2]
    if isinstance(error, TypeError) and "not 'SymbolicTensor'" in str(error) and chain:
        return _scalar_conversion(*chain[-1])
    return None


_SCALARS = {"float": "float()", "int": "int()", "complex": "complex()"}


def _scalar_conversion(frame: FrameType, lasti: int,
                       ) -> tuple[str, str, Any, RawLocation, FrameType] | None:
    """``float(t)`` (``int``, ``complex``) raised in the user's own frame: find ``t``.

    Python raises the TypeError in C, so no frame holds the tensor; the call at the failing
    instruction is read from the source, and only a plain name argument is looked up (in the
    frame's locals, never evaluated).
    """
    import ast

    if frames.is_library(frame):
        return None
    loc = located(frame, lasti)
    if loc.col is None or loc.end_col is None or loc.end_line != loc.line:
        return None
    text = _line(loc.file, loc.line)[loc.col:loc.end_col]
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _SCALARS and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)):
        return None
    tensor = frame.f_locals.get(node.args[0].id)
    if not isinstance(tensor, tfp.SymbolicTensor):
        return None
    return "scalar", _SCALARS[node.func.id], tensor, loc, frame


def _user_caller(outer: list[tuple[FrameType, int]], kind: str,
                 ) -> tuple[RawLocation, str, FrameType] | None:
    """Walk out from the conversion to the user's frame; name the API the user called."""
    api: str | None = None
    inside = False  # inside a library's own code, not (yet) under an API the user called
    for frame, lasti in reversed(outer):
        if not frames.is_library(frame):
            if inside:
                return None  # a library's own conversion: not the user's round-trip
            loc = located(frame, lasti)
            if kind == "numpy":
                return loc, api or ".numpy()", frame
            return loc, api or _called_name(loc) or "np.asarray()", frame
        module = frames.frame_module(frame)
        label = HOST_APIS.get((module, frame.f_code.co_name))
        if label is not None:
            # the outermost listed API wins (eval calls get_value); keras.ops.convert_to_numpy
            # reaches `np.array(x)` through its backend's own function
            api, inside = label, False
        elif kind == "numpy":
            if api is None and not module.startswith(_WRAPPERS):
                return None  # a library's own `.numpy()`: not the user's round-trip
        elif module.startswith("numpy"):
            api, inside = f"np.{frame.f_code.co_name}", False
        elif not module.startswith(_WRAPPERS):
            inside = True
    return None


def located(frame: FrameType, lasti: int) -> RawLocation:
    """Return where ``frame`` is, in the user's source also for autograph-generated code.

    The error is handled when it leaves a tape, which for a helper the traced function called
    (autograph converts it too) is after the helper's source map left the mapper stack; the
    converted function still holds its own map (``ag_source_map``).
    """
    loc = frames.location_at(frame, lasti)
    if frames.GENERATED_MARK not in loc.file:
        return loc
    codes = []
    outer: FrameType | None = frame
    for _ in range(_NESTING):  # the converted function's frame is a few calls out
        if outer is None:
            break
        if outer.f_code.co_filename == frame.f_code.co_filename:
            codes.append(outer.f_code)
        outer = outer.f_back
    origin = tfp.converted_origin(codes, frames.generated_line(frame.f_code, lasti))
    return frames.at_origin(frame.f_code, lasti, origin) if origin is not None else loc


#: Autograph writes a statement's body as a function nested in the converted one (a loop's
#: ``loop_body``, an ``if``'s ``if_body``, a lambda's scope), called through its operators;
#: only the converted function carries the source map (of its whole generated file), so the
#: frames out from the failing one are searched for it, at most this many.
_NESTING = 12


#: Frames between the user's call and the conversion that only pass it on.
_WRAPPERS = ("tensorflow.python.autograph", "tensorflow.python.util", "tensorflow.python.ops."
             "weak_tensor_ops", "keras.src.utils.traceback_utils", "tapemagic")


def _called_name(loc: RawLocation) -> str | None:
    """Return the NumPy function called at ``loc`` (``np.sqrt``), if it can be read.

    With columns the call expression itself is parsed; without (autograph's source map has
    lines only) the line's one NumPy call, when there is exactly one.
    """
    import ast

    line = _line(loc.file, loc.line)
    if loc.col is not None and loc.end_col is not None and loc.end_line == loc.line:
        try:
            node = ast.parse(line[loc.col:loc.end_col].strip(), mode="eval").body
        except SyntaxError:
            return None
        return ast.unparse(node.func) if isinstance(node, ast.Call) else None
    try:
        tree = ast.parse(line.strip())
    except SyntaxError:
        return None
    names = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    numpy_calls = [n for n in names if n.startswith(("np.", "numpy."))]
    return numpy_calls[0] if len(numpy_calls) == 1 else None


def _line(file: str, number: int) -> str:
    """Return line ``number`` of ``file`` as tapemagic reads it ('' if unknown), as getline."""
    from tapemagic.locations import source_lines

    lines = source_lines(file)
    return lines[number - 1] if 0 < number <= len(lines) else ""
