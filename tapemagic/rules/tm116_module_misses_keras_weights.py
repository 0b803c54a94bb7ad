"""TM116 module-misses-keras-weights: ``tf.Module.trainable_variables`` sees no Keras 3 weight.

Matcher: a gradient call whose sources are ``X.trainable_variables`` of a ``tf.Module`` (not
a Keras layer) that holds Keras layers whose trainable weights the list leaves out
(``tracing/tracking.py``), read on the loss path, taken by no gradient call or optimizer and
never written. Points at the line that made those weights untracked: the ``class``
statement of the user's ``tf.Module`` subclass (a ``keras.Model`` would track them), else the
gradient call where the list is passed. Not matched when the sources flow into those layers
(an image optimised through a network kept fixed: style transfer).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.lint import untracked as shapes
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext
from tapemagic.rules.untracked import matches, sources_feed_them


@register
class ModuleMissesKerasWeights(RuleModule):
    code = "TM116"

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        return matches(ctx, "module", lambda fact: {"module": fact.holder,
                                                    "module_type": fact.holder_type},
                       skip=sources_feed_them)

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        classes: set[int] = set()
        for sources, cls, variables in shapes.module_sources(ctx.tree, ctx.imports):
            yield LintMatch(self.code, Site.of(sources), {"api": ctx.text(sources)})
            # Keras variables on a module holding no layer: each one's line is the change
            yield from (LintMatch(self.code, Site.of(v), {"api": ctx.text(sources)})
                        for v in variables)
            # else `class X(tf.Module)`: its base collects no Keras weight
            if id(cls) not in classes and not variables:
                classes.add(id(cls))
                yield LintMatch(self.code, Site(cls.lineno, cls.col_offset, cls.lineno,
                                                cls.col_offset + 6 + len(cls.name)),
                                {"api": ctx.text(sources)})
