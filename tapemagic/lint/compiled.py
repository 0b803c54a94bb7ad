"""A loss function given to Keras ``compile`` that never reads the prediction (TM104).

TF-free, syntactic. Keras calls a compiled loss as ``loss(y_true, y_pred)`` (keras/src/losses:
``LossFunctionWrapper``); ``y_pred`` is the model's output, the loss's only path to the
weights. A function that reads its first parameter and never its second gives a loss no
weight reaches: ``fit`` raises "No gradients provided for any variable". A function that
reads neither (a zero placeholder beside ``add_loss``) is left alone.

:func:`unread_predictions` yields, per such function, the statement to change: one whose value
repeats an earlier statement's expression word for word (a copy meant to read ``y_pred``),
else the ``def`` line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint.values import Cut, Site, Value, join


def unread_predictions(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str]]:
    """Yield (the place to change, the function's name, its prediction parameter)."""
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    seen: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "compile"):
            continue
        given = next((k.value for k in node.keywords if k.arg == "loss"), None) or (
            node.args[1] if len(node.args) > 1 else None)
        for part in _parts(given):
            fn = functions.get(part.id) if isinstance(part, ast.Name) else None
            if fn is None or fn.name in seen:
                continue
            seen.add(fn.name)
            found = _unread(fn)
            if found is not None:
                yield found, fn.name, fn.args.args[1].arg


def _parts(given: ast.expr | None) -> list[ast.expr]:
    """Return the losses given: one, or the values of a list or dict of them."""
    if isinstance(given, (ast.List, ast.Tuple)):
        return list(given.elts)
    if isinstance(given, ast.Dict):
        return [v for v in given.values if v is not None]
    return [given] if given is not None else []


def _unread(fn: ast.FunctionDef) -> ast.AST | None:
    """Return where ``fn`` should read its second parameter, if it reads only its first."""
    params = [a.arg for a in fn.args.args]
    if len(params) != 2 or fn.args.vararg or fn.args.kwarg:
        return None
    read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}
    if params[0] not in read or params[1] in read:
        return None
    earlier: set[str] = set()
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign):
            text = ast.unparse(stmt.value)
            if text in earlier:
                return stmt  # the same expression again: the copy meant for the prediction
            earlier.add(text)
    return ast.FunctionDef(name=fn.name, args=fn.args, body=[], decorator_list=[],
                           lineno=fn.lineno, col_offset=fn.col_offset, end_lineno=fn.lineno,
                           end_col_offset=fn.col_offset + 4 + len(fn.name))  # the def line


def keyed_prediction(prediction: Value, loss: Value, node: ast.Call) -> Value:
    """Return what a loss dict given to ``compile`` reads of a model with named outputs.

    Keras 3 computes a loss for each output the dict names (``CompileLoss``) and none for an
    output it leaves out: the weights only that output reads get no gradient from ``fit``.
    Such an output is a ``discarded`` cut at ``compile`` (TM104). Only when every key of the
    dict is an output's name (a typo's loss is Keras' own error) and some output keeps one.
    """
    if not loss.keys or not prediction.keys or len(prediction.keys) != len(prediction.items) \
            or not set(loss.keys) <= set(prediction.keys):
        return prediction
    pairs = list(zip(prediction.keys, prediction.items, strict=True))
    left = [key for key, _item in pairs if key not in loss.keys]
    if not left:
        return prediction
    kept = join(*(item for key, item in pairs if key in loss.keys))
    lost = join(*(item for key, item in pairs if key not in loss.keys))
    named = ", ".join(f"`{key}`" for key in left)
    cut = Cut("discarded", ", ".join(left), Site.of(node), lost.live, node,
              f"The loss dict given to `compile` leaves out the output {named}: Keras "
              "computes no loss for it")
    return Value(live=kept.live, cuts=kept.cuts | {cut}, ghost=kept.ghost | lost.live)
