"""``tf.numpy_function(f, [x], T)`` where ``f`` is NumPy maths → a TensorFlow twin of ``f``.

TF-free; LibCST over the user's source. A function whose body is straight-line NumPy maths
(assignments and a ``return``) built from functions and array methods that TensorFlow has
with the same meaning (``np.exp`` → ``tf.exp``, ``a.max(axis=-1, keepdims=True)`` →
``tf.reduce_max(a, axis=-1, keepdims=True)``, ``a.astype("float32")`` → ``tf.cast(a,
"float32")``) is copied as ``f_tf`` with its body in TensorFlow ops, right after ``def f``
(``f`` itself stays, for its other callers), and the ``numpy_function`` call becomes
``f_tf(x)``: the ops are then recorded on the tape.

When no rewrite can be right, :func:`translate` says why instead: a NumPy function that is
piecewise constant (``np.argsort``, ``np.round``, ...) has no useful gradient in TensorFlow
either, so the translated code would still be cut; control flow, in-place writes and calls to
other functions are not translated (the fix would be a guess).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tapemagic.fixes import dotted
from tapemagic.fixes.statements import _bound, source_of
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit, Location

#: NumPy function (after ``np.``) → its TensorFlow twin (same arguments, same meaning).
FUNCTIONS = {
    "exp": "tf.exp", "log": "tf.math.log", "sqrt": "tf.sqrt", "square": "tf.square",
    "abs": "tf.abs", "absolute": "tf.abs", "tanh": "tf.tanh", "sin": "tf.sin", "cos": "tf.cos",
    "sinh": "tf.math.sinh", "cosh": "tf.math.cosh", "log1p": "tf.math.log1p",
    "expm1": "tf.math.expm1", "negative": "tf.negative", "reciprocal": "tf.math.reciprocal",
    "maximum": "tf.maximum", "minimum": "tf.minimum", "power": "tf.pow",
    "sum": "tf.reduce_sum", "mean": "tf.reduce_mean", "max": "tf.reduce_max",
    "amax": "tf.reduce_max", "min": "tf.reduce_min", "amin": "tf.reduce_min",
    "prod": "tf.reduce_prod", "std": "tf.math.reduce_std", "var": "tf.math.reduce_variance",
    "clip": "tf.clip_by_value", "where": "tf.where", "matmul": "tf.linalg.matmul",
    "transpose": "tf.transpose", "reshape": "tf.reshape", "stack": "tf.stack",
    "expand_dims": "tf.expand_dims", "squeeze": "tf.squeeze", "cumsum": "tf.math.cumsum",
    "sort": "tf.sort",
}
#: Array methods → the TensorFlow function taking the array first (same arguments after it).
METHODS = {"sum": "tf.reduce_sum", "mean": "tf.reduce_mean", "max": "tf.reduce_max",
           "min": "tf.reduce_min", "prod": "tf.reduce_prod", "std": "tf.math.reduce_std",
           "var": "tf.math.reduce_variance", "astype": "tf.cast", "clip": "tf.clip_by_value",
           "cumsum": "tf.math.cumsum"}
#: NumPy functions whose value is piecewise constant (or an index): no gradient anywhere.
PIECEWISE_CONSTANT = {"argsort", "argmax", "argmin", "round", "around", "rint", "floor", "ceil",
                      "sign", "trunc", "fix", "unique", "searchsorted", "digitize", "histogram",
                      "nonzero", "bincount", "isclose", "equal", "greater", "less",
                      "greater_equal", "less_equal", "floor_divide", "heaviside", "rank"}
_CONSTANTS = {"pi", "e", "newaxis", "inf"}
_DTYPES = {"float16", "float32", "float64", "int32", "int64", "bool_"}
_NUMPY = ("np", "numpy")


@dataclass(frozen=True)
class Translation:
    """The edits of a translated ``numpy_function`` call, or why there are none."""

    edits: tuple[Edit, ...] = ()
    why: str | None = None


class _Untranslatable(Exception):
    pass


class _ToTF(cst.CSTTransformer):
    """Rewrites NumPy calls, array methods and ``.T`` to TensorFlow; raises on anything else."""

    def leave_Attribute(self, old: cst.Attribute, new: cst.Attribute) -> cst.BaseExpression:
        if isinstance(new.value, cst.Name) and new.value.value in _NUMPY:
            name = new.attr.value
            if name in _DTYPES:
                return cst.parse_expression(f"tf.{name.rstrip('_')}")
            return new  # a function (checked at its call) or a constant such as np.pi
        if new.attr.value == "T":
            return cst.Call(cst.parse_expression("tf.transpose"), [cst.Arg(new.value)])
        return new

    def leave_Call(self, old: cst.Call, new: cst.Call) -> cst.BaseExpression:
        name = dotted(new.func)
        head, _, tail = name.partition(".")
        if head in _NUMPY and tail:
            if tail in PIECEWISE_CONSTANT:
                raise _Untranslatable(
                    f"`{name}` is piecewise constant (or returns positions), so it has no "
                    "useful gradient in TensorFlow either: rewriting the function in TensorFlow "
                    "ops would leave the weights cut. The loss needs a differentiable relaxation "
                    "of it (for ranks, a soft rank from sigmoids of pairwise differences), which "
                    "changes what it computes, so no edit is offered")
            twin = FUNCTIONS.get(tail)
            if twin is None:
                raise _Untranslatable(f"`{name}` has no TensorFlow twin this fix knows")
            if tail == "reshape" and len(new.args) > 2 or tail == "where" and len(new.args) != 3:
                raise _Untranslatable(f"`{name}` is called with arguments TensorFlow reads "
                                      "otherwise")
            _plain_keywords(name, new)
            return new.with_changes(func=cst.parse_expression(twin))
        if head == "tf" and tail and tail.split(".")[-1] not in _DTYPES:
            return new  # already TensorFlow (a dtype called as a function is not)
        if isinstance(new.func, cst.Attribute) and new.func.attr.value in METHODS \
                and not (isinstance(new.func.value, cst.Name) and new.func.value.value in _NUMPY):
            _plain_keywords(f".{new.func.attr.value}", new)
            args = [cst.Arg(new.func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(
                " ")) if new.args else cst.MaybeSentinel.DEFAULT), *new.args]
            return cst.Call(cst.parse_expression(METHODS[new.func.attr.value]), args)
        if isinstance(new.func, cst.Attribute) and new.func.attr.value == "reshape" \
                and len(new.args) == 1 and new.args[0].keyword is None:
            return cst.Call(cst.parse_expression("tf.reshape"),
                            [cst.Arg(new.func.value, comma=cst.Comma(
                                whitespace_after=cst.SimpleWhitespace(" "))), new.args[0]])
        raise _Untranslatable(f"it calls `{cst.Module([]).code_for_node(new.func)}`, which "
                              "this fix does not translate")


def _plain_keywords(name: str, call: cst.Call) -> None:
    """Raise unless every keyword of ``call`` is one TensorFlow's twin takes alike."""
    for arg in call.args:
        if arg.star or arg.keyword is not None and arg.keyword.value not in ("axis", "keepdims"):
            raise _Untranslatable(f"`{name}` is called with an argument its TensorFlow twin "
                                  "does not take")


