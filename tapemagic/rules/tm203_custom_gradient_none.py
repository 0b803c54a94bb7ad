"""TM203 custom-gradient-none: a ``tf.custom_gradient`` returns None for a weight it reads.

Matcher: a source with a differentiable, watched path whose gradient TensorFlow returned as
None, where the path crosses the op ``tf.custom_gradient`` records for the decorated function
(``Identity``/``IdentityN`` made in ``tensorflow/python/ops/custom_gradient.py``): its gradient
function returned None (or too few values) for that input or variable. Points at the
gradient function's ``return`` (the line to change) when the tracer saw which function it was,
else at the call of the decorated function. Also a decorated function that reads variables
but whose gradient function takes no ``variables=``: TensorFlow raises ``TypeError`` before any
gradient call (``Trace.custom_gradient_errors``, tracing/custom_errors.py); the finding sits at
the gradient function's definition and names the variables it read.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from tapemagic.lint import patterns
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.names import Imports
from tapemagic.lint.values import Site
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class CustomGradientNone(RuleModule):
    code = "TM203"
    causes = frozenset({"custom-gradient"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("custom-gradient"):
            op = ctx.graph.ops.get(hit.cause.op_seq or -1)
            if op is None:
                continue
            api = ctx.index.snippet(op.loc) or op.op_type
            raw = op.loc
            found = ctx.trace.custom_gradients.get(op.seq)
            if found is not None:
                api = found[0]
                raw = ctx.index.returns_of(found[1]) or found[1]
            yield Match((place(raw),), raw, hit.cause.primary, {"api": api}, hit,
                        api=api, op_type=op.op_type)
        for definition, name, handles, _ in ctx.trace.custom_gradient_errors:
            # TensorFlow refused the function before any gradient call (a gradient function
            # without `variables=`): its signature is the line to change
            yield Match((place(definition),), definition, True, {"api": name},
                        variables=tuple(ctx.handle_name(h) for h in handles), api=name)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for name, node in patterns.custom_gradient_nones(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(node), {"api": name})
        for name, last in _grads_returning_nothing(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(last), {"api": name})
        for name, grad in patterns.custom_gradient_without_variables(ctx.tree, ctx.imports):
            # the `def grad(...)` line: its parameters are what to change
            line, col = getattr(grad, "lineno", 1), getattr(grad, "col_offset", 0)
            yield LintMatch(self.code, Site(line, col, line, col + 4 + len(
                getattr(grad, "name", ""))), {"api": name})


def _grads_returning_nothing(tree: ast.Module, imports: Imports,
                             ) -> Iterator[tuple[str, ast.stmt]]:
    """Yield (function name, last statement) of a gradient function that returns no value.

    The gradient function is the one a ``tf.custom_gradient`` function returns beside its
    output (``return y, grad``); with no ``return <value>`` of its own (nested functions
    aside), it returns None for every input, and its last statement is where the return goes.
    """
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not patterns.custom_gradient(fn, imports):
            continue
        returned = {node.value.elts[1].id for node in ast.walk(fn)
                    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)
                    and len(node.value.elts) == 2 and isinstance(node.value.elts[1], ast.Name)}
        for grad in fn.body:
            if isinstance(grad, ast.FunctionDef) and grad.name in returned and grad.body \
                    and not any(_returns_value(stmt) for stmt in grad.body):
                yield fn.name, grad.body[-1]


def _returns_value(node: ast.AST) -> bool:
    """Whether ``node`` holds a ``return <value>`` of its own function (not a nested one's)."""
    if isinstance(node, ast.Return):
        return node.value is not None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        return False
    return any(_returns_value(child) for child in ast.iter_child_nodes(node))
