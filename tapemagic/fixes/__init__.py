"""Quick-fix edits, computed on the user's source with LibCST: the building blocks rules use.

TF-free. A rule module's ``fix`` picks a transform below and calls :func:`rewrite` on its
finding's location (cell coordinates: 1-based lines, 0-based columns); the transform rewrites
only the expression there and returns None when the code does not have the expected shape, so a
fix is never a guess. Edits are offered as quick fixes, applied only on a click (their
applicability comes from the catalog).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, TypeAlias

from tapemagic._lazy import lazy_import
from tapemagic.graph.numpy_chain import Link
from tapemagic.locations import SourceIndex, enclosing_function
from tapemagic.report.model import Edit, Location

if TYPE_CHECKING:
    import libcst as cst
else:  # LibCST loads when the first fix is computed, not when the rules are imported
    cst = lazy_import("libcst")

Transform: TypeAlias = "Callable[[cst.BaseExpression], cst.BaseExpression | None]"

#: The transform modules below, each loaded (with LibCST) on first use by a rule's fix.
_SUBMODULES = frozenset({"blocks", "calls", "functional", "host_value", "numpy_body", "precedence",
                         "statements", "surrogates", "watches"})


def __getattr__(name: str) -> ModuleType:
    if name not in _SUBMODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = lazy_import(f"{__name__}.{name}")
    globals()[name] = module
    return module

# NumPy functions with a TensorFlow twin of the same meaning (used for the chain after .numpy()).
NUMPY_TO_TF = {
    "np.sqrt": "tf.sqrt", "np.square": "tf.square", "np.exp": "tf.exp", "np.log": "tf.math.log",
    "np.abs": "tf.abs", "np.real": "tf.math.real", "np.copy": "tf.identity",
    "np.mean": "tf.reduce_mean", "np.sum": "tf.reduce_sum",
    "np.tanh": "tf.tanh", "np.maximum": "tf.maximum", "np.minimum": "tf.minimum",
    "np.std": "tf.math.reduce_std",  # both the population deviation (NumPy's ddof=0)
}
_UNWRAP_CALLS = ("tf.keras.backend.eval", "tf.keras.backend.get_value", "tf.stop_gradient",
                 "keras.ops.convert_to_numpy", "K.eval", "K.get_value")


class NoEdit(tuple):  # type: ignore[type-arg]
    """A ``fix()`` result with no edit, and ``why`` no fix shape can be right.

    An empty tuple (so it is read as "no edits" everywhere); the finding's fix shows ``why``
    as its ``verification`` instead of an edit that could not verify.
    """

    why: str

    def __new__(cls, why: str) -> NoEdit:
        """Return an empty result carrying ``why``."""
        made = super().__new__(cls, ())
        made.why = why
        return made


class ChangesValues(tuple):  # type: ignore[type-arg]
    """A ``fix()`` result whose edits change what the code computes on purpose, and ``how``.

    A tuple of edits, read as such everywhere; the finding's fix then says ``how`` in its title
    and is never shown as a plain "verified" (``Fix.keeps_value`` False). Every other edit
    promises to keep the forward value (a straight-through estimator, a TensorFlow copy of a
    NumPy body, a line moved into the tape), which the fix verification checks.
    """

    how: str

    def __new__(cls, edits: Sequence[Edit], how: str) -> ChangesValues:
        """Return ``edits`` marked as changing values (``how``: what changes)."""
        made = super().__new__(cls, tuple(edits))
        made.how = how
        return made


def rewrite(location: Location, index: SourceIndex, transform: Transform) -> Edit | None:
    """Return the edit replacing the one-line expression at ``location`` by ``transform``'s.

    None when the location spans several lines, does not parse as one expression, or the
    transform does not apply (returns None or the same code).
    """
    text = index.text(location)
    if text is None:
        return None
    try:
        node = cst.parse_expression(text)
    except cst.ParserSyntaxError:
        return None
    from tapemagic.fixes import precedence

    new = transform(node)
    if new is None or cst.Module([]).code_for_node(new) == text:
        return None
    assert location.col is not None and location.end_col is not None
    # in parentheses where the code around it would bind its parts otherwise
    code = precedence.fitted(new, "".join(index.lines(location.file)) or None, location.line,
                             location.col, location.end_col)
    return Edit(location.line, location.col, location.line, location.end_col, code)


def rewrite_outer(location: Location, index: SourceIndex, transform: Transform) -> Edit | None:
    """Return the edit replacing the call whose first argument is the expression at ``location``.

    For a cut op whose fix rewrites the call around it (``tf.one_hot(tf.argmax(x, -1), n)``
    located at the ``tf.argmax``): the enclosing call, on the same line, is handed to
    ``transform``. None when there is no such call or the transform does not apply.
    """
    from tapemagic.fixes import precedence
    from tapemagic.fixes.statements import source_of

    if location.col is None or location.end_col is None \
            or location.end_line not in (None, location.line):
        return None
    src = source_of(index, location.file)
    if src is None:
        return None
    for node, pos in src.positions.items():
        if not (isinstance(node, cst.Call) and node.args and pos.start.line == location.line
                and pos.end.line == location.line):
            continue
        inner = src.positions[node.args[0].value]
        if (inner.start.line, inner.start.column, inner.end.column) == \
                (location.line, location.col, location.end_col):
            new = transform(node)
            if new is None:
                return None
            code = precedence.fitted(new, "".join(index.lines(location.file)), pos.start.line,
                                     pos.start.column, pos.end.column)
            return Edit(pos.start.line, pos.start.column, pos.end.line, pos.end.column, code)
    return None


def numpy_link_edits(links: Sequence[Link], index: SourceIndex, file: str,
                     root: Edit) -> list[Edit]:
    """``np.sqrt`` → ``tf.sqrt`` for each NumPy call the converted value went through.

    Links that overlap the ``root`` edit, have no TensorFlow twin, or no longer match the
    source text are skipped.
    """
    edits = []
    for link in links:
        replacement = NUMPY_TO_TF.get(link.label)
        if replacement is None:
            continue
        if link.line == root.line and link.col < root.end_col and root.col < link.func_end_col:
            continue  # overlaps the root edit
        text = index.line(file, link.line)[link.col:link.func_end_col]
        try:
            name = dotted(cst.parse_expression(text))
        except cst.ParserSyntaxError:
            continue
        if name.split(".")[-1] != link.label.split(".")[-1]:
            continue  # the source changed since the run
        edits.append(Edit(link.line, link.col, link.line, link.func_end_col, replacement))
    return edits


def appended_links(index: SourceIndex, file: str, line: int) -> list[Edit]:
    """``values.append(<converted>)`` → later ``np.mean(values)`` (etc.) → their ``tf.*`` twins.

    The NumPy chain follows assigned names; a list filled with ``append`` is followed here: in
    the function (or module) around ``line``, the NumPy calls after it that take the list.
    """
    tree = index.tree(file)
    if tree is None:
        return []
    receiver = None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and node.lineno == line
                and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                and isinstance(node.func.value, ast.Name)):
            receiver = node.func.value.id
    if receiver is None:
        return []
    scope = enclosing_function(tree, line)
    edits = []
    for node in ast.walk(scope):
        if (isinstance(node, ast.Call) and node.lineno > line and node.args
                and isinstance(node.args[0], ast.Name) and node.args[0].id == receiver
                and isinstance(node.func, ast.Attribute)):
            name = ast.unparse(node.func)
            if name in NUMPY_TO_TF and node.func.end_lineno == node.func.lineno:
                edits.append(Edit(node.func.lineno, node.func.col_offset, node.func.lineno,
                                  node.func.end_col_offset or 0, NUMPY_TO_TF[name]))
    return sorted(edits, key=lambda e: (e.line, e.col))


def drop_numpy(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``y.numpy()`` → ``y``; ``K.eval(y)`` → ``y``; ``np.sqrt(t)`` → ``tf.sqrt(t)``."""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value == "numpy" and not node.args:
            return node.func.value
    if isinstance(node, cst.Call) and dotted(node.func) == "float" and len(node.args) == 1 \
            and node.args[0].keyword is None and node.args[0].star == "":
        return node.args[0].value  # float(t) of a scalar tensor: keep the tensor
    unwrapped = unwrap(node)
    if unwrapped is not None:
        return unwrapped
    if isinstance(node, cst.Call):
        name = dotted(node.func)
        if name in NUMPY_TO_TF:
            return node.with_changes(func=cst.parse_expression(NUMPY_TO_TF[name]))
    return None


