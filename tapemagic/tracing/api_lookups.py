"""Names a TensorFlow function's body calls, and what the registry says of the ops it makes.

Read by :mod:`tapemagic.tracing.api_flow` (its :class:`~tapemagic.tracing.api_flow.Flow`
interprets a function's body on top of these lookups): which object a name or a chain of
module attributes names, which generated op a call builds, which Python function or Keras
operation's ``call`` is followed, and what an op's registered gradient says beyond "no
gradient" (:class:`Registry`, answered by :mod:`tapemagic.tracing.gradient_probe`): inputs it
gives None, option values that make it raise.
"""

from __future__ import annotations

import ast
import inspect
import types
from typing import Any, Protocol

from tapemagic.tracing._tf_private import api_ops

Deps = frozenset[str]
#: Whose Python functions are followed: TensorFlow's, and Keras' (its ops, its TF backend).
FOLLOWED = ("tensorflow", "keras.src")
#: The prefix of a gradient-less op's mark in a dependence set (no parameter starts so).
CUT = "!"
_NONE: Deps = frozenset()


def cuts(deps: Deps) -> Deps:
    """Return the marks of the gradient-less ops in a dependence set."""
    return frozenset(d for d in deps if d.startswith(CUT))


class Registry(Protocol):
    """What the gradient registry says of an op beyond "no gradient" (:mod:`.gradient_probe`)."""

    def none_inputs(self, op_type: str) -> frozenset[str]:
        """Return the inputs of a float type its registered gradient gives None."""

    def raises_with(self, op_type: str, attrs: tuple[tuple[str, Any], ...]) -> bool:
        """Return whether its gradient raises with these attrs and not with the defaults."""


class Lookups:
    """The lookups of one interpretation: its scope, fixed options and registry."""

    scope: dict[str, Any]
    names: frozenset[str]
    fixed: dict[str, Any]
    registry: Registry | None

    def raising(self, op: str, node: ast.Call) -> bool:
        """Whether the options this call passes make the op's gradient raise (``fast=False``)."""
        if self.registry is None:
            return False
        attrs: list[tuple[str, Any]] = []
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg is None:
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, (bool, str)):
                attrs.append((keyword.arg, value.value))
            elif isinstance(value, ast.Name) and value.id in self.fixed:
                attrs.append((keyword.arg, self.fixed[value.id]))
        return bool(attrs) and self.registry.raises_with(op, tuple(sorted(attrs)))

    def partly(self, node: ast.Call, op: str, lost: frozenset[str], given: list[Deps],
               named: dict[str, Deps]) -> Deps:
        """Return a generated op's result when its gradient gives some inputs None.

        What reaches those inputs (``PadV2``'s ``constant_values``) leaves only the op's
        input mark (``!PadV2.constant_values``); the other inputs pass on as they are.
        """
        target = api_ops.unwrap(self.resolve(node.func))
        try:
            params = list(inspect.signature(target).parameters)
        except (TypeError, ValueError):
            return frozenset().union(*given, *named.values())
        bound = dict(zip(params, given, strict=False)) | named
        out: Deps = _NONE
        for param, deps in bound.items():
            if param in lost and deps:
                out |= frozenset({f"{CUT}{op}.{param}"}) | cuts(deps)
            else:
                out |= deps
        return out

    def carried(self, node: ast.Call, op: str, given: list[Deps],
                named: dict[str, Deps]) -> Deps | None:
        """Return a differentiable generated op's result's dependence through its inputs.

        Only inputs that may carry a gradient pass theirs on: an input always integer,
        boolean or a string (``Sum``'s ``reduction_indices``, where ``axis`` goes) and an attr
        (``keep_dims``) keep only the cut marks that reached them, so ``tf.math.count_nonzero``
        depends on its input only through ``NotEqual``. None when the call cannot be bound.
        """
        target = api_ops.unwrap(self.resolve(node.func))
        try:
            params = list(inspect.signature(target).parameters)
        except (TypeError, ValueError):
            return None
        if len(given) > len(params) or any(k not in params for k in named):
            return None
        integer = api_ops.integer_inputs(op)
        bound = dict(zip(params, given, strict=False)) | named
        out: Deps = _NONE
        for index, param in enumerate(params):
            deps = bound.get(param, _NONE)
            out |= deps if index < len(integer) and not integer[index] else cuts(deps)
        return out

    def function(self, func: ast.expr) -> Any:
        """Return the Python function a call names (``helper``, ``array_ops.x``, ``tf.image.x``).

        Only TensorFlow's and Keras' own functions are followed (:data:`FOLLOWED`).
        """
        obj = self.resolve(func)
        if obj is None or isinstance(obj, type) or not callable(obj):
            return None
        target = api_ops.unwrap(obj)
        module = getattr(target, "__module__", "") or ""
        if not isinstance(target, types.FunctionType) or not module.startswith(FOLLOWED):
            return None
        return target

    def method(self, func: ast.expr, name: str) -> Any:
        """Return method ``name`` of the Keras class a call names (``Pad(...)``), if followed."""
        cls = self.resolve(func)
        found = getattr(cls, name, None) if isinstance(cls, type) else None
        module = getattr(found, "__module__", "") or ""
        if not isinstance(found, types.FunctionType) or not module.startswith(FOLLOWED):
            return None
        return found

    def resolve(self, func: ast.expr) -> Any:
        """Return the object a name or a chain of module attributes names in the scope."""
        if isinstance(func, ast.Name):
            return self.scope.get(func.id)
        if isinstance(func, ast.Attribute):
            holder = self.resolve(func.value)
            if isinstance(holder, types.ModuleType):
                return getattr(holder, func.attr, None)
        return None

    def generated_op(self, func: ast.expr) -> str | None:
        """Return the op type a call builds when it names a generated op function.

        ``gen_x_ops.name`` in the scope, or a public API that is one (``tf.image.hsv_to_rgb``
        in Keras' TensorFlow backend).
        """
        found = self.resolve(func) if isinstance(func, ast.Attribute) else None
        target = api_ops.unwrap(found) if found is not None else None
        module = getattr(target, "__module__", "") or ""
        if not module.rsplit(".", 1)[-1].startswith("gen_"):
            return None
        return op_type(target, self.names)

    def composite(self, test: ast.Call) -> bool:
        """Whether ``test`` is ``isinstance(x, C)`` with only composite-tensor classes ``C``."""
        if not (isinstance(test.func, ast.Name) and test.func.id == "isinstance"
                and len(test.args) == 2):
            return False
        given = test.args[1]
        classes = [self.resolve(e) for e in (
            given.elts if isinstance(given, ast.Tuple) else [given])]
        base = api_ops.composite_tensor()
        return bool(classes) and all(isinstance(c, type) and issubclass(c, base)
                                     for c in classes)

    def names_scope(self, node: ast.expr) -> bool:
        """Whether ``node`` makes a TensorFlow name scope (``ops.name_scope(name, ...)``)."""
        found = self.resolve(node.func) if isinstance(node, ast.Call) else None
        return "name_scope" in (getattr(found, "__name__", "") or "")

    def symbolic(self, func: ast.expr) -> bool:
        """Whether a call is Keras' test for symbolic tensors (``any_symbolic_tensors``).

        A Keras op returns a symbolic result only while a functional model is built; on the
        tensors of a training step it runs its backend function, the branch followed here.
        """
        return self.resolve(func) is api_ops.keras_symbolic_test()


def op_type(fn: Any, names: frozenset[str]) -> str | None:
    """Return the op type a generated ``gen_*_ops`` function builds (its op-type string)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    return next((c for c in code.co_consts if isinstance(c, str) and c in names), None)
