"""TensorFlow's stacks: autograph's source maps and the per-thread op-traceback filters.

Imports TensorFlow (``tensorflow/python/util/tf_stack.py``, autograph's ``ag_source_map``).
Part of the quarantine (see the package): the private names below are read nowhere else.
"""

from __future__ import annotations

from typing import Any

from tensorflow.python.util import tf_stack


def autograph_origin(filename: str, line: int) -> tuple[str, int, str] | None:
    """Map a line of autograph-generated code to the user's line.

    While a converted function is traced, autograph pushes its source map on the tracing
    thread's ``tf_stack`` mapper stack (tensorflow/python/autograph/impl/api.py
    ``StackTraceMapper``). Code run on another thread (a replica function converted along
    with the step that calls ``strategy.run``, which ``tf.distribute`` runs on its own
    threads) or after the trace is mapped by the converted function's own map, which the
    transpiler keeps with the module it generated (``_TRANSPILER._cache``: code ->
    {subkey: factory}, autograph/pyct/transpiler.py); a generated file's name is unique.
    """
    key = (filename, line)
    try:  # .get: the defaultdict would keep an entry for every thread that asks
        own = tf_stack._source_mapper_stacks.get(tf_stack._get_thread_key())
        origin = own[-1].get_effective_source_map().get(key) if own else None
        if origin is not None:
            return str(origin[0]), int(origin[1]), str(origin[2])
        if key not in _kept_origins:
            from tensorflow.python.autograph.impl import api as autograph_api

            for bucket in list(autograph_api._TRANSPILER._cache._cache.values()):
                for factory in list(bucket.values()):
                    if getattr(factory.module, "__file__", None) == filename:
                        found = factory.source_map.get(key)  # an OriginInfo, or None
                        _kept_origins[key] = found and (  # a miss is kept too (no rescan)
                            str(found.loc.filename), int(found.loc.lineno),
                            str(found.function_name))
    except Exception:  # noqa: BLE001 - a changed private API: no origin
        pass
    return _kept_origins.get(key)


#: source-map entries kept for generated code that runs after its trace (None: no origin)
_kept_origins: dict[tuple[str, int], tuple[str, int, str] | None] = {}


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


def hide_from_filtered_tracebacks(root: str) -> Any:
    """Leave files under ``root`` out of the tracebacks TensorFlow filters; return the undo.

    TensorFlow leaves its own files out of the frames autograph lists under "in user code:"
    for an error raised while a ``tf.function`` traced, and out of the tracebacks its
    ``filter_traceback`` decorator shortens (``tensorflow/python/util/traceback_utils.py``:
    ``include_frame`` drops a file whose name contains a path of ``_EXCLUDED_PATHS``). With
    ``root`` there too, the check's wrapper frames (its ``tape.gradient`` around TensorFlow's)
    are left out the same way, and the error reads as without the check. The undo takes this
    one entry off again, wherever it is (nested checks add one each).
    """
    from tensorflow.python.util import traceback_utils

    traceback_utils._EXCLUDED_PATHS = (*traceback_utils._EXCLUDED_PATHS, root)

    def undo() -> None:
        paths = list(traceback_utils._EXCLUDED_PATHS)
        if root in paths:
            del paths[len(paths) - 1 - paths[::-1].index(root)]
            traceback_utils._EXCLUDED_PATHS = tuple(paths)

    return undo


def excluded_traceback_paths() -> tuple[str, ...]:
    """Return the paths TensorFlow leaves out of the tracebacks it filters (for the tests)."""
    from tensorflow.python.util import traceback_utils

    return tuple(traceback_utils._EXCLUDED_PATHS)


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