def unwrap(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.stop_gradient(y)`` (or a Keras eval/get_value/convert_to_numpy) → ``y``."""
    if isinstance(node, cst.Call) and dotted(node.func) in _UNWRAP_CALLS and len(node.args) == 1:
        return node.args[0].value
    return None


def drop_watch_flag(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.GradientTape(watch_accessed_variables=False)`` → ``tf.GradientTape()``."""
    return _drop_keyword(node, "watch_accessed_variables")


def drop_back_prop_flag_or_unwrap(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``tf.map_fn(f, xs, back_prop=False)`` → ``tf.map_fn(f, xs)``; else :func:`unwrap`."""
    return _drop_keyword(node, "back_prop") or unwrap(node)


def _drop_keyword(node: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
    """Return the call ``node`` without its ``name=`` argument (None if it has none)."""
    if not isinstance(node, cst.Call):
        return None
    kept = [a for a in node.args if not (a.keyword is not None and a.keyword.value == name)]
    if len(kept) == len(node.args):
        return None
    if kept:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(args=kept)


def dotted(node: cst.BaseExpression) -> str:
    """Return ``a.b.c`` for a name/attribute chain ('' for anything else)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{dotted(node.value)}.{node.attr.value}"
    return ""

def argmax_partners(index: SourceIndex, file: str, line: int) -> list[Edit]:
    """``d = tf.argmax(x, ...)`` made a soft (float) argmax → later ``d - tf.argmax(y, ...)``.

    The soft argmax surrogate is a float where the argmax was an int64, so an integer argmax
    combined with it by ``+``/``-`` in the same function would raise a dtype error: that
    operand is cast to the surrogate's dtype (``tf.cast(tf.argmax(y, 1), x.dtype)``).
    """
    tree = index.tree(file)
    if tree is None:
        return []
    argmax = ("tf.argmax", "tf.math.argmax")
    made = next((node for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and node.lineno == line
                 and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                 and isinstance(node.value, ast.Call) and node.value.args
                 and ast.unparse(node.value.func) in argmax), None)
    if made is None:
        return []
    from tapemagic.fixes import precedence

    name = made.targets[0].id  # type: ignore[attr-defined]
    dtype = precedence.attr(cst.parse_expression(
        ast.unparse(made.value.args[0])), "dtype")  # type: ignore[attr-defined]
    scope = enclosing_function(tree, line)
    edits = []
    for node in ast.walk(scope):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))
                and node.lineno > line):
            continue
        for mine, other in ((node.left, node.right), (node.right, node.left)):
            if (isinstance(mine, ast.Name) and mine.id == name and isinstance(other, ast.Call)
                    and ast.unparse(other.func) in argmax and other.end_lineno == other.lineno):
                cast = precedence.call("tf.cast", cst.parse_expression(ast.unparse(other)),
                                       dtype)
                edits.append(Edit(other.lineno, other.col_offset, other.lineno,
                                  other.end_col_offset or 0, precedence.code(cast)))
    return edits


