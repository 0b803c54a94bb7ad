"""What TensorFlow's registered gradient function of an op says, asked without a run.

Read by :mod:`tapemagic.tracing.api_catalog` when the static checker's catalog is regenerated.
The runtime asks an op's gradient function about the op it recorded (:mod:`.witness`); the
catalog has no recorded op, so the op is built here from its definition alone: a placeholder
per input (``float32`` where the input's type allows it, else its default or first allowed
type; first of unknown rank, then with small static shapes when the gradient function needs
them), the attrs given and the definition's defaults, on a scratch ``FuncGraph`` that never
runs. Its gradient function is then called with ones, as :func:`.witness.scratch_gradients`
does, and says three things:

- which inputs of a differentiable dtype it leaves None (``PadV2``'s ``constant_values``,
  ``OneHot``'s ``on_value`` and ``off_value``): :func:`none_inputs`;
- whether it always raises: it cannot take the op's output gradients the way TensorFlow
  hands them over (``_SparseSparseMaximumGrad(op, grad)`` for an op with two outputs: a
  ``TypeError`` before its body runs), or it raises ``NotImplementedError``. The op is
  registered but has no gradient, and a gradient call whose path crosses it raises;
- whether it raises for some attr values only (``MatrixSolveLs`` with ``fast=False``):
  :func:`raises_with`.

An op that cannot be built from its definition alone (a list input, an attr with no default
that no input sets) is unknown: nothing is said about it.
"""

from __future__ import annotations

import inspect
import itertools
from functools import cache
from typing import Any

import tensorflow as tf
from tensorflow.python.framework import op_def_registry

from tapemagic.tracing import _tf_private as tfp

#: Static shapes tried per input when a gradient function needs more than unknown ranks.
_SHAPES: tuple[tuple[int, ...] | None, ...] = (None, (2, 2), ())


class _Unknown(Exception):
    """The op cannot be built from its definition alone."""


class _Unbound(Exception):
    """The gradient function's parameters cannot take the op and its output gradients."""


def none_inputs(op_type: str) -> frozenset[str]:
    """Return the inputs of ``op_type`` of a float type its registered gradient gives None.

    Empty for an op without a gradient function, one that gives every input a gradient, and
    one that cannot be asked (:class:`_Unknown`, or a gradient function that raises).
    """
    found = _ask(op_type, ())
    return found[0] if isinstance(found, tuple) else frozenset()


def always_raises(op_type: str) -> bool:
    """Whether ``op_type``'s registered gradient function raises whatever the op's inputs.

    Its parameters cannot bind the op and one gradient per output (checked with
    :func:`inspect.signature`, so no shape of ours is involved), or, with every attr at its
    default, it raises ``NotImplementedError`` on every signature that builds.
    """
    return _ask(op_type, ()) in (NotImplementedError, _Unbound)


@cache
def raises_with(op_type: str, attrs: tuple[tuple[str, Any], ...]) -> bool:
    """Whether the gradient raises with ``attrs`` but not with the definition's defaults.

    ``MatrixSolveLs`` with ``(("fast", False),)``: ``_MatrixSolveLsGrad`` raises ValueError
    ("Gradient not defined for fast=False"); with ``fast=True`` it gives every input one. The
    same signature is used for both, so only the attrs make the difference.
    """
    definition = op_def_registry.get(op_type)
    if definition is None or not attrs:
        return False
    defaults = {a.name for a in definition.attr if a.HasField("default_value")}
    if not all(name in defaults for name, _value in attrs):
        return False
    for shapes in _signatures(op_type):
        if not isinstance(_ask_on(op_type, (), shapes), tuple):
            continue  # this signature does not build, or the default gradient needs more
        flipped = _ask_on(op_type, attrs, shapes)
        return flipped is not None and not isinstance(flipped, tuple)
    return False