def _check_statements(body: cst.BaseSuite) -> None:
    if not isinstance(body, cst.IndentedBlock):
        raise _Untranslatable("its body is on the def line")
    for stmt in body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            raise _Untranslatable("its body has control flow (if/for/while/with), which this "
                                  "fix does not translate")
        for small in stmt.body:
            if isinstance(small, cst.Return):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString,
                                                                        cst.ConcatenatedString)):
                continue  # a docstring
            if isinstance(small, (cst.Assign, cst.AugAssign)):
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) \
                    else [small.target]
                if all(isinstance(t, cst.Name) for t in targets):
                    continue
                raise _Untranslatable("it writes into an array in place (a TensorFlow tensor "
                                      "cannot be written)")
            raise _Untranslatable("its body has statements this fix does not translate")


def _remaining_numpy(node: cst.CSTNode) -> bool:
    found: list[bool] = []

    class _Find(cst.CSTVisitor):
        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            if isinstance(attr.value, cst.Name) and attr.value.value in _NUMPY:
                if attr.attr.value not in _CONSTANTS:
                    found.append(True)
                return False
            return True

        def visit_Name(self, name: cst.Name) -> None:
            if name.value in _NUMPY:
                found.append(True)

    node.visit(_Find())
    return bool(found)


def translate_at(location: Location, index: SourceIndex) -> Translation:
    """Return :func:`translate` for the ``numpy_function`` call spanning ``location``."""
    text = index.text(location)
    try:
        call = cst.parse_expression(text) if text is not None else None
    except cst.ParserSyntaxError:
        return Translation()
    if not (isinstance(call, cst.Call) and dotted(call.func).endswith("numpy_function")):
        return Translation()
    assert location.col is not None and location.end_col is not None
    return translate(index, location.file, call,
                     Edit(location.line, location.col, location.line, location.end_col, ""))


