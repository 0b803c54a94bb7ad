"""TM109 empty-sources: ``tape.gradient`` got an empty list of sources.

Matcher: a gradient call whose ``sources`` flattened to nothing, the shape of
``params = model.trainable_variables`` read before the model was built (Keras creates weights
on the first call). Points where the list was made: the assignment of the name passed as
``sources`` when the source shows one, else the call; when the weights the tape saw read were
frozen by a ``trainable = False`` before the call (the Keras 2 GAN recipe in a Keras 3 model),
at that line, naming them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from tapemagic.fixes import watches
from tapemagic.lint import iterators
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.switches import Freeze


@register
class EmptySources(RuleModule):
    code = "TM109"
    causes = frozenset({"sources-mismatch"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        # a tf.Module's list empty because it sees no Keras 3 weight: TM116 says why
        modules = {place(f.step or f.loc) for f in ctx.trace.untracked if f.how == "module"}
        for analysis in ctx.analyses:
            call = analysis.call
            if (call.sources or call.keras_fit or call.method != "gradient"
                    or place(call.loc) in modules):
                continue
            node = ctx.index.call_at(call.loc)
            argument = node.args[1] if node is not None and len(node.args) > 1 else None
            text = ast.unparse(argument) if argument is not None else "sources"
            raw = call.loc
            if isinstance(argument, ast.Name) and call.loc is not None:
                raw = ctx.index.assignment(call.loc, argument.id) or raw
            tape = analysis.tape
            # the weights the tape saw read: what the user meant to train
            meant = sorted(tape.watched_handles_at_exit) if tape is not None else []
            frozen = _frozen(ctx, set(meant), call.seq)
            if frozen:
                # the list is empty because a `trainable = False` froze the weights the tape
                # saw read, and Keras leaves frozen weights out of `trainable_variables`
                at = frozen[-1].loc
                handles = sorted({h for f in frozen for h in f.handles})
                detail = (f": this `trainable = False` froze `{frozen[-1].layer}` before it, "
                          "and Keras leaves frozen weights out of `trainable_variables`")
                yield Match((place(at), "frozen"), at, True, {"sources": text, "detail": detail},
                            variables=tuple(ctx.handle_name(h) for h in handles))
                continue
            yield Match((place(raw),), raw, True, {"sources": text, "detail": ""},
                        variables=tuple(ctx.handle_name(h) for h in meant))

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        for node in ctx.unbuilt_sources():
            yield LintMatch(self.code, Site.of(node), {"api": ctx.text(node), "why": (
                "the model has no `Input` and was not called or built yet, so "
                "`tape.gradient` may get no sources")})
        # a zip of gradients and variables a loop consumed before the optimizer reads it
        for stmt, name, reader in iterators.consumed_twice(ctx.tree):
            yield LintMatch(self.code, Site.of(stmt), {"api": name, "why": (
                f"`{ctx.text(stmt.value)}` is a one-shot iterator that {reader} already "
                "consumed, so `apply_gradients` may get no pairs and update no weight")})

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        if "frozen" in draft.key:
            return ()  # whether to unfreeze, or to freeze only for the other step, is the user's
        # the list taken before the model was built: read the property where it is used
        return watches.sources_direct(ctx.index, location.file, location.line) or ()


def _frozen(ctx: RuleContext, read: set[int], seq: int) -> list[Freeze]:
    """Return the ``trainable = False`` freezes before ``seq`` of weights the tape saw read.

    Only when those weights are frozen by their Keras flag at the call (not unfrozen since).
    """
    flags = ctx.trace.handle_trainable
    frozen = {h for h in read if flags.get(h) is False}
    return ctx.trace.switches.frozen_before(frozen, seq) if frozen else []
