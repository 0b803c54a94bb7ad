"""Loss terms a traced step multiplies by a Python 0.0 frozen at trace time (TM504).

TF-free. A Python number read inside a ``tf.function`` (``self.beta * kl`` in a Keras
``train_step``) becomes a graph constant when the step is traced; ``fit`` traces its train
function once, so a callback that ramps ``self.beta`` later changes nothing the graph reads.
When every weight still gets a gradient from the loss's other terms, no source's gradient is
all zero and the per-source check (``RuleContext.frozen_zero``) sees nothing; the term is
dropped all the same. Read from the trace: a traced ``Mul`` on the path to the gradient call's
target, one operand a constant whose every element is 0 (``Trace.zero_constants``, noted when
the op was traced), the other computed from the call's sources. Reported only when the source
shows the factor is a name the code assigns again later (``SourceIndex.ramped_factor``): a
literal ``0.0 * term``, a factor set once, and a ``tf.Variable`` (read by an op, not a
constant) are what the user meant, and a parameter of the traced function is traced again
for each new Python value.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tapemagic.graph.walks import forward
from tapemagic.locations import enclosing_function

if TYPE_CHECKING:
    from tapemagic.graph.verdicts import CallAnalysis
    from tapemagic.rules.context import RuleContext
    from tapemagic.trace import OpRecord, RawLocation


def dropped_terms(ctx: RuleContext, analysis: CallAnalysis,
                  ) -> Iterator[tuple[OpRecord, list[str]]]:
    """Yield each frozen-zero multiply on ``analysis``'s paths and the sources its term reads.

    The multiply's output lies between the sources and the target (``analysis.connected``),
    its other operand is reached from at least one source by differentiable edges, and the
    factor is one the code changes later. The sources are named in the call's order.
    """
    zeros, graph, within = ctx.trace.zero_constants, ctx.graph, analysis.connected
    if not zeros or analysis.call.error_type:
        return
    muls = [op for op in graph.ops.values()
            if op.op_type == "Mul" and op.graph and not op.in_gradient and op.outputs
            and op.outputs[0] in within and set(op.inputs) & zeros
            and any(i not in zeros and i in within for i in op.inputs)]
    if not muls:
        return
    reach: dict[int, set[int]] = {}
    for op in sorted(muls, key=lambda o: o.seq):
        if (op.loc is None or ctx.index.ramped_factor(op.loc) is not True
                or _argument_factor(ctx, op.loc)):
            continue
        terms = {i for i in op.inputs if i not in zeros}
        names = []
        for index, source in enumerate(analysis.sources):
            node = source.node
            if node is None:
                continue
            if index not in reach:
                reach[index] = forward(graph, node, within, diff_only=True)
            if reach[index] & terms:
                names.append(source.source.name)
        if names:
            yield op, names


def _argument_factor(ctx: RuleContext, loc: RawLocation) -> bool:
    """Return True when a product at ``loc`` multiplies by a parameter of its function.

    ``step(x, beta)`` with a Python float ``beta``: TensorFlow traces the function again for
    every new value, so the 0.0 of the first trace is not frozen (wasteful, not wrong). Read
    from the source: a plain name among the enclosing function's parameters.
    """
    tree = ctx.index.tree(loc.file)
    if tree is None:
        return False
    function = enclosing_function(tree, loc.line)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    every = function.args
    params = {a.arg for a in (*every.posonlyargs, *every.args, *every.kwonlyargs)}
    return any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
               and node.lineno <= loc.line <= (node.end_lineno or node.lineno)
               and any(isinstance(side, ast.Name) and side.id in params
                       for side in (node.left, node.right))
               for node in ast.walk(function))
