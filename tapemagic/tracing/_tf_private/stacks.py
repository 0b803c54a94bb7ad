"""TensorFlow's stacks: autograph's source maps and the per-thread op-traceback filters.

Imports TensorFlow (``tensorflow/python/util/tf_stack.py``, autograph's ``ag_source_map``).
Part of the quarantine (see the package): the private names below are read nowhere else.
"""

from __future__ import annotations

from typing import Any

from tensorflow.python.util import tf_stack


def autograph_origin(filename: str, line: int) -> tuple[str, int, str] | None:
    """Map a line of autograph-generated code to the user's line, while it is being traced.

    Autograph pushes the source map of each converted function on ``tf_stack``'s mapper stack
    (tensorflow/python/autograph/impl/api.py ``StackTraceMapper``); the effective map gives
    ``(filename, lineno) -> (original filename, original lineno, function name)``.
    """
    try:
        mapper = tf_stack._source_mapper_stacks[tf_stack._get_thread_key()][-1]
        origin = mapper.get_effective_source_map().get((filename, line))
    except Exception:  # noqa: BLE001 - no mapper (not tracing) or a changed private API
        origin = None
    if origin is None:
        return _kept_origins.get((filename, line))
    return str(origin[0]), int(origin[1]), str(origin[2])


#: source-map entries kept for generated code that runs after its trace (keep_origins)
_kept_origins: dict[tuple[str, int], tuple[str, int, str]] = {}


def keep_origins(code: Any) -> None:
    """Keep the source map of generated ``code``'s lines, read while it is traced.

    A ``tf.py_function`` body written inside a converted function (a lambda) is generated
    code too, and runs when the graph runs, on TensorFlow's thread, with no mapper.
    """
    import dis

    for _, line in dis.findlinestarts(code):
        origin = autograph_origin(code.co_filename, line) if line else None
        if origin is not None:
            _kept_origins[(code.co_filename, line)] = origin


def hide_from_op_tracebacks(filenames: frozenset[str]) -> Any:
    """Keep ``filenames`` out of the stacks TensorFlow records for each op; return the undo.

    An op's creation stack (``tf_stack.extract_stack``, shown as "defined at" in a graph
    execution error) leaves out the files of the filters on this thread's stack
    (``tensorflow/python/util/tf_stack.py``, as autograph does for its own module). The undo
    takes exactly this filter off, wherever it is in the stack.
    """

    class _Hide(tf_stack.StackTraceFilter):
        def get_filtered_filenames(self) -> frozenset[str]:
            return filenames | self.parent.get_filtered_filenames()

    hide = _Hide()
    hide.__enter__()
    stacks = tf_stack._source_filter_stacks  # the per-thread filter stacks
    key = hide._thread_key

    def undo() -> None:
        stack = stacks.get(key)
        if stack and hide in stack:
            stack.remove(hide)

    return undo


def converted_origin(codes: list[Any], line: int) -> tuple[str, int, str] | None:
    """Map ``line`` of autograph-generated code to the user's line, from the function itself.

    ``codes`` are code objects of one generated file (the failing frame's and those around
    it: a loop or ``if`` body is a function nested in the converted one). Autograph gives
    each converted function its source map, of its whole generated file, as
    ``ag_source_map`` (``tensorflow/python/autograph/impl/api.py``: ``LineLocation ->
    OriginInfo``); the mapper stack holds it only while the function runs. The functions are
    found among the referrers of those code objects (one scan of the collected heap, for an
    error, never per op).
    """
    import gc
    import types

    filenames = {code.co_filename for code in codes}
    for holder in gc.get_referrers(*codes):
        source_map = getattr(holder, "ag_source_map", None) if isinstance(
            holder, types.FunctionType) else None
        if not isinstance(source_map, dict):
            continue
        for loc, origin in source_map.items():
            if getattr(loc, "filename", None) in filenames and loc.lineno == line:
                return (str(origin.loc.filename), int(origin.loc.lineno),
                        str(origin.function_name))
    return None