def translate(index: SourceIndex, file: str, call: cst.Call, call_edit: Edit) -> Translation:
    """Return the edits rewriting ``tf.numpy_function(f, [x, ...], T)`` (at ``call_edit``).

    ``call_edit`` is the location of the call with an empty text; the translation fills it
    with ``f_tf(x, ...)`` and inserts ``def f_tf`` after ``def f``. ``why`` says what stops it.
    """
    given = {("func", "inp")[i]: a.value for i, a in enumerate(call.args[:2])
             if a.keyword is None}
    given.update({a.keyword.value: a.value for a in call.args if a.keyword is not None})
    func, inp = given.get("func"), given.get("inp")
    if not (isinstance(func, cst.Name) and isinstance(inp, (cst.List, cst.Tuple))):
        return Translation()
    name = func.value
    inputs = inp.elements
    src = source_of(index, file)
    defs = [n for n in (src.positions if src else {}) if isinstance(n, cst.FunctionDef)
            and n.name.value == name]
    if src is None or len(defs) != 1:
        return Translation()
    fdef = defs[0]
    params = fdef.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None \
            or params.kwonly_params or params.posonly_params \
            or len(params.params) != len(inputs):
        return Translation()
    try:
        _check_statements(fdef.body)
        body = fdef.body.visit(_ToTF())
    except _Untranslatable as why:
        return Translation(why=f"`{name}` is not rewritten in TensorFlow ops: {why}.")
    assert isinstance(body, cst.BaseSuite)
    if _remaining_numpy(body):
        return Translation(why=f"`{name}` is not rewritten in TensorFlow ops: it uses NumPy "
                           "in a way this fix does not translate.")
    taken = set().union(*(_bound(s) for s in src.wrapper.module.body))
    new_name = next(f"{name}_tf{n or ''}" for n in range(100) if f"{name}_tf{n or ''}" not in taken)
    copy = fdef.with_changes(name=cst.Name(new_name), decorators=[], body=body,
                             leading_lines=[])
    pos = src.positions[fdef]
    indent = " " * pos.start.column
    code = "".join(indent + line if line.strip() else line
                   for line in cst.Module([]).code_for_node(copy).splitlines(keepends=True))
    gap = "\n\n" if not indent else "\n"
    args = ", ".join(cst.Module([]).code_for_node(e.value) for e in inputs)
    return Translation(edits=(
        Edit(pos.end.line + 1, 0, pos.end.line + 1, 0, gap + code),
        Edit(call_edit.line, call_edit.col, call_edit.end_line, call_edit.end_col,
             f"{new_name}({args})")))
