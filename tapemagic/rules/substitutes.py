"""Which line built the value a loss used in the place of one computed from the weights.

TF-free. Three mechanisms refine ``RuleContext.substitute`` (the op that read the other value):

A Keras layer that made the other value itself (``Dropout(rate=1.0)``) is the line to change.
A Keras layer that read it in a step Keras wrote (``fit``) is placed where the user applied
that layer (``read_at``), not at the ``fit`` line.

A statement that repeats an earlier one's value is the copy of a line left unedited:
``true_steps = y_true[:, 1:] - y_true[:, :-1]`` followed by ``pred_steps =
y_true[:, 1:] - y_true[:, :-1]``: the second assignment computes exactly the first one's value
under another name, which no program needs (the first name could be used again). When the loss
reads something else where a value computed from the weights was meant, and both lines are
candidates, the repeat is the line the user copied and forgot to change.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

from tapemagic.locations import SourceIndex
from tapemagic.trace import OpRecord, RawLocation, Trace


def _assigned_value(index: SourceIndex, op: OpRecord) -> tuple[str, int, str] | None:
    """Return (file, line, dumped value) of the one-line assignment holding ``op``'s place."""
    loc = op.loc
    tree = index.tree(loc.file) if loc is not None else None
    if loc is None or tree is None:
        return None
    for node in ast.walk(tree):
        if (isinstance(node, (ast.Assign, ast.AnnAssign)) and node.lineno == loc.line
                and node.end_lineno == loc.line and node.value is not None):
            return loc.file, loc.line, ast.dump(node.value)
    return None


def repeated_candidate(index: SourceIndex, candidates: Sequence[OpRecord]) -> OpRecord | None:
    """Return the first candidate whose line repeats an earlier candidate's value, if one.

    ``candidates`` are in execution order; the lines compared are one-line assignments in
    the same file whose right-hand sides are the same expression (AST equal).
    """
    seen: dict[tuple[str, str], int] = {}
    for op in candidates:
        value = _assigned_value(index, op)
        if value is None:
            continue
        file, line, dumped = value
        first = seen.setdefault((file, dumped), line)
        if first != line:
            return op
    return None


def made_by_layer(trace: Trace, ops: Mapping[int, OpRecord], substitute: OpRecord,
                  dangling: OpRecord) -> RawLocation | None:
    """Return the line of the Keras layer that made the value ``substitute`` read instead.

    A layer configured to output a value that does not depend on its input (Keras 3's
    ``Dropout(rate=1.0)`` returns ``zeros_like``, a constant once traced) runs its op in
    Keras' own code; the next layer reads that value where the one computed from the weights
    (``dangling``) was meant. The line to change is the layer's construction or application
    (``OpRecord.layer_loc``), not the next layer's or the ``fit`` line.
    """
    tensors = trace.tensors
    want = tensors.get(dangling.outputs[0]) if dangling.outputs else None
    for serial in substitute.inputs:
        record = tensors.get(serial)
        if (want is None or record is None or record.producer is None
                or (record.shape, record.dtype) != (want.shape, want.dtype)):
            continue
        maker = ops.get(record.producer[0])
        if (maker is not None and maker.layer and maker.layer_loc is not None
                and maker.layer != substitute.layer and maker.layer != dangling.layer):
            return maker.layer_loc
    return None


def read_at(substitute: OpRecord, step: RawLocation | None) -> RawLocation | None:
    """Return the line that gave ``substitute`` the other value.

    An op placed at the gradient call's own line ran in a step Keras wrote (``fit``: every op
    of the model is at the ``fit`` line); when a Keras layer ran it, the line that applied or
    made that layer (``Dense(1)(forward)`` beside an unused backward output) is the one the
    user wrote. An op at a line of its own (the user's ``discriminator(images)``) keeps it.
    """
    loc = substitute.loc
    if (loc is not None and step is not None and substitute.layer_loc is not None
            and (loc.file, loc.line) == (step.file, step.line)):
        return substitute.layer_loc
    return loc
