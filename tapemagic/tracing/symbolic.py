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
from tapemagic.tracing import continuation, frames
from tapemagic.tracing.hooks import _HOST_APIS
from tapemagic.tracing.recorder import Recorder

_GETATTR = tfp.TensorBase.__getattr__.__code__
_ARRAY = tfp.TensorBase.__array__.__code__


def failed_event(rec: Recorder, error: BaseException) -> HostEvent | None:
    """Return the host event of a round-trip on a symbolic tensor that raised ``error``.

    Recorded once per error (an outer tape sees the error an inner one saw), at the moment the
    error leaves the first tape, which is still inside the trace (autograph's line map holds).
    """
    if not rec.trace_graphs or rec.busy:
        return None
    for raised, event in rec.graphs.failed_events:
        if raised is error:
            return event
    rec.busy = True
    try:
        found = failed_round_trip(error)
        if found is None:
            return None
        kind, api, tensor, loc, frame = found
        rec.add_host_event(kind, api, (rec.hold(tensor),), (), loc)
        event = rec.trace.host_events[-1]
        event.in_function = True
        rec.graphs.failed_events.append((error, event))
    finally:
        rec.busy = False
    target = continuation.continue_past(rec, frame, loc, kind, api, tensor, event)
    if target is not None:
        rec.graphs.continued[event.id] = target
    return event


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
    rec.busy = True
    try:
        sources = [source_of(v) for v in tape.watched_variables()
                   if getattr(v, "trainable", False)]
        if not sources:
            return
        site = (event.loc.file, event.loc.line) if event.loc else None
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
    finally:
        rec.busy = False
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
    serial = rec.new_serial()
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
    import linecache

    if frames.is_library(frame):
        return None
    loc = frames.location_at(frame, lasti)
    if loc.col is None or loc.end_col is None or loc.end_line != loc.line:
        return None
    text = linecache.getline(loc.file, loc.line)[loc.col:loc.end_col]
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
    for frame, lasti in reversed(outer):
        if not frames.is_library(frame):
            loc = frames.location_at(frame, lasti)
            if kind == "numpy":
                return loc, api or ".numpy()", frame
            return loc, api or _called_name(loc) or "np.asarray()", frame
        module = frames.frame_module(frame)
        if kind == "numpy":
            label = _HOST_APIS.get((module, frame.f_code.co_name))
            if label is not None:
                api = label  # the outermost listed API wins (eval calls get_value)
            elif api is None and not module.startswith(_WRAPPERS):
                return None  # a library's own `.numpy()`: not the user's round-trip
        elif module.startswith("numpy"):
            api = f"np.{frame.f_code.co_name}"
        elif not module.startswith(_WRAPPERS):
            return None
    return None


#: Frames between the user's call and the conversion that only pass it on.
_WRAPPERS = ("tensorflow.python.autograph", "tensorflow.python.util", "tensorflow.python.ops."
             "weak_tensor_ops", "keras.src.utils.traceback_utils", "tapemagic")


def _called_name(loc: RawLocation) -> str | None:
    """Return the NumPy function called at ``loc`` (``np.sqrt``), if it can be read.

    With columns the call expression itself is parsed; without (autograph's source map has
    lines only) the line's one NumPy call, when there is exactly one.
    """
    import ast
    import linecache

    line = linecache.getline(loc.file, loc.line)
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