@cache
def _ask(op_type: str, attrs: tuple[tuple[str, Any], ...]) -> Any:
    """Return (None inputs,) on the first signature that works, else what it raised, or None.

    ``NotImplementedError`` is returned only when every signature that builds raises it.
    """
    raised: Any = None
    for shapes in _signatures(op_type):
        found = _ask_on(op_type, attrs, shapes)
        if isinstance(found, tuple):
            return found
        if found is not None:
            raised = found if raised in (None, found) else Exception
    return raised


def _signatures(op_type: str) -> list[tuple[tuple[int, ...] | None, ...]]:
    definition = op_def_registry.get(op_type)
    count = len(definition.input_arg) if definition is not None else 0
    if count > 4:  # 3^count builds: only unknown ranks for an op with many inputs
        return [(None,) * count]
    return list(itertools.product(_SHAPES, repeat=count))


def _ask_on(op_type: str, attrs: tuple[tuple[str, Any], ...],
            shapes: tuple[tuple[int, ...] | None, ...]) -> Any:
    """Build the op on one signature and call its gradient function.

    Returns ``(None inputs,)``, the exception type the gradient function raised, or None
    when the op cannot be built so (or has no gradient function).
    """
    try:
        function = tfp.gradient_lookup(op_type)
    except LookupError:  # no entry: the gradient call raises (the catalog's `raises`)
        return None
    scratch = tfp.FuncGraph("tapemagic_gradient_probe")
    try:
        with scratch.as_default():
            op, floats = _build(op_type, dict(attrs), shapes)
    except Exception:  # noqa: BLE001 - this signature or attr set does not build the op
        return None
    if function is None:  # registered as not differentiable: None for every input
        return (frozenset(name for name, floating in floats.items() if floating),)
    with scratch.as_default():
        try:
            grads_out = [tf.ones_like(t) if t.dtype.is_floating else None for t in op.outputs]
        except Exception:  # noqa: BLE001 - an output ones cannot be made like
            return None
        try:
            inspect.signature(function).bind(op, *grads_out)
        except TypeError:
            return _Unbound
        except ValueError:  # no signature to read (a builtin): call it and see
            pass
        try:
            grads = function(op, *grads_out)
        except Exception as error:  # noqa: BLE001 - what the gradient function says
            return type(error)
    if not isinstance(grads, (list, tuple)):
        grads = [grads]
    if len(grads) != len(floats):
        return None
    return (frozenset(name for name, grad in zip(floats, grads, strict=True)
                      if grad is None and floats[name]),)


def _build(op_type: str, attrs: dict[str, Any],
           shapes: tuple[tuple[int, ...] | None, ...]) -> tuple[Any, dict[str, bool]]:
    """Make ``op_type`` from placeholders; return it and {input name: of a float type}."""
    definition = op_def_registry.get(op_type)
    raw = getattr(tf.raw_ops, op_type, None)
    if definition is None or raw is None:
        raise _Unknown(op_type)
    allowed = {a.name: [tfp.as_dtype(t) for t in a.allowed_values.list.type]
               for a in definition.attr if a.type == "type"}
    defaults = {a.name: tfp.as_dtype(a.default_value.type) for a in definition.attr
                if a.type == "type" and a.HasField("default_value")}
    inputs: dict[str, Any] = {}
    floats: dict[str, bool] = {}
    for arg, shape in zip(definition.input_arg, shapes, strict=True):
        if arg.number_attr or arg.type_list_attr:
            raise _Unknown(op_type)
        if arg.type_attr:
            choices = allowed.get(arg.type_attr) or [tf.float32]
            dtype = tf.float32 if tf.float32 in choices else defaults.get(
                arg.type_attr, choices[0])
        else:
            dtype = tfp.as_dtype(arg.type)
        inputs[arg.name] = tf.compat.v1.placeholder(dtype, shape)
        floats[arg.name] = dtype.is_floating
    made = raw(**inputs, **attrs)
    op = next((o for o in reversed(tf.compat.v1.get_default_graph().get_operations())
               if o.type == op_type), None)
    if op is None or made is None and op.outputs:
        raise _Unknown(op_type)
    return op, floats
