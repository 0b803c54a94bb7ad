"""What a traced ``tf.py_function``'s body did when its graph ran: plain data, TF-free.

``tracing/py_bodies.py`` fills a :class:`PyBody` per traced body (``Trace.py_bodies``);
``graph/py_functions.py`` reads it. Apart from ``trace.py``, which holds what the tracer saw
of the ops themselves, to keep that module within the size limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class PyBody:
    """What the first run of a traced ``tf.py_function``'s body did (graph mode, at run time).

    A traced function runs a py_function's body when the graph runs, on a thread of
    TensorFlow's, and its gradient again there: TensorFlow's own tape inside the body
    (``script_ops.EagerFunc``) gives the gradient per input, and a None becomes a scalar zero
    (``EagerFunc._convert``). ``conversions``: ids of the body's host conversions
    (``HostEvent``); ``read_handles``: the variables it read; ``none_inputs``: input
    positions whose gradient the body's tape returned as None; ``graded``: the gradient ran.
    """

    conversions: list[int] = field(default_factory=list)
    #: handle serials of the variables the body read (its own tape watched them): their
    #: gradient stays on that tape; the py_function op's gradient gives only its inputs'
    read_handles: set[int] = field(default_factory=set)
    none_inputs: set[int] = field(default_factory=set)
    ran: bool = False
    graded: bool = False
