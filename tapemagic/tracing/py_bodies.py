"""What a traced ``tf.py_function``'s body does when its graph runs (graph mode).

Imports TensorFlow (through ``_tf_private``). Inside a ``tf.function`` or Keras ``fit``, a
py_function is one ``EagerPyFunc`` op at trace time; its body runs only when the graph runs,
on a thread of TensorFlow's executor, where the op callback never reaches. TensorFlow runs the
body under a tape of its own (``script_ops.EagerFunc.__call__``, when a gradient was traced
for it), and its gradient op runs ``tape.gradient`` on that tape at run time
(``_EagerPyFuncGrad``); an input whose gradient comes back None gets a scalar zero
(``EagerFunc._convert``: "we replace None objects with zeros"), which either zeroes the
gradient or makes a later gradient op fail on its shape ("In[1] ndims must be >= 2").

Two patches, installed with the host hooks for a run and restored with them:
``FuncRegistry.__call__`` (the C++ kernel calls the registry object with the op's token) marks
the thread as running the body (or the gradient) of that token, for tokens the recorder saw
traced; ``EagerFunc._convert`` notes, while a gradient runs, which positions came back None.
The host hooks add a conversion made in a body to its :class:`~tapemagic.py_body.PyBody`. Only a
token's first run is kept, as for the traced function's first run.

A body that reads its tensors through NumPy's buffer protocol (``np.asarray``, SciPy,
scikit-learn) passes no hook; that it hands back a host value (``_convert`` sees a NumPy array
or a Python number, not a tensor) is the evidence, and its ``return`` statement the place: a
profile function on the body's thread, for that run only, notes where the body's own function
returns (not while the user's own profiler is on).
"""

from __future__ import annotations

import inspect
import sys
import threading
from typing import TYPE_CHECKING, Any

from tapemagic import frames
from tapemagic.py_body import PyBody
from tapemagic.trace import HostEvent
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing._tf_private import py_funcs

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

PY_FUNCTION_OPS = frozenset({"EagerPyFunc"})

_local = threading.local()


class _Run:
    """A body running on this thread: the arguments it was given, and its record.

    The record is the first run's of a traced body; None for a body run eagerly (the op
    callback sees its ops) or a later run.
    """

    __slots__ = ("body", "args", "returned", "noted")

    def __init__(self, body: PyBody | None, args: Any) -> None:  # noqa: D107
        self.body = body
        self.args = args
        self.returned: Any = None  # where the body's own function returned (a RawLocation)
        self.noted = False  # its host result is recorded


class _Gradient:
    """The gradient run of one body: the next output position, the body it belongs to.

    ``func`` is the gradient's ``EagerFunc``: a py_function called inside the body runs its
    own gradient inside this one, on this thread, and its outputs are not this body's.
    """

    __slots__ = ("body", "position", "func")

    def __init__(self, body: PyBody, func: Any) -> None:  # noqa: D107
        self.body = body
        self.position = 0
        self.func = func


def current() -> _Run | None:
    """Return the body running on this thread (its first run), else None."""
    return _local.__dict__.get("body")


def note_op(rec: Recorder, op: Any, seq: int) -> None:
    """Remember the token of an ``EagerPyFunc`` op traced into a graph as op ``seq``."""
    try:
        token = _text(op.get_attr("token"))
    except (AttributeError, ValueError):
        return
    func = py_funcs.registered_function(token)
    code = getattr(_function_of(func), "__code__", None)
    name = f"{code.co_filename}:{code.co_firstlineno}:{code.co_name}" if code else ""
    if code is not None and frames.GENERATED_MARK in code.co_filename:
        tfp.keep_origins(code)  # a lambda in a converted function: read at run time
        origin = tfp.autograph_origin(code.co_filename, code.co_firstlineno)
        if origin is not None:  # each trace generates its own file: name the user's line
            name = f"{origin[0]}:{origin[1]}:{code.co_name}"
    rec.trace.py_function_ops[seq] = (token, name)


def note_conversion(rec: Recorder, run: _Run, kind: str, api: str, loc: Any,
                    values: tuple[Any, ...]) -> None:
    """Record a host conversion of ``values`` made in a running body (on TensorFlow's thread).

    The event has no sources (the body's tensors are not the graph's) and a fresh number: it
    links to nothing in the trace; the analysis reaches it through the body's op only.
    """
    seq = rec.next_seq_of_entering_thread()  # it waits for the graph that runs this body
    event = HostEvent(len(rec.trace.host_events) + 1, seq, kind, api, (), (), loc, True)
    rec.trace.host_events.append(event)
    if run.body is not None:
        run.body.conversions.append(event.id)
    position = next((i for i, arg in enumerate(run.args) for v in values if v is arg), None)
    if position is not None:
        rec.trace.body_arguments[event.id] = position


def note_argument(rec: Recorder, event: int, sources: tuple[int, ...]) -> None:
    """Note which argument of the body running here host event ``event`` converted, if any.

    For a conversion recorded as any other (a body run eagerly, on the recorded thread): its
    ``sources`` are serials, and the body's arguments got theirs when they were converted.
    """
    run = current()
    if run is None:
        return
    serial_of = rec.ids.serial_of
    position = next((i for i, arg in enumerate(run.args) if serial_of(arg) in sources), None)
    if position is not None:
        rec.trace.body_arguments[event] = position


