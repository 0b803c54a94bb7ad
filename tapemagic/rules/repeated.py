"""A statement that repeats an earlier one's value: the copy of a line left unedited.

TF-free. ``true_steps = y_true[:, 1:] - y_true[:, :-1]`` followed by ``pred_steps =
y_true[:, 1:] - y_true[:, :-1]``: the second assignment computes exactly the first one's value
under another name, which no program needs (the first name could be used again). When the loss
reads something else where a value computed from the weights was meant, and both lines are
candidates, the repeat is the line the user copied and forgot to change.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from tapemagic.locations import SourceIndex
from tapemagic.trace import OpRecord


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
