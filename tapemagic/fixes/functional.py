"""Weights written into a Keras model, then the model called → a functional call instead.

TF-free. Writing a computed tensor into a model's variables (``assign``, ``set_weights``) and
then calling the model cuts the gradient to what was written (a hypernetwork, a MAML inner
step, a target network copied inside the tape). Keras 3's ``model.stateless_call(
trainable_variables, non_trainable_variables, *args)`` computes the same output from given
values instead of the variables, so the gradient reaches them. These fixes build that call
from the code; they return None when the shape differs (then the rule's docs show a worked
example). Three shapes, each followed in the same block by calls ``M(args)``:

- ``M.layers[0].kernel.assign(w0)`` (one or more statements, same model ``M``, which may be an
  attribute such as ``self.target``; the value may
  be an expression such as ``tf.reshape(h, (6, 2))``, evaluated where the model is called,
  so nothing in between may rebind a name it reads) → each ``v`` of
  ``M.trainable_variables`` replaced by the value written into it;
- ``for v, g in zip(M.trainable_variables, grads): v.assign(EXPR)`` → the list of ``EXPR``;
- ``M.set_weights(N.get_weights())`` → ``N``'s variables (the models must match layer by
  layer, which ``set_weights`` already required).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from tapemagic.fixes import dotted, precedence
from tapemagic.fixes.statements import Source, Stmt, bound_names, source_of, used_names
from tapemagic.locations import SourceIndex
from tapemagic.report.model import Edit


def functional_call(index: SourceIndex, file: str, line: int) -> tuple[Edit, ...] | None:
    """Return the edits turning the weight write on ``line`` and the later calls functional."""
    src = source_of(index, file)
    stmt = src.statement(line) if src else None
    if src is None or stmt is None:
        return None
    for shape in (_assigns, _update_loop, _set_weights):
        found = shape(src, stmt)
        if found is not None:
            return _edits(src, *found)
    return None


def _call(stmt: cst.CSTNode) -> cst.Call | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
            and isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, cst.Call):
        return stmt.body[0].value
    return None


def _assign_of(stmt: cst.CSTNode) -> tuple[str, str, str] | None:
    """``M.layers[0].kernel.assign(w0)`` → (``M``, ``M.layers[0].kernel``, ``w0``).

    ``M`` is the expression before ``.layers[i]`` (``self.target`` in a custom model's
    ``call``), else the name the target starts with.

    The value is returned as code that can stand as the first operand of a conditional
    expression (parenthesised unless it is a name, attribute, subscript or call).
    """
    call = _call(stmt)
    if not (call is not None and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "assign" and len(call.args) == 1
            and call.args[0].keyword is None and call.args[0].star == ""):
        return None
    target = call.func.value
    root: cst.BaseExpression = target
    model: cst.BaseExpression | None = None
    while isinstance(root, (cst.Attribute, cst.Subscript)):
        if isinstance(root, cst.Subscript) and isinstance(root.value, cst.Attribute) \
                and root.value.attr.value == "layers":
            model = root.value.value  # `self.target` of `self.target.layers[1].kernel`
        root = root.value
    if not isinstance(root, cst.Name) or root is target:
        return None
    code = cst.Module([]).code_for_node
    # the body of `VALUE if v is TARGET else v`: parenthesised below a conditional's level
    text = code(precedence.wrap(call.args[0].value, 2))
    return code(model) if model is not None else root.value, code(target), text


_Shape = tuple[Sequence[cst.CSTNode], str, list[int], str]


def _assigns(src: Source, stmt: Stmt) -> _Shape | None:
    first = _assign_of(stmt.node)
    if first is None:
        return None
    model = first[0]
    at = stmt.index
    while at > 0 and (_assign_of(stmt.block[at - 1]) or ("",))[0] == model:
        at -= 1
    writes, pairs = [], []
    while at < len(stmt.block):
        found = _assign_of(stmt.block[at])
        if found is None or found[0] != model:
            break
        writes.append(at)
        pairs.append(f"{found[2]} if v is {found[1]} else ")
        at += 1
    values = f"[{''.join(pairs)}v for v in {model}.trainable_variables]"
    # the written values are evaluated at the model calls: nothing after the writes may
    # rebind a name they read (nor the comprehension's own `v`)
    reads = set().union(*(used_names(stmt.block[i]) for i in writes))
    if "v" in reads or any(reads & bound_names(later) for later in stmt.block[writes[-1] + 1:]):
        return None
    return stmt.block, model, writes, values


def _update_loop(src: Source, stmt: Stmt) -> _Shape | None:
    block = src.parents.get(stmt.node)
    loop = src.parents.get(block) if block is not None else None
    if not isinstance(loop, cst.For) or not isinstance(loop.body, cst.IndentedBlock) \
            or len(loop.body.body) != 1:
        return None
    call = _call(loop.body.body[0])
    it = loop.iter
    if not (call is not None and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "assign" and len(call.args) == 1
            and isinstance(call.func.value, cst.Name) and isinstance(it, cst.Call)
            and dotted(it.func) == "zip" and it.args
            and isinstance(loop.target, cst.Tuple)):
        return None
    first = it.args[0].value
    if not (isinstance(first, cst.Attribute) and first.attr.value == "trainable_variables"
            and isinstance(first.value, cst.Name)):
        return None
    outer = src.statement_of(loop)
    if outer is None:
        return None
    code = cst.Module([]).code_for_node
    values = f"[{code(call.args[0].value)} for {code(loop.target)} in {code(it)}]"
    return outer.block, first.value.value, [outer.index], values


def _set_weights(src: Source, stmt: Stmt) -> _Shape | None:
    call = _call(stmt.node)
    if not (call is not None and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "set_weights" and len(call.args) == 1
            and isinstance(call.func.value, cst.Name)):
        return None
    inner = call.args[0].value
    if not (isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute)
            and inner.func.attr.value == "get_weights" and not inner.args
            and isinstance(inner.func.value, cst.Name)):
        return None
    other = inner.func.value.value
    return stmt.block, call.func.value.value, [stmt.index], f"{other}.trainable_variables"


def _edits(src: Source, block: Sequence[cst.CSTNode], model: str, indices: list[int],
           values: str) -> tuple[Edit, ...] | None:
    non_trainable = f"{model}.non_trainable_variables"
    if values.endswith(".trainable_variables") and "[" not in values:
        non_trainable = values.replace(".trainable_variables", ".non_trainable_variables")
    edits = [Edit(src.positions[block[i]].start.line, 0,
                  src.positions[block[i]].end.line + 1, 0, "") for i in indices]
    calls = 0
    code = cst.Module([]).code_for_node
    for later in block[indices[-1] + 1:]:
        for call in _model_calls(later, model):
            pos = src.positions[call]
            args = ", ".join(code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                             for a in call.args)
            text = f"{model}.stateless_call({values}, {non_trainable}, {args})[0]"
            edits.append(Edit(pos.start.line, pos.start.column, pos.end.line, pos.end.column,
                              text))
            calls += 1
    return tuple(edits) if calls else None


def _model_calls(node: cst.CSTNode, model: str) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> bool:
            if cst.Module([]).code_for_node(call.func) == model:
                found.append(call)
                return False
            return True

    node.visit(_Calls())
    return found
