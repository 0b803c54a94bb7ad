"""TM302 numpy-function: ``tf.numpy_function`` on the path (its Python body has no gradient).

Matcher: a host edge of cause ``numpy-function`` (the tracer records ``tf.numpy_function`` as a
host event from its inputs to its outputs; TensorFlow registers no gradient for it).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.rules.base import EdgeRule, register


@register
class NumpyFunction(EdgeRule):
    code = "TM302"
    causes = frozenset({"numpy-function"})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "numpy-function", params=matchers.no_params)
