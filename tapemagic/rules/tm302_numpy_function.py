"""TM302 numpy-function: ``tf.numpy_function`` on the path (its Python body has no gradient).

Matcher: a host edge of cause ``numpy-function`` (the tracer records ``tf.numpy_function`` as a
host event from its inputs to its outputs; TensorFlow registers no gradient for it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from tapemagic import fixes
from tapemagic.fixes import calls, numpy_body
from tapemagic.lint import matchers
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, EdgeRule, register
from tapemagic.rules.context import RuleContext


@register
class NumpyFunction(EdgeRule):
    code = "TM302"
    causes = frozenset({"numpy-function"})

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        return matchers.cut_matches(ctx, self.code, "numpy-function", params=matchers.no_params)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        tree = ctx.index.tree(location.file)

        def defined(name: str) -> ast.FunctionDef | None:
            found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                     and n.name == name] if tree is not None else []
            return found[0] if len(found) == 1 else None

        edit = fixes.rewrite(location, ctx.index, calls.numpy_function_to_tf(defined))
        if edit is not None:
            return (edit,)
        # a body of NumPy maths: a TensorFlow copy of it, called directly (or why not)
        done = numpy_body.translate_at(location, ctx.index)
        return done.edits or (fixes.NoEdit(done.why) if done.why else ())
