"""What a tape call got and returned: flattening, None / zero / norm, later runs, failed watches.

Imports TensorFlow (through ``_tf_private``): it reads the tensors it is handed
(``_tf_private.numpy_of`` of an eager tensor runs no op).
"""

from __future__ import annotations

import math
from collections.abc import Container, Sequence
from typing import Any, Literal

import numpy as np

from tapemagic.tracing import _tf_private as tfp

#: Gradients over this many elements are checked for None only in later runs (an all-zero
#: check reads every element).
MAX_CHECKED_ELEMENTS = 1 << 20


def flatten(value: Any) -> list[Any]:
    """Return the leaves of nested lists, tuples and dicts (dict keys sorted), in order."""
    if isinstance(value, dict):
        return [x for k in sorted(value, key=str) for x in flatten(value[k])]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flatten(v)]
    return [value]


def unconnected_mode(method: str, args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> Literal["none", "zero"]:
    """Return what a gradient call asked for unconnected sources (``unconnected_gradients``)."""
    unconnected = kwargs.get("unconnected_gradients")
    if unconnected is None:
        # positional: gradient(target, sources, output_gradients, unconnected_gradients)
        position = 1 if method == "gradient" else 0
        unconnected = args[position] if len(args) > position else None
    return "zero" if str(getattr(unconnected, "value", unconnected)) == "zero" else "none"


def shape_of(value: Any) -> tuple[int | None, ...] | None:
    """Return a tensor's static shape as a tuple (None when unknown)."""
    try:
        return tuple(value.shape.as_list())
    except (AttributeError, ValueError):
        return None


def classify(value: Any) -> tuple[Literal["ok", "none", "zero"], float | None]:
    """Return (result, L2 norm) of one gradient TensorFlow returned."""
    if value is None:
        return "none", None
    data = getattr(value, "values", value)  # IndexedSlices carry their values here
    try:
        array = np.asarray(tfp.numpy_of(data))  # reading a value runs no op
    except Exception:  # noqa: BLE001 - symbolic (graph mode) or remote: no value to read
        return "ok", None
    flat = array.ravel()
    with np.errstate(all="ignore"):
        # in the gradient's own dtype first (a float64 copy of a ResNet50's gradients took
        # 0.5 s); float64 only when squares under- or overflow there
        norm = float(np.sqrt(np.dot(flat, flat))) if flat.dtype.kind == "f" else 0.0
        if norm > 0.0 or math.isnan(norm):  # NaN: some element is NaN, so not zero
            # a non-zero sum of squares has a non-zero element: no pass of `np.any` over the
            # gradient (a ResNet50's 23.5M floats, read twice per analysed call before)
            if norm == float("inf"):
                norm = float(np.linalg.norm(flat.astype(np.float64)))
            return "ok", norm
        if not np.any(array):  # squares that underflow to 0 are not zeros: ask every element
            return "zero", 0.0
        norm = float(np.linalg.norm(flat.astype(np.float64)))
    return "ok", norm


def target_value(target: Any) -> float | None:
    """Return the sum of a gradient call's float target(s) as they are now (None: symbolic).

    The loss of the checked step, which a fix verification compares between the code as it
    is and the code with a fix applied. Reading an eager tensor's value runs no op.
    """
    total = 0.0
    found = False
    for tensor in target if isinstance(target, (list, tuple)) else [target]:
        try:
            array = np.asarray(tfp.numpy_of(tensor))  # reading a value runs no op
        except Exception:  # noqa: BLE001 - symbolic (graph mode), a nest, or not a tensor
            return None
        if array.dtype.kind != "f":
            return None
        total += float(np.sum(array, dtype=np.float64))
        found = True
    return total if found and math.isfinite(total) else None  # JSON has no NaN


def later_result(value: Any) -> str:
    """Return a later run's result: None, or zeros for a gradient small enough to look at.

    No norm here: it casts to float64 and runs a BLAS dot per gradient per step (a 3-layer MLP
    loop ran 3x slower with it); whether any element is non-zero is all a later run needs.
    """
    if value is None:
        return "none"
    size = getattr(getattr(value, "shape", None), "num_elements", lambda: None)()
    if size is not None and size > MAX_CHECKED_ELEMENTS:
        return "ok"
    data = getattr(value, "values", value)  # IndexedSlices carry their values here
    try:
        array = np.asarray(tfp.numpy_of(data))  # reading a value runs no op
    except Exception:  # noqa: BLE001 - symbolic (graph mode) or remote: no value to read
        return "ok"
    return "ok" if np.any(array) else "zero"


def arrays_in(args: Any) -> list[int]:
    """Return the ids of the NumPy arrays among a ``tf.function`` call's (nested) arguments.

    Graph mode converts each to a tensor when it traces the call (``Function.__call__`` binds
    NumPy arrays as tensor specs); ``run_functions_eagerly`` hands the body the arrays as they are.
    """
    return [id(x) for x in flatten(args) if isinstance(x, np.ndarray)]


def graph_would_convert(tensor: Any, arrays: Sequence[int]) -> bool:
    """Return True when every item ``tape.watch`` got is a NumPy argument of a running function.

    Under ``--eager`` such a watch raises only because the function ran eagerly: graph mode
    would have watched the tensor it converted the array to.
    """
    items = flatten(tensor)
    return bool(items) and all(id(x) in arrays for x in items)


def describe_watch(tensor: Any, error: BaseException) -> tuple[str, str, Any]:
    """Return (short error, what was passed, its first item) for a ``tape.watch`` that raised."""
    what = type(tensor).__name__
    items = flatten(tensor)
    if isinstance(tensor, (list, tuple, dict)) and items:
        what = f"a {what} of {type(items[0]).__name__}"
        tensor = items[0]
    path = getattr(tensor, "path", None)
    if path is not None:
        what = f"{what} `{path}`"
    text = str(error).splitlines()[0] if str(error) else ""
    message = type(error).__name__ + (
        f": {text[:57]}..." if len(text) > 60 else f": {text}" if text else "")
    return message, what, tensor


def replaced_sources(analysed: Sequence[Any], sources: Any) -> list[int]:
    """Return the indices of variable sources (``SourceRecord``) now passed as plain tensors.

    The shape of ``x = x - lr * g`` in a loop: a Keras or TF variable has a ``handle``, the
    tensor that replaced it has none.
    """
    return [i for i, (source, now) in enumerate(zip(analysed, flatten(sources), strict=False))
            if source.kind != "tensor" and not hasattr(now, "handle")]


def remade_sources(analysed: Sequence[Any], held: Sequence[int], sources: Any,
                   created: Container[int]) -> list[int]:
    """Return the indices of variable sources a new variable of the same name took over.

    ``analysed`` are the analysed run's source records, ``held`` their ``id()``s (0 for a
    tensor; the recorder holds those variables, so the ids are theirs), ``sources`` the next
    run's. Only a variable this run created (``created`` holds its handle serial): the shape
    of ``v = tf.Variable(...)`` inside the training loop, a new variable at every step.
    """
    return [i for i, (source, before, now) in enumerate(
                zip(analysed, held, flatten(sources), strict=False))
            if before and source.handle in created and source.trainable
            and hasattr(now, "handle") and id(now) != before
            and _variable_name(now) == source.name]


def _variable_name(variable: Any) -> str:
    """Return a variable's name as its source record has it (a Keras ``path``, else ``name``)."""
    path = getattr(variable, "path", None)
    return str(path if path is not None else getattr(variable, "name", "")).removesuffix(":0")