def patches(rec: Recorder) -> list[tuple[type, str, Any]]:
    """Return the (class, attribute, replacement) patches for one run of ``rec``."""
    registry_call = py_funcs.FuncRegistry.__call__
    eager_func = py_funcs.EagerFunc
    is_gradient = py_funcs.is_gradient
    tensor = tfp.EagerTensorBase

    def __call__(registry: Any, token: Any, device: Any, args: Any) -> Any:  # noqa: N807
        __tracebackhide__ = True
        func = registry.get(token, None) if rec.attached else None
        if not isinstance(func, eager_func):
            return registry_call(registry, token, device, args)
        state: _Gradient | _Run | None
        if is_gradient(func):
            body = _body(rec, forward_token(func), grad=True)
            key, state = "gradient", _Gradient(body, func) if body is not None else None
        else:
            # a body with no record (run eagerly, or a later run) still names its arguments
            key, state = "body", _Run(_body(rec, _text(token), grad=False), tuple(args))
        if state is None:
            return registry_call(registry, token, device, args)
        code = _watched_code(rec, func, state) if isinstance(state, _Run) else None
        outer = _local.__dict__.get(key)
        setattr(_local, key, state)
        if code is not None:
            sys.setprofile(_returns(state, code))  # type: ignore[arg-type]
        try:
            result = registry_call(registry, token, device, args)
        finally:
            if code is not None:
                sys.setprofile(None)
            setattr(_local, key, outer)
        if isinstance(state, _Run) and state.body is not None:
            _note_reads(rec, state.body, token)
        return result

    def before_convert(func: Any, value: Any) -> None:
        if is_gradient(func):
            state = _local.__dict__.get("gradient")
            if state is not None and state.func is func:
                if value is None:
                    state.body.none_inputs.add(state.position)
                state.position += 1
        else:
            run = _local.__dict__.get("body")
            if (run is not None and run.returned is not None and not run.noted
                    and value is not None and not isinstance(value, tensor)):
                run.noted = True  # the body handed back a host value: it left TensorFlow
                note_return(rec, run)

    __call__.__doc__ = registry_call.__doc__
    return [(py_funcs.FuncRegistry, "__call__", __call__),
            py_funcs.convert_patch(before_convert)]


def _note_reads(rec: Recorder, body: PyBody, token: Any) -> None:
    """Note the variables the body read, which the tape TensorFlow ran it under watched."""
    tape = py_funcs.body_tape(token)
    try:
        variables = tape.watched_variables() if tape is not None else ()
    except Exception:  # noqa: BLE001 - a tape already let go of has nothing to say
        return
    for variable in variables:
        serial = rec.known_handle(getattr(variable, "handle", None))
        if serial is not None:
            body.read_handles.add(serial)


def note_return(rec: Recorder, run: _Run) -> None:
    """Record that a body returned a host value (NumPy, a Python number): at its ``return``.

    This is how a body that reads its tensors through NumPy's buffer protocol (``np.asarray``,
    SciPy, scikit-learn), which no hook sees, shows that it left TensorFlow.
    """
    if run.body is not None:
        note_conversion(rec, run, "numpy", "return", run.returned, ())
    elif rec.recording():
        rec.add_host_event("numpy", "return", (), (), run.returned)


def _watched_code(rec: Recorder, func: Any, run: _Run) -> Any:
    """Return the code of the body's own function, to see where it returns, else None.

    A traced body's first run, or a body run eagerly under a tape on the recorded thread; not
    while another profiler is on (the user's).
    """
    if sys.getprofile() is not None or not (
            run.body is not None or (rec.recording() and not tfp.tape_set_is_empty())):
        return None
    return getattr(_function_of(func), "__code__", None)


def _returns(run: _Run, code: Any) -> Any:
    """Return a profile function that notes where ``code``'s frame returns (the last time)."""
    location_of = frames.location_of

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "return" and frame.f_code is code:
            run.returned = location_of(frame)

    return profile


def _body(rec: Recorder, token: str | None, grad: bool) -> PyBody | None:
    """Return the body record of a token the recorder traced, on its first run (or gradient)."""
    if token is None or all(token != t for t, _ in rec.trace.py_function_ops.values()):
        return None
    body = rec.trace.py_bodies.get(token)
    if body is None:
        body = rec.trace.py_bodies[token] = PyBody()
    if grad:
        if body.graded:
            return None
        body.graded = True
    else:
        if body.ran:
            return None
        body.ran = True
    return body


def forward_token(grad_func: Any) -> str | None:
    """Return the token of the py_function whose gradient ``grad_func`` (an EagerFunc) runs.

    ``_EagerPyFuncGrad`` in script_ops.py registers a closure over the forward op's ``token``
    attribute (bytes), wrapped by ``autograph.do_not_convert``.
    """
    function = _function_of(grad_func)
    code = getattr(function, "__code__", None)
    closure = getattr(function, "__closure__", None) or ()
    if code is None or "token" not in code.co_freevars:
        return None
    try:
        return _text(closure[code.co_freevars.index("token")].cell_contents)
    except (IndexError, ValueError):
        return None


def _function_of(func: Any) -> Any:
    """Return the Python function an ``EagerFunc`` runs, past ``autograph.do_not_convert``."""
    return inspect.unwrap(py_funcs.wrapped_function(func))


def _text(token: Any) -> str:
    return token.decode() if isinstance(token, bytes) else str(token)
