"""A model quantized to integers and then trained: its kernels are frozen (TM120's hint).

TF-free, syntactic. Keras 3's ``model.quantize("int8")`` (or ``"int4"``) replaces each kernel
by a non-trainable integer variable; a later ``model.fit``/``train_on_batch`` of the same name
trains only what is left (the biases). Not a hint: LoRA enabled after quantizing (QLoRA, any
``enable_lora`` call in between), the name bound again in between, a quantize to a float
mode, or a model quantized after its last training.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

_MODES = ("int8", "int4")
_TRAIN = ("fit", "train_on_batch")


def quantized_then_trained(tree: ast.Module) -> Iterator[tuple[ast.Call, str]]:
    """Yield each ``X.quantize("int8")`` statement a later ``X.fit`` of the same block trains."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, statement in enumerate(body):
            call = _quantize(statement)
            if call is None:
                continue
            name = call.func.value.id  # type: ignore[attr-defined]
            if _trained_later(body[index + 1:], name):
                yield call, name


def _quantize(statement: ast.stmt) -> ast.Call | None:
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "quantize" and isinstance(call.func.value, ast.Name)):
        return None
    mode = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    return call if isinstance(mode, ast.Constant) and mode.value in _MODES else None


def _trained_later(statements: list[ast.stmt], name: str) -> bool:
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
                return False  # bound again: another model
            if isinstance(node, ast.Attribute) and node.attr == "enable_lora":
                return False  # QLoRA: the frozen integer kernel is the point
        for node in ast.walk(statement):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in _TRAIN and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == name):
                return True
    return False
