"""Expression rewrites that replace a cut by something differentiable (all unsafe).

TF-free; transforms for :func:`tapemagic.fixes.rewrite`. Each returns None when the expression
does not have its shape. The surrogates are the documented ones of the rule catalog:

- ``tf.round/floor/ceil/sign(x)`` (and ``keras.ops``) → the straight-through estimator
  ``x + tf.stop_gradient(tf.round(x) - x)``: the forward value is unchanged, the backward pass
  is the identity's (Bengio et al. 2013, "Estimating or propagating gradients through
  stochastic neurons"). Only for an ``x`` without calls, so writing it twice computes nothing
  twice (no second random draw).
- ``tf.cast(x, tf.int32)`` → ``x + tf.stop_gradient(tf.cast(tf.cast(x, tf.int32), x.dtype) - x)``:
  the same estimator for a cast to an integer type; the result stays a float.
- ``x > t`` (``>=, <, <=``) → ``(x - t) + tf.stop_gradient(tf.cast(x > t, x.dtype) - (x - t))``:
  the forward value is the 0/1 decision as a float; only for code that casts it to a float.
- ``x // d`` (``tf.math.floordiv(x, d)``) → ``x / d + tf.stop_gradient(x // d - x / d)``: the
  straight-through estimator of ``floor(x / d)`` (a bucketed regression output keeps its
  bucket value forward and the slope ``1 / d`` backward).
- ``tf.argmax(x, axis)`` → the soft argmax ``tf.reduce_sum(tf.nn.softmax(x, axis) * tf.range(
  n), axis)`` (expected index under the softmax): a float where the argmax was an int64.
- ``tf.one_hot(tf.argmax(x, -1), n)`` (``keras.ops`` too) → ``tf.nn.softmax(x)``: the one-hot
  of the winning class relaxed to the class probabilities (the soft argmax above would hand
  ``tf.one_hot`` a float index, which it refuses). The forward value changes from a hard
  one-hot to probabilities; the shapes match when ``n`` is the number of logits.
- ``tf.cast(tf.equal(x, tf.reduce_max(x, axis=-1, keepdims=True)), T)`` (or ``x == ...``), the
  same one-hot of the maximum written by hand → ``tf.nn.softmax(x)``.
"""

from __future__ import annotations

import libcst as cst

from tapemagic.fixes import dotted
from tapemagic.fixes.precedence import ATOM, attr, binop, call, level, parenthesized, subscript

_ST_OPS = {"tf.round", "tf.math.round", "tf.floor", "tf.math.floor", "tf.math.ceil",
           "tf.ceil", "tf.sign", "tf.math.sign", "tf.math.rint"}
_KERAS_ST_OPS = {"keras.ops.round", "keras.ops.floor", "keras.ops.ceil", "keras.ops.sign",
                 "ops.round", "ops.floor", "ops.ceil", "ops.sign"}
_INT_TYPES = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
_ARGMAX = {"tf.argmax", "tf.math.argmax"}
_FLOORDIV = {"tf.math.floordiv", "tf.floordiv"}
_REDUCE_MAX = {"tf.reduce_max", "tf.math.reduce_max"}
_EQUAL = {"tf.equal", "tf.math.equal"}
# one_hot(argmax(...)) spellings: the one_hot name → (its argmax names, the softmax to use)
_ONE_HOT = {"tf.one_hot": (_ARGMAX, "tf.nn.softmax"),
            "keras.ops.one_hot": ({"keras.ops.argmax"}, "keras.ops.softmax"),
            "ops.one_hot": ({"ops.argmax"}, "ops.softmax"),
            "tf.keras.ops.one_hot": ({"tf.keras.ops.argmax"}, "tf.keras.ops.softmax")}
# arguments of one_hot that keep a 0/1 float one-hot (anything else: no surrogate)
_ONE_HOT_KEPT = {"indices", "x", "depth", "num_classes", "dtype", "name"}
_COMPARE = (cst.GreaterThan, cst.GreaterThanEqual, cst.LessThan, cst.LessThanEqual)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _pure(node: cst.BaseExpression) -> bool:
    """Return True for names, attributes, subscripts, numbers and arithmetic on them (no calls)."""
    found: list[bool] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(True)

    node.visit(_Calls())
    return not found


