"""Where the property a cut or zero op acts on was made: the forward op behind a gradient op.

TF-free. A second-order gradient crosses the gradient ops the first gradient call made; when
one of them cuts (``ResizeBicubicGrad`` has no registered gradient) or zeroes (``ReluGrad``
gives its ``features`` input zeros: a ReLU's second derivative), the user never wrote that
op: it is the registered gradient of a forward op they chose (``Resizing(interpolation=
"bicubic")``, ``activation="relu"``). The recorder names that forward op for each gradient op
traced in a graph (``OpRecord.grad_of``); this walks that link back, through gradients of
gradients, to the op the user's code ran. The cut op's own line is where it bites (the
gradient call that made it); the forward op's (its layer's) is the line to change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapemagic.trace import OpRecord, RawLocation, Trace

#: gradient-of-gradient links followed at most (a third derivative is two)
DEPTH = 6


def forward_op(trace: Trace, op: OpRecord) -> OpRecord | None:
    """Return the forward op whose registered gradient (of gradients) made ``op``, if known."""
    current = op
    for _ in range(DEPTH):
        if not current.in_gradient:
            return current if current is not op else None
        if current.grad_of is None:
            return None
        made = trace.op_at(current.grad_of)
        if made is None:
            return None
        current = made
    return None


def forward_place(op: OpRecord) -> RawLocation | None:
    """Return the line that ran forward op ``op``: its Keras layer's line, else its own."""
    return op.layer_loc or op.loc
