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
_SUBMODULES = frozenset({"blocks", "calls", "functional", "statements", "surrogates", "watches"})


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
    new = transform(node)
    if new is None:
        return None
    code = cst.Module([]).code_for_node(new)
    if code == text:
        return None
    assert location.col is not None and location.end_col is not None
    return Edit(location.line, location.col, location.line, location.end_col, code)


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
    if not isinstance(node, cst.Call):
        return None
    kept = [a for a in node.args
            if not (a.keyword is not None and a.keyword.value == "watch_accessed_variables")]
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
    name = made.targets[0].id  # type: ignore[attr-defined]
    source = ast.unparse(made.value.args[0])  # type: ignore[attr-defined]
    dtype = f"{source if source.isidentifier() else f'({source})'}.dtype"
    scope = enclosing_function(tree, line)
    edits = []
    for node in ast.walk(scope):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))
                and node.lineno > line):
            continue
        for mine, other in ((node.left, node.right), (node.right, node.left)):
            if (isinstance(mine, ast.Name) and mine.id == name and isinstance(other, ast.Call)
                    and ast.unparse(other.func) in argmax and other.end_lineno == other.lineno):
                edits.append(Edit(other.lineno, other.col_offset, other.lineno,
                                  other.end_col_offset or 0,
                                  f"tf.cast({ast.unparse(other)}, {dtype})"))
    return edits
