"""A value the weights reach, made by a call whose result the user's code dropped. TF-free.

Many TensorFlow APIs return a new value instead of changing their argument:
``TensorArray.write`` (in a traced function its ``flow`` is a new tensor, the array written to
is not changed), ``tf.tensor_scatter_nd_update``, ``tf.concat``, ``tf.stack``. Called as an
expression statement (``states.write(t, h)``), the value that carried the weights onward is
discarded, and the loss reads the untouched argument. The facts this module reads: an op
computed from a source that nothing read further (an *end* of what the tape computed from it,
``RuleContext.spread``), that also took an argument the target reads afterwards, and whose line
is an expression statement of a call: the user dropped that call's result and went on with
its argument, and keeping the result is the change (TM104's line).

Left alone on purpose: a dropped call whose purpose is a side effect (an ``assign``, an
optimizer or metric update: a variable write at that line; ``tf.print`` and the
``tf.debugging.assert_*`` ops make no output), a variable read that follows a write
(``assign_add`` reading back the value it wrote), and a dropped call that only passes its
input on (``tf.debugging.check_numerics(pred)``: no other argument the target reads).
"""

from __future__ import annotations

import ast

from tapemagic.optypes import READ_OPS
from tapemagic.rules.base import Hit
from tapemagic.rules.context import RuleContext
from tapemagic.trace import OpRecord, RawLocation


def dropped_result(ctx: RuleContext, hit: Hit) -> OpRecord | None:
    """Return the last op computed from the source whose call's result the code dropped.

    The op must also take an argument not computed from the source that the target reads
    afterwards (the array written to, the canvas scattered into): the code went on with the
    argument as if the call had changed it. None when no end of the source's spread is such
    an op at a call used as a statement, or when it is a side effect (module docstring).
    """
    trace, ops = ctx.trace, ctx.graph.ops
    written = {(op.loc.file, op.loc.line) for seq in trace.state_writes
               if (op := ops.get(seq)) is not None and op.loc is not None}
    spread, ends = ctx.spread(hit)
    found: OpRecord | None = None
    for tensor in ends:
        record = trace.tensors.get(tensor)
        op = ops.get(record.producer[0]) if record is not None and record.producer else None
        if (op is None or op.loc is None or op.op_type in READ_OPS
                or (op.loc.file, op.loc.line) in written
                or (found is not None and op.seq < found.seq)):
            continue
        if (any(_root(ctx, t) in hit.analysis.ancestors for t in op.inputs if t not in spread)
                and _dropped_call(ctx, op.loc)):
            found = op
    return found


def _root(ctx: RuleContext, tensor: int) -> int:
    """Return the tensor an ``Identity`` chain forwards (a loop's or a body's inputs)."""
    seen = 0
    while seen < 64:
        record = ctx.trace.tensors.get(tensor)
        op = ctx.graph.ops.get(record.producer[0]) if (
            record is not None and record.producer) else None
        if op is None or op.op_type != "Identity" or not op.inputs:
            return tensor
        tensor, seen = op.inputs[0], seen + 1
    return tensor


def _dropped_call(ctx: RuleContext, raw: RawLocation) -> bool:
    """Return True when the statement at ``raw`` is a call whose value is discarded."""
    tree = ctx.index.tree(raw.file)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and node.lineno <= raw.line <= (node.end_lineno or node.lineno)):
            return True
    return False


def dropped_detail(ctx: RuleContext, op: OpRecord) -> str:
    """Return TM104's detail for a dropped call result: the call, and what to keep."""
    what = ctx.index.snippet(ctx.index.line_call(op.loc) or op.loc) if op.loc else None
    call = f"`{what}`" if what else "the call on this line"
    return (f": they reach {call}, whose result this line drops (the call returns a new value; "
            "it does not change its argument): keep what it returns and use it")


def unused_detail(dangling: OpRecord) -> str:
    """Return TM104's detail for a line that used another value in the unused one's place."""
    where = dangling.layer_loc or dangling.loc
    line = where.line if where is not None else "?"
    return (f": this line uses another value where the one computed from them at line {line}, "
            "which nothing uses, may have been meant")
