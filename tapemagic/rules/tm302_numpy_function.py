"""TM302 numpy-function: ``tf.numpy_function`` on the path (its Python body has no gradient).

Matcher: a host edge of cause ``numpy-function`` (the tracer records ``tf.numpy_function`` as a
host event from its inputs to its outputs; TensorFlow registers no gradient for it).
"""

from __future__ import annotations

from tapemagic.rules.base import EdgeRule, register


@register
class NumpyFunction(EdgeRule):
    code = "TM302"
    causes = frozenset({"numpy-function"})