# calls that read an argument as integer positions: name → (position, keyword) of that argument
_INDEX_ARGS = {"tf.one_hot": (0, "indices"), "keras.ops.one_hot": (0, "x"),
               "tf.gather": (1, "indices"), "tf.gather_nd": (1, "indices"),
               "tf.nn.embedding_lookup": (1, "ids"), "keras.ops.take": (1, "indices")}


_CONDITIONS = {"tf.cond", "tf.compat.v1.cond", "tf.case"}

_EQUALITY = {"tf.equal", "tf.math.equal", "tf.not_equal", "tf.math.not_equal",
             "keras.ops.equal", "keras.ops.not_equal"}


def index_only(location: Location, index: SourceIndex) -> str | None:
    """Say why no surrogate can help when the value at ``location`` only reaches dead ends.

    The value (or the name it is assigned to, in the function around it; maybe through a
    ``tf.cast``) must reach nothing but index arguments (``tf.one_hot``'s indices,
    ``tf.gather``'s, a subscript) or equality tests (``tf.equal``, ``==``), which have no
    gradient in any form: a float surrogate cannot stand where an index goes, and a surrogate
    compared for equality is cut again. None when some use is neither (the usual case: then a
    surrogate may connect that use).
    """
    tree = index.tree(location.file)
    if tree is None or location.col is None:
        return None
    scope = enclosing_function(tree, location.line)
    parents = {child: node for node in ast.walk(scope) for child in ast.iter_child_nodes(node)}
    found = next((n for n in ast.walk(scope) if isinstance(n, ast.expr)
                  and (n.lineno, n.col_offset, n.end_col_offset)
                  == (location.line, location.col, location.end_col)), None)
    if found is None:
        return None
    uses: list[ast.AST] = [found]
    holder = parents.get(found)
    if isinstance(holder, ast.Assign) and len(holder.targets) == 1 \
            and isinstance(holder.targets[0], ast.Name):
        name = holder.targets[0].id
        uses = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name
                and isinstance(n.ctx, ast.Load) and n.lineno > location.line]
    places = [_dead_end(use, parents) for use in uses]
    if not places or any(p is None for p in places):
        return None
    shown = ", ".join(dict.fromkeys(p[1] for p in places if p))
    if all(p is not None and p[0] == "index" for p in places):
        return (f"`{index.text(location)}` is only used as an integer index ({shown}): an "
                "index has no gradient in any form and a float surrogate cannot stand where an "
                "index goes, so no edit is offered; the loss has to be computed from the "
                "prediction itself (a distance or a cross-entropy on the values, not on their "
                "index)")
    if all(p is not None and p[0] == "condition" for p in places):
        return (f"`{index.text(location)}` only decides which branch runs ({shown}): a "
                "condition has no gradient in any form, so no edit is offered; let the gate's "
                "value reach the loss (mix the branches by it, `g * a + (1 - g) * b`) or give "
                "it a loss of its own")
    return (f"`{index.text(location)}` only reaches {shown}, which has no gradient in any form "
            "(an index or an equality test is piecewise constant): a surrogate of this op "
            "alone leaves the weights cut, so no edit is offered; the loss has to be computed "
            "from the prediction itself (a cross-entropy, or a soft count such as "
            "`p * y + (1 - p) * (1 - y)` instead of counting equal values)")


