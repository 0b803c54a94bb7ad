"""Syntactic matchers: facts the source spells out without any dataflow.

TF-free. These look at the shape of the code only, for the few cuts whose meaning does not
depend on values flowing anywhere (a custom gradient that returns None for its variables), and
for what decides whether code is traced (a ``tf.function`` decorator, eager mode forced on).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint.names import Imports

CUSTOM_GRADIENT = frozenset({"tensorflow.custom_gradient", "keras.ops.custom_gradient"})


def custom_gradient(fn: ast.AST, imports: Imports) -> bool:
    """Whether ``fn`` is a function decorated with ``tf.custom_gradient``.

    Its forward ops are never differentiated: TensorFlow calls the ``grad`` function it
    returns instead (a ``tf.round`` there is the point, not a cut).
    """
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in fn.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (imports.dotted(target) or "") in CUSTOM_GRADIENT:
            return True
    return False


def _all_none(node: ast.expr) -> bool:
    """Whether ``node`` is ``None``, ``[None, ...]`` or ``[None for _ in ...]``."""
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_all_none(e) for e in node.elts)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _all_none(node.elt)
    return False


def custom_gradient_nones(tree: ast.Module, imports: Imports) -> Iterator[tuple[str, ast.expr]]:
    """Yield (function name, expression) where a ``tf.custom_gradient`` grad returns None.

    The grad function takes ``variables`` (TensorFlow passes it when the decorated function
    reads variables) and returns ``(input_grads, <None for every variable>)``.
    """
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not custom_gradient(fn, imports):
            continue
        for grad in fn.body:
            if not isinstance(grad, ast.FunctionDef):
                continue
            params = [a.arg for a in [*grad.args.args, *grad.args.kwonlyargs]]
            if "variables" not in params:
                continue
            for node in ast.walk(grad):
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and \
                        len(node.value.elts) == 2 and _all_none(node.value.elts[1]):
                    yield fn.name, node.value.elts[1]


def custom_gradient_without_variables(tree: ast.Module,
                                      imports: Imports) -> Iterator[tuple[str, ast.AST]]:
    """Yield (function name, grad function) of a custom gradient that misses ``variables``.

    The decorated function reads weights and its gradient function takes no ``variables``.
    TensorFlow (custom_gradient.py) requires the grad function of a decorated function that
    reads variables to accept ``variables=`` and return their gradients; without it, the
    gradient call raises ``TypeError`` and the weights get nothing. Weights read: ``self.x``
    where the enclosing class makes ``x`` a weight (``add_weight``, ``tf.Variable``), or a
    module name bound to a ``tf.Variable``.
    """
    owners = {id(n): c for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
              for n in ast.walk(c) if isinstance(n, ast.FunctionDef)}
    module_weights = {t.id for s in tree.body if isinstance(s, ast.Assign)
                      and _makes_weight(s.value, imports) for t in s.targets
                      if isinstance(t, ast.Name)}
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not custom_gradient(fn, imports):
            continue
        owner = owners.get(id(fn))
        weights = module_weights | (_class_weights(owner, imports) if owner else set())
        forward = [n for s in fn.body if not isinstance(s, ast.FunctionDef) for n in ast.walk(s)]
        reads = any((isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                     and n.value.id == "self" and f"self.{n.attr}" in weights)
                    or (isinstance(n, ast.Name) and n.id in weights) for n in forward)
        if not reads:
            continue
        for grad in fn.body:
            if isinstance(grad, ast.FunctionDef) and _returned(fn, grad.name) and \
                    grad.args.kwarg is None and "variables" not in {
                        a.arg for a in [*grad.args.args, *grad.args.kwonlyargs]}:
                yield fn.name, grad


def _makes_weight(node: ast.expr, imports: Imports) -> bool:
    """Whether ``node`` makes a weight: ``tf.Variable(...)`` or ``self.add_weight(...)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("add_weight", "add_variable"):
        return True
    return (imports.dotted(func) or "") in ("tensorflow.Variable", "keras.Variable")


def _class_weights(cls: ast.ClassDef, imports: Imports) -> set[str]:
    return {f"self.{t.attr}" for n in ast.walk(cls) if isinstance(n, ast.Assign)
            and _makes_weight(n.value, imports) for t in n.targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
            and t.value.id == "self"}


def _returned(fn: ast.FunctionDef, name: str) -> bool:
    """Whether ``fn`` returns ``(value, name)`` (its nested function as the gradient)."""
    return any(isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)
               and len(n.value.elts) == 2 and isinstance(n.value.elts[1], ast.Name)
               and n.value.elts[1].id == name for n in ast.walk(fn))


TF_FUNCTION = frozenset({"tensorflow.function"})


def traced(fn: ast.AST, imports: Imports) -> bool:
    """Whether ``fn`` is decorated with ``tf.function`` (bare or called with options).

    TensorFlow runs its Python body once per trace, and the graph afterwards.
    """
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in fn.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (imports.dotted(target) or "") in TF_FUNCTION:
            return True
    return False


def runs_eagerly(tree: ast.Module, imports: Imports) -> bool:
    """Whether the source turns tracing off: ``tf.config.run_functions_eagerly(True)``.

    Then every ``tf.function`` and Keras train function runs its Python body each call. A
    model set ``model.run_eagerly = True`` is taken the same way (precision first: the
    checker does not tell that model's train function from the others).
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and \
                node.value.value is True and any(isinstance(t, ast.Attribute)
                                                  and t.attr == "run_eagerly"
                                                  for t in node.targets):
            return True
        if isinstance(node, ast.Call) and node.args and \
                isinstance(node.args[0], ast.Constant) and node.args[0].value is True and \
                (imports.dotted(node.func) or "").endswith("run_functions_eagerly"):
            return True
    return False


def keyword_false(node: ast.Call, name: str) -> bool:
    """Whether the call passes ``name=False`` (a literal)."""
    return any(k.arg == name and isinstance(k.value, ast.Constant) and k.value.value is False
               for k in node.keywords)


#: Keras 3 dropout layers whose training call is ``backend.random.dropout`` (SpatialDropout's
#: subclass it): at ``rate == 1.0`` that returns ``tf.zeros_like(inputs)`` (the TensorFlow
#: backend's random.py), which passes no gradient to what came before.
DROPOUT_LAYERS = frozenset({"Dropout", "SpatialDropout1D", "SpatialDropout2D",
                            "SpatialDropout3D"})


def drops_everything(call: ast.AST | None, tree: ast.Module) -> bool:
    """Whether a dropout layer's constructor ``call`` is given a rate of 1 (keep nothing)."""
    if not isinstance(call, ast.Call):
        return False
    rate = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == "rate"), None)
    return number(rate, tree) == 1


def number(node: ast.AST | None, tree: ast.Module, depth: int = 0) -> float | None:
    """Return the number an expression always has: a literal, or a name bound only to one.

    A name counts when every binding of it in the source is the same expression (a
    module setting such as ``keep_prob = 1.0``); arithmetic of such numbers is computed.
    None when the value depends on anything else.
    """
    if node is None or depth > 4:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and \
            not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name):
        bound = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == node.id for t in n.targets)]
        stored = sum(isinstance(n, ast.Name) and n.id == node.id
                     and isinstance(n.ctx, ast.Store) for n in ast.walk(tree))
        if len(bound) != 1 or stored != 1:
            return None
        return number(bound[0], tree, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        left, right = number(node.left, tree, depth + 1), number(node.right, tree, depth + 1)
        if left is None or right is None:
            return None
        return left + right if isinstance(node.op, ast.Add) else (
            left - right if isinstance(node.op, ast.Sub) else left * right)
    return None
