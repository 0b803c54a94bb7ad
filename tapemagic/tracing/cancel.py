"""A difference of two terms that are the same value by construction: a loss that cancels.

Imports TensorFlow (the op definitions, through the quarantine). ``mean(d_fake) - mean(d_fake)``
(a typo for the real score) is zero whatever the weights, and so is every gradient through it;
TensorFlow returns zeros and nothing else says why. At the end of a run in which some gradient
came back zero, each ``Sub`` op's two inputs are compared by structure: the same tensor, or the
outputs of ops of the same type and attrs (a constant's value is its attr) over inputs equal the
same way. A variable read is equal to another read of the same variable with no write between;
an op TensorFlow declares stateful (a random draw, a read of a seed variable's next value) is
only equal to itself, so two random augmentations of one batch, two dropout masks or a real and
a fake batch are never equal. The equal ``Sub`` ops are ``Trace.self_cancelling``.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from tapemagic.optypes import READ_OPS
from tapemagic.tracing._tf_private import api_ops

if TYPE_CHECKING:
    from tapemagic.trace import OpRecord, Trace
    from tapemagic.tracing.recorder import Recorder

#: differences whose two terms, when equal, give zero (x - x)
_DIFFERENCES = frozenset({"Sub"})


def note(rec: Recorder) -> None:
    """Fill ``rec.trace.self_cancelling`` when some gradient call gave a source zeros."""
    trace = rec.trace
    if not any(s.result == "zero" for c in trace.gradient_calls for s in c.sources):
        return
    keys = _Keys(trace, rec.op_attrs)
    for op in trace.ops:
        if (op.op_type in _DIFFERENCES and len(op.inputs) == 2 and not op.in_gradient
                and keys.of(op.inputs[0]) == keys.of(op.inputs[1])):
            trace.self_cancelling.add(op.seq)


class _Keys:
    """Structural keys of tensors, interned to small ints (equal keys: equal values)."""

    def __init__(self, trace: Trace, attrs: dict[int, Any]) -> None:
        self.trace, self.attrs = trace, attrs
        self.interned: dict[tuple[Any, ...], int] = {}
        self.memo: dict[int, int] = {}
        writes: dict[int, list[int]] = defaultdict(list)
        for seq, (handle, _, _) in sorted(trace.state_writes.items()):
            writes[handle].append(seq)
        self.writes = writes
        self.stateful: dict[str, bool] = {}

    def of(self, serial: int) -> int:
        """Return ``serial``'s key, walking its producers without recursion."""
        stack, expanded = [serial], set()
        while stack:
            current = stack[-1]
            if current in self.memo:
                stack.pop()
                continue
            op = self.trace.producer_of(current)
            opaque = op is None or self._opaque(op)
            pending = [] if opaque or op is None else [i for i in op.inputs if i not in self.memo]
            if pending and current not in expanded:
                expanded.add(current)
                stack.extend(pending)
                continue
            stack.pop()
            # an input still without a key here is on a cycle: then only equal to itself
            cyclic = op is not None and any(i not in self.memo for i in op.inputs)
            self.memo[current] = self._intern(
                ("op", current) if cyclic and not opaque else self._key(current, op))
        return self.memo[serial]

    def _opaque(self, op: OpRecord) -> bool:
        """Return True for an op whose output is only equal to itself (stateful, a read)."""
        if op.op_type in READ_OPS:
            return True
        if op.op_type not in self.stateful:
            self.stateful[op.op_type] = api_ops.is_stateful(op.op_type)
        # an op with no recorded attrs (a Const's value, a reduction's keepdims unknown) is
        # only equal to itself, but the pass-through Identity joining a traced call to its body
        return self.stateful[op.op_type] or (op.seq not in self.attrs
                                             and op.op_type != "Identity")

    def _key(self, serial: int, op: OpRecord | None) -> tuple[Any, ...]:
        if op is None:
            return ("leaf", serial)
        if op.op_type in READ_OPS and op.inputs:
            handle = op.inputs[0]
            # reads between the same two writes see the same value
            return ("read", handle, bisect.bisect_left(self.writes.get(handle, []), op.seq))
        if self._opaque(op):
            return ("op", serial)
        index = op.outputs.index(serial) if serial in op.outputs else -1
        return (op.op_type, repr(self.attrs.get(op.seq)), index,
                tuple(self.memo[i] for i in op.inputs))

    def _intern(self, key: tuple[Any, ...]) -> int:
        return self.interned.setdefault(key, len(self.interned))
