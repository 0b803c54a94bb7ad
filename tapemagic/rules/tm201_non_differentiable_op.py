"""TM201 non-differentiable-op: an op with no usable gradient on the path.

Matcher: a cut edge of cause ``non-differentiable-op``: the op's entry in TensorFlow's gradient
registry is None (``ops.NotDifferentiable``) or missing (``LookupError``), or its registered
gradient returns None (``tapemagic.optypes.RETURNS_NONE``). One finding per op and place.
"""

from __future__ import annotations

from tapemagic.rules.base import EdgeRule, register


@register
class NonDifferentiableOp(EdgeRule):
    code = "TM201"
    causes = frozenset({"non-differentiable-op"})
