"""Expression rewrites of one call or attribute: the API that cut the path → one that does not.

TF-free; transforms for :func:`tapemagic.fixes.rewrite` (None when the shape does not match):

- ``model.predict(x, verbose=0)`` → ``model(x)`` (Keras ``predict`` returns NumPy);
- ``model.variables`` / ``model.weights`` → ``model.trainable_variables`` / ``trainable_weights``;
- ``tf.numpy_function(np.sinh, [x], tf.float32)`` → ``tf.math.sinh(x)`` for a NumPy function
  with a TensorFlow twin, or ``tf.py_function(f, [x], T)`` when ``f``'s body uses no NumPy
  (:func:`numpy_function_to_tf`);
- ``tf.Variable(2, ...)`` → ``tf.Variable(2.0, ...)`` (an integer variable cannot be trained);
- ``x = x - e`` / ``x = x + e`` → ``x.assign_sub(e)`` / ``x.assign_add(e)`` (a statement);
- ``tape.gradient(d_loss, sources)`` → ``tape.gradient(g_loss, sources)`` (the target named).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import libcst as cst

from tapemagic.fixes import NUMPY_TO_TF, dotted

#: NumPy elementwise functions whose TensorFlow twin has the same meaning (one tensor in).
UNARY_TO_TF = {**{k: v for k, v in NUMPY_TO_TF.items() if k not in ("np.maximum", "np.minimum")},
               "np.sinh": "tf.math.sinh", "np.cosh": "tf.math.cosh", "np.sin": "tf.sin",
               "np.cos": "tf.cos", "np.log1p": "tf.math.log1p", "np.expm1": "tf.math.expm1",
               "np.negative": "tf.negative", "np.reciprocal": "tf.math.reciprocal"}
_SOURCES = {"variables": "trainable_variables", "weights": "trainable_weights"}


def predict_to_call(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``model.predict(x, verbose=0)`` → ``model(x)``: the call keeps the tensor on the tape."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "predict" and node.args
            and node.args[0].keyword is None):
        return None
    first = node.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return cst.Call(func=node.func.value, args=[first])


def replace_target(name: str) -> Callable[[cst.BaseExpression], cst.BaseExpression | None]:
    """Return the transform ``tape.gradient(a, s)`` → ``tape.gradient(name, s)``.

    Only a ``.gradient`` call whose target is a plain name passed by position.
    """

    def transform(node: cst.BaseExpression) -> cst.BaseExpression | None:
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value == "gradient" and node.args
                and node.args[0].keyword is None and isinstance(node.args[0].value, cst.Name)):
            return None
        first = node.args[0].with_changes(value=cst.Name(name))
        return node.with_changes(args=[first, *node.args[1:]])

    return transform


def trainable_sources(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``model.variables`` → ``model.trainable_variables`` (anywhere in the expression)."""

    class _Swap(cst.CSTTransformer):
        def leave_Attribute(self, old: cst.Attribute, new: cst.Attribute) -> cst.Attribute:
            if new.attr.value in _SOURCES:
                return new.with_changes(attr=cst.Name(_SOURCES[new.attr.value]))
            return new

    changed = node.visit(_Swap())
    assert isinstance(changed, cst.BaseExpression)
    return changed if not changed.deep_equals(node) else None


def float_variable(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.Variable(2, ...)`` → ``tf.Variable(2.0, ...)``."""
    if not (isinstance(node, cst.Call) and dotted(node.func) in ("tf.Variable", "Variable")
            and node.args and isinstance(node.args[0].value, cst.Integer)
            and not any(a.keyword is not None and a.keyword.value == "dtype" for a in node.args)):
        return None
    value = node.args[0].value
    args = [node.args[0].with_changes(value=cst.Float(value.value + ".0")), *node.args[1:]]
    return node.with_changes(args=args)


def numpy_function_to_tf(defined: Callable[[str], ast.FunctionDef | None]
                         ) -> Callable[[cst.BaseExpression], cst.BaseExpression | None]:
    """Return the transform for ``tf.numpy_function(f, [x, ...], T)``; ``defined`` finds ``def f``.

    ``f`` a NumPy function with a TensorFlow twin and one input → the twin applied to it;
    ``f`` a function defined in the source whose body names no NumPy (``np``, ``numpy``,
    ``.numpy()``) → ``tf.py_function`` (which records its TensorFlow ops on the tape).
    """

    def transform(node: cst.BaseExpression) -> cst.BaseExpression | None:
        if not (isinstance(node, cst.Call) and dotted(node.func).endswith("numpy_function")
                and len(node.args) >= 3 and isinstance(node.args[1].value, cst.List)):
            return None
        func, inputs = dotted(node.args[0].value), node.args[1].value.elements
        if func in UNARY_TO_TF and len(inputs) == 1:
            arg = cst.Arg(inputs[0].value)
            return cst.Call(func=cst.parse_expression(UNARY_TO_TF[func]), args=[arg])
        body = defined(func) if func.isidentifier() else None
        if body is None or _uses_numpy(body):
            return None
        prefix = dotted(node.func).rsplit(".", 1)[0]
        return node.with_changes(func=cst.parse_expression(f"{prefix}.py_function"))

    return transform


def _uses_numpy(function: ast.FunctionDef) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in ("np", "numpy"):
            return True
        if isinstance(node, ast.Attribute) and node.attr in ("numpy", "astype"):
            return True
    return False


def rebind_to_assign(node: cst.BaseExpression | cst.BaseSmallStatement
                     ) -> cst.BaseSmallStatement | None:
    """``x = x - e`` → ``x.assign_sub(e)``; ``x = x + e`` → ``x.assign_add(e)``."""
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
            and isinstance(node.value, cst.BinaryOperation)):
        return None
    name = node.targets[0].target.value
    value = node.value
    if not (isinstance(value.left, cst.Name) and value.left.value == name):
        return None
    method = {cst.Subtract: "assign_sub", cst.Add: "assign_add"}.get(type(value.operator))
    if method is None:
        return None
    call = cst.Call(func=cst.Attribute(cst.Name(name), cst.Name(method)),
                    args=[cst.Arg(value.right)])
    return cst.Expr(call)


def watch_backing_variable(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tape.watch(v)`` → ``tape.watch(v.value)``: a Keras 3 variable's backing tf.Variable."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "watch" and len(node.args) == 1
            and isinstance(node.args[0].value, (cst.Name, cst.Attribute))):
        return None
    value = node.args[0].value
    if isinstance(value, cst.Attribute) and value.attr.value in ("value", "inputs", "outputs"):
        return None
    return node.with_changes(args=[node.args[0].with_changes(
        value=cst.Attribute(value, cst.Name("value")))])