def _dead_end(use: ast.AST, parents: dict[ast.AST, ast.AST]) -> tuple[str, str] | None:
    """Return (``"index"`` or ``"equal"``, where) when ``use`` goes nowhere differentiable."""
    parent = parents.get(use)
    if isinstance(parent, ast.Call) and ast.unparse(parent.func) == "tf.cast" \
            and parent.args and parent.args[0] is use:
        use, parent = parent, parents.get(parent)
    if isinstance(parent, ast.Subscript) and parent.slice is use:
        return "index", f"a subscript at line {parent.lineno}"
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1 \
            and isinstance(parent.ops[0], (ast.Eq, ast.NotEq)):
        return "equal", f"`==` at line {parent.lineno}"
    if isinstance(parent, (ast.If, ast.While, ast.IfExp)) and parent.test is use:
        return "condition", f"the condition at line {parent.lineno}"
    if not isinstance(parent, ast.Call):
        return None
    name = ast.unparse(parent.func)
    if name in _CONDITIONS and ((parent.args and parent.args[0] is use) or any(
            k.arg == "pred" and k.value is use for k in parent.keywords)):
        # cond's gradient (cond_v2 _IfGrad) gives its predicate None
        return "condition", f"`{name}` at line {parent.lineno}"
    if name in _EQUALITY and use in parent.args:
        return "equal", f"`{name}` at line {parent.lineno}"
    spot = _INDEX_ARGS.get(name)
    if spot is None:
        return None
    position, keyword = spot
    if (len(parent.args) > position and parent.args[position] is use) or any(
            k.arg == keyword and k.value is use for k in parent.keywords):
        return "index", f"`{name}` at line {parent.lineno}"
    return None
