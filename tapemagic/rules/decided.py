"""A zeroing op's finding placed where its input got the property that makes it bite.

``graph/decided_by.py`` finds the upstream op whose shape argument, bounds or type decided
the property (an axis of one element, a diagonal-only mask, a range past a clip's bound, a
truncated count). That op's line is the one to change; the biting op stays in the finding's
path, its graph edge and its message (where it bites, by line). TM501 and TM505 ask here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tapemagic.graph.decided_by import decided_by

if TYPE_CHECKING:
    from tapemagic.rules.context import RuleContext
    from tapemagic.trace import OpRecord, RawLocation

#: what the upstream op did, per property (``Decided.what``)
_MADE = {
    "one-element-axis": "it runs over an axis of one element, which `{api}` here made",
    "diagonal-mask": "the mask added to its input, `{api}` here with both bounds 0, keeps one "
                     "element per row, the diagonal only",
    "never-positive": "its input comes from `{api}` here, whose values are never above 0, so "
                      "every one is below the positive bound",
    "never-negative": "its input comes from `{api}` here, whose values are never below 0, so "
                      "every one is above the negative bound",
    "truncated-count": "its count is made here by `{api}`, a cast from a float to an integer "
                       "that truncates (a fraction below 1 becomes 0)",
}


def layer_place(ctx: RuleContext, op: OpRecord) -> RawLocation | None:
    """Return where to report ``op``: for a Keras layer's op, the line that made or applied it."""
    raw = op.layer_loc or op.loc
    if (op.layer and op.layer_loc is None and op.loc is not None
            and ((op.api_module or "").startswith("keras") or op.api_module == "threading")):
        # a Keras layer's op runs inside fit or the model call (or on a replica thread of a
        # tf.distribute strategy, whose outermost frame is the thread's): the line to change
        # is where the layer is defined (its activation, its initialiser)
        files = [op.loc.file, *ctx.index.cells]
        raw = ctx.index.layer_definition(op.layer.rsplit("/", 1)[-1], files) or raw
    return raw


def upstream(ctx: RuleContext, op: OpRecord,
             raw: RawLocation | None) -> tuple[RawLocation | None, str]:
    """Return the place to report zeroing op ``op`` at, and a clause saying why (or ``""``).

    ``raw`` (the op's own place) is kept when no upstream op decided the property, or when
    the upstream op is on the same line.
    """
    found = decided_by(ctx.graph, op)
    made_at = layer_place(ctx, found.op) if found is not None else None
    if found is None or made_at is None or raw is None or made_at.line == raw.line:
        return raw, ""
    api = found.op.layer or ctx.op_api(found.op)
    where = ctx.index.location(raw)
    bites = f" (it bites at line {where.line})" if where is not None and where.line else ""
    return made_at, f"; {_MADE[found.what].format(api=api)}{bites}"
