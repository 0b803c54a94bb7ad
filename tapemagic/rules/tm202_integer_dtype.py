"""TM202 integer-dtype: the path crosses an integer or boolean tensor.

Matcher: a cut edge of cause ``integer-dtype`` (``backprop_util.IsTrainable`` is False for the
edge's input or output dtype: an int cast, ``tf.argsort``'s TopKV2 indices, an int variable).
"""

from __future__ import annotations

from tapemagic.rules.base import EdgeRule, register


@register
class IntegerDtype(EdgeRule):
    code = "TM202"
    causes = frozenset({"integer-dtype"})
