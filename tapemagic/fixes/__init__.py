"""Quick-fix edits for findings, computed on the user's source with LibCST.

TF-free. Each fixer receives the finding's location (cell coordinates: 1-based lines, 0-based
columns) and rewrites only the expression there; it returns no edit when the code does not have
the expected shape, so a fix is never a guess. Edits are offered as quick fixes, applied only on
a click (their applicability comes from the catalog).
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from tapemagic.report.model import Edit, Location

# NumPy functions with a TensorFlow twin of the same meaning (used for the chain after .numpy()).
NUMPY_TO_TF = {
    "np.sqrt": "tf.sqrt", "np.square": "tf.square", "np.exp": "tf.exp", "np.log": "tf.math.log",
    "np.abs": "tf.abs", "np.real": "tf.math.real", "np.copy": "tf.identity",
    "np.mean": "tf.reduce_mean", "np.sum": "tf.reduce_sum",
    "np.tanh": "tf.tanh", "np.maximum": "tf.maximum", "np.minimum": "tf.minimum",
}
_UNWRAP_CALLS = ("tf.keras.backend.eval", "tf.keras.backend.get_value", "tf.stop_gradient",
                 "keras.ops.convert_to_numpy", "K.eval", "K.get_value")


def edits_for(rule: str, location: Location, context: dict[str, str]) -> tuple[Edit, ...]:
    """Return the quick-fix edits for a finding of ``rule`` at ``location`` (maybe none)."""
    fixer = _FIXERS.get(rule)
    if fixer is None or location.col is None or location.end_col is None:
        return ()
    if location.end_line not in (None, location.line):
        return ()  # multi-line expressions are left to the user
    text = location.source_line[location.col:location.end_col]
    try:
        node = cst.parse_expression(text)
    except cst.ParserSyntaxError:
        return ()
    new = fixer(node)
    if new is None:
        return ()
    code = cst.Module([]).code_for_node(new)
    if code == text:
        return ()
    edit = Edit(location.line, location.col, location.line, location.end_col, code)
    return (edit, *_numpy_link_edits(location, context.get("numpy_links", ""), edit))


def _numpy_link_edits(location: Location, links: str, root: Edit) -> list[Edit]:
    """``np.sqrt`` → ``tf.sqrt`` for each NumPy call the converted value went through."""
    import linecache

    edits = []
    for link in filter(None, links.split(";")):
        label, line, col, func_end = link.rsplit(":", 3)
        replacement = NUMPY_TO_TF.get(label)
        start, end, number = int(col), int(func_end), int(line)
        if replacement is None:
            continue
        if number == root.line and start < root.end_col and root.col < end:
            continue  # overlaps the root edit
        text = linecache.getline(location.file, number)[start:end]
        if _dotted(cst.parse_expression(text)) .split(".")[-1] != label.split(".")[-1]:
            continue  # the source changed since the run
        edits.append(Edit(number, start, number, end, replacement))
    return edits


def _drop_numpy(node: cst.BaseExpression) -> cst.BaseExpression | None:
    # `y.numpy()` -> `y`;  `tf.keras.backend.eval(y)` -> `y`;  `np.sqrt(t)` -> `tf.sqrt(t)`
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        if node.func.attr.value == "numpy" and not node.args:
            return node.func.value
    unwrapped = _unwrap(node)
    if unwrapped is not None:
        return unwrapped
    if isinstance(node, cst.Call):
        name = _dotted(node.func)
        if name in NUMPY_TO_TF:
            return node.with_changes(func=cst.parse_expression(NUMPY_TO_TF[name]))
    return None


def _unwrap(node: cst.BaseExpression) -> cst.BaseExpression | None:
    if isinstance(node, cst.Call) and _dotted(node.func) in _UNWRAP_CALLS and len(node.args) == 1:
        return node.args[0].value
    return None


def _drop_watch_flag(node: cst.BaseExpression) -> cst.BaseExpression | None:
    # `tf.GradientTape(watch_accessed_variables=False)` -> `tf.GradientTape()`
    if not isinstance(node, cst.Call):
        return None
    kept = [a for a in node.args
            if not (a.keyword is not None and a.keyword.value == "watch_accessed_variables")]
    if len(kept) == len(node.args):
        return None
    if kept:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(args=kept)


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


_FIXERS: dict[str, Callable[[cst.BaseExpression], cst.BaseExpression | None]] = {
    "TM101": _drop_watch_flag,
    "TM301": _drop_numpy,
    "TM401": _unwrap,
}
