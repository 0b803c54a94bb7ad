"""TM121 on-read-source: a ``tf.Variable`` made with ``synchronization=ON_READ`` as a source.

Matcher: a variable source marked ``not-watched`` that is not trainable and was made with
``synchronization=tf.VariableSynchronization.ON_READ`` (``SourceRecord.on_read``, read from
the variable's own ``synchronization`` when the call ran). TensorFlow makes such a variable
non-trainable unless ``trainable=True`` is passed (``variables.py``: the default follows the
synchronization), so the tape never watches its reads and its gradient is None, though no
line of the user's code says ``trainable=False``. Points at the line that made it, where the
synchronization is chosen (the call's line when it was made before the run). A replica-local
value the code never asks a gradient for (a running loss, a batch counter) is no source: no
finding. Fix: none automatic (drop the synchronization, or pass ``trainable=True``).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.rules.base import Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place


@register
class OnReadSource(RuleModule):
    code = "TM121"
    causes = frozenset({"not-watched"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        for hit in ctx.hits("not-watched"):
            source, tape = hit.source.source, hit.analysis.tape
            if source.handle is None or source.trainable or not source.on_read:
                continue
            if tape is not None and not tape.watch_accessed_variables:
                continue  # TM101: the tape watches nothing on its own
            made = ctx.trace.handle_created.get(source.handle)
            raw = made if made is not None else hit.analysis.call.loc
            loc = ctx.index.location(tape.loc if tape is not None else hit.analysis.call.loc)
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"tape_line": str(loc.line) if loc else "?"}, hit)