def _ste(x: cst.BaseExpression, hard: cst.BaseExpression, stop: str = "tf.stop_gradient",
         same_term: bool = True) -> cst.BaseExpression:
    """``x + stop(hard - x)``: ``hard`` forward, the identity's gradient backward.

    With ``same_term``, a compound ``x`` is parenthesised in both places (where precedence
    does not need it too: it reads as one term, added and subtracted).
    """
    term = x if level(x) >= ATOM or not same_term else parenthesized(x)
    return binop(term, cst.Add(), call(stop, binop(hard, cst.Subtract(), term)))


def straight_through(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.round(x)`` (floor, ceil, sign, int cast) → ``x + tf.stop_gradient(tf.round(x) - x)``."""
    if not isinstance(node, cst.Call) or not node.args or not _pure(node.args[0].value):
        return None
    name, x = dotted(node.func), node.args[0].value.with_changes(lpar=[], rpar=[])
    if name in _ST_OPS and len(node.args) == 1:
        return _ste(x, node)
    if name in _KERAS_ST_OPS and len(node.args) == 1:
        return _ste(x, node, f"{name.rsplit('.', 1)[0]}.stop_gradient")
    if name == "tf.cast" and len(node.args) == 2:
        dtype = node.args[1].value
        kind = dotted(dtype).rsplit(".", 1)[-1] if not isinstance(dtype, cst.SimpleString) \
            else dtype.evaluated_value
        if kind in _INT_TYPES:
            return _ste(x, call("tf.cast", node, attr(x, "dtype")))
    return None


def soft_compare(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x > t`` → ``(x - t) + tf.stop_gradient(tf.cast(x > t, x.dtype) - (x - t))``."""
    if not (isinstance(node, cst.Comparison) and len(node.comparisons) == 1
            and isinstance(node.comparisons[0].operator, _COMPARE)):
        return None
    left, right = node.left, node.comparisons[0].comparator
    if not (_pure(left) and _pure(right)):
        return None
    op = node.comparisons[0].operator
    high, low = (left, right) if isinstance(op, (cst.GreaterThan, cst.GreaterThanEqual)) \
        else (right, left)
    margin = parenthesized(binop(high, cst.Subtract(), low))  # parenthesised for reading
    hard = call("tf.cast", node.with_changes(lpar=[], rpar=[]), attr(left, "dtype"))
    return binop(margin, cst.Add(), call("tf.stop_gradient",
                                         binop(hard, cst.Subtract(), margin)))


def floor_divide(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x // d`` → ``x / d + tf.stop_gradient(x // d - x / d)`` (``x``, ``d`` without calls)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.FloorDivide):
        x, d = node.left, node.right
    elif (isinstance(node, cst.Call) and dotted(node.func) in _FLOORDIV and len(node.args) == 2
          and all(a.keyword is None and a.star == "" for a in node.args)):
        x, d = node.args[0].value, node.args[1].value
    else:
        return None
    if not (_pure(x) and _pure(d)):
        return None
    ratio = binop(x, cst.Divide(), d)
    return _ste(ratio, node.with_changes(lpar=[], rpar=[]), same_term=False)


def _last_axis(call: cst.Call, default: str | None) -> str | None:
    """Return the argmax ``call``'s axis when it is the last one (``-1``; ``1`` of a matrix)."""
    axis = [a.value for a in call.args[1:2] if a.keyword is None] + \
        [a.value for a in call.args if a.keyword is not None and a.keyword.value == "axis"]
    text = _code(axis[0]) if len(axis) == 1 else default
    return text if text in ("-1", "1") else None


def one_hot_softmax(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.one_hot(tf.argmax(x, -1), n)`` → ``tf.nn.softmax(x)`` (``keras.ops`` alike)."""
    if not (isinstance(node, cst.Call) and dotted(node.func) in _ONE_HOT and node.args
            and node.args[0].keyword is None):
        return None
    names, softmax = _ONE_HOT[dotted(node.func)]
    if len(node.args) > 3 or any(a.keyword is not None and a.keyword.value not in _ONE_HOT_KEPT
                                 for a in node.args):
        return None  # on/off values, another axis: not a plain 0/1 one-hot
    if len(node.args) == 3 and node.args[2].keyword is None:
        return None  # a positional on_value (tf) or axis (keras)
    inner = node.args[0].value
    if not (isinstance(inner, cst.Call) and dotted(inner.func) in names and inner.args
            and inner.args[0].keyword is None and len(inner.args) <= 2):
        return None
    axis = _last_axis(inner, None)  # tf: the default axis is 0; keras: None (flattened)
    if axis is None:
        return None
    x = inner.args[0].value
    return call(softmax, x) if axis == "-1" else call(softmax, x, axis=cst.Integer(axis))


def _is_row_max(node: cst.BaseExpression, x: str) -> bool:
    """Return True for ``tf.reduce_max(x, axis=-1, keepdims=True)`` (positional or keyword)."""
    if not (isinstance(node, cst.Call) and dotted(node.func) in _REDUCE_MAX and node.args
            and node.args[0].keyword is None and _code(node.args[0].value) == x):
        return False
    named = {a.keyword.value: _code(a.value) for a in node.args if a.keyword is not None}
    plain = [_code(a.value) for a in node.args[1:] if a.keyword is None]
    axis = named.get("axis", plain[0] if plain else None)
    keep = named.get("keepdims", plain[1] if len(plain) > 1 else None)
    return axis == "-1" and keep == "True"


def max_mask_softmax(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.cast(tf.equal(x, tf.reduce_max(x, axis=-1, keepdims=True)), T)`` → softmax."""
    if not (isinstance(node, cst.Call) and dotted(node.func) == "tf.cast" and len(node.args) == 2
            and node.args[0].keyword is None):
        return None
    inner = node.args[0].value
    if isinstance(inner, cst.Call) and dotted(inner.func) in _EQUAL and len(inner.args) == 2:
        sides = (inner.args[0].value, inner.args[1].value)
    elif (isinstance(inner, cst.Comparison) and len(inner.comparisons) == 1
          and isinstance(inner.comparisons[0].operator, cst.Equal)):
        sides = (inner.left, inner.comparisons[0].comparator)
    else:
        return None
    for x, other in (sides, sides[::-1]):
        if _pure(x) and _is_row_max(other, _code(x)):
            return call("tf.nn.softmax", x)
    return None


def soft_argmax(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.argmax(x, axis)`` → ``tf.reduce_sum(tf.nn.softmax(x, axis) * tf.range(...), axis)``."""
    if not (isinstance(node, cst.Call) and dotted(node.func) in _ARGMAX and node.args
            and _pure(node.args[0].value) and len(node.args) <= 2):
        return None
    x = node.args[0].value.with_changes(lpar=[], rpar=[])
    axis: cst.BaseExpression = cst.Integer("0")  # tf.argmax's default axis
    if len(node.args) == 2:
        if node.args[1].keyword is not None and node.args[1].keyword.value != "axis":
            return None
        axis = node.args[1].value
    positions = call("tf.range", subscript(call("tf.shape", x), axis), dtype=attr(x, "dtype"))
    weights = call("tf.nn.softmax", x, axis=axis)
    return call("tf.reduce_sum", binop(weights, cst.Multiply(), positions), axis=axis)


#: What a soft surrogate changes in the forward pass (said in the fix's title).
SOFT_ARGMAX = ("a soft argmax (the expected index under a softmax) is a float near the hard "
               "index, not equal to it, so the loss changes")
SOFT_ONE_HOT = ("the class probabilities (a softmax) replace the hard one-hot of the winning "
                "class, so the loss changes")


def surrogate(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """Return the first surrogate above that keeps the forward value (None when none applies).

    A straight-through estimator computes the same value as the op it replaces; only its
    gradient differs.
    """
    for transform in (straight_through, floor_divide, soft_compare):
        new = transform(node)
        if new is not None:
            return new
    return None


def relaxed_one_hot(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """Rewrite the call that makes a one-hot of the maximum as ``tf.nn.softmax(x)``."""
    return one_hot_softmax(node) or max_mask_softmax(node)


def straight_through_clip(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.clip_by_value(x, a, b)`` → ``x + tf.stop_gradient(tf.clip_by_value(x, a, b) - x)``.

    The forward value is the clipped one; the gradient passes as if there were no clip, so a
    value stuck outside the range still learns (the straight-through estimator again).
    """
    if not (isinstance(node, cst.Call) and dotted(node.func) == "tf.clip_by_value"
            and len(node.args) == 3 and _pure(node.args[0].value)):
        return None
    return _ste(node.args[0].value.with_changes(lpar=[], rpar=[]), node)
