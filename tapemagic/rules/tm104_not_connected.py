"""TM104 not-connected: the gradient target does not depend on a source at all.

Matcher: a source the cut analysis marks ``not-connected`` (no dataflow, real or virtual, from
it to the target), unless the call raised Keras 3's ``_type_enum`` error, which TM105 explains,
or the source is a stale copy of a variable made again (TM111). Points where the connection
ends: the line that built the loss from something else in the place of a value computed from
the weight (one finding, whose message names the line of the value left unused), else the last
line computed from the weight that the loss never used (a prediction left dangling), at the
``tf.py_function`` whose body read the weight (its gradient covers only the tensors passed
in), at the later of two evaluations of a twin made by the same code when the sources' model
was never evaluated, else the line that created a weight the step never read, else, for a
target built from Python values, the line that built it, else the gradient call. A loss term
left out of a target that another gradient call takes as its loss (a generator's tape given
the discriminator's loss) is placed at the gradient call, with the swap as its fix
(``target_swap.py``). Sources that reach the loss only
outside the tape while other weights on its recorded path train nowhere (a distiller
differentiating by the teacher's weights) are the wrong sources: at the gradient call,
instead of TM103.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from tapemagic import fixes
from tapemagic.fixes import calls
from tapemagic.graph.left_out import left_out_term
from tapemagic.graph.verdicts import Cause
from tapemagic.lint import compiled, dropped, matchers
from tapemagic.lint.connections import (
    constant_targets,
    dangling_passes,
    second_passes,
    twin_pass,
    unread_members,
    unread_models,
    unread_variables,
)
from tapemagic.lint.context import LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.report.model import Edit, Location
from tapemagic.rules.base import Draft, Hit, Match, RuleModule, register
from tapemagic.rules.context import RuleContext, place
from tapemagic.rules.dropped_results import dropped_detail, dropped_result, unused_detail
from tapemagic.rules.look_alikes import look_alikes
from tapemagic.rules.other_reads import (
    again_detail,
    compiled_without,
    left_outputs,
    same_code_again,
    twin_detail,
    twin_read_inside,
)
from tapemagic.rules.substitutes import made_by_layer, read_at
from tapemagic.rules.target_swap import SWAPPED, other_call_loss, term_name
from tapemagic.rules.untrained import trained_instead, untrained_on_path
from tapemagic.trace import OpRecord

_PY_BODY = (": the weights are read inside this `tf.py_function`'s body, whose gradient "
            "reaches only the tensors passed in `inp` (call the layer outside the body, or "
            "write the body in TensorFlow ops)")
_SECOND_PASS = (": it is computed by this second, independent forward pass, which reads the "
                "same weights again instead of using the watched tensor")


@register
class NotConnected(RuleModule):
    code = "TM104"
    # an outside-tape source whose model the loss does not train (see trained_instead)
    causes = frozenset({"not-connected", "outside-tape"})

    def match(self, ctx: RuleContext) -> Iterable[Match]:
        ran: dict[str, tuple[OpRecord, str] | None] = {}  # per call: the same for each source
        alike = {a.call.id for a in ctx.analyses if look_alikes(ctx, a)}
        for hit in ctx.hits("not-connected"):
            if (hit.analysis.keras_zero_error or ctx.recreated(hit) is not None
                    or hit.analysis.call.id in alike):
                continue  # TM105 / TM111 / TM119 (look-alike sources) say it, and why
            call = hit.analysis.call
            raw = call.loc
            body = _read_in_py_body(ctx, hit)
            if body is not None and body.loc is not None:
                # read only inside a py_function's body: that op is the line to change
                yield Match((place(body.loc), "py-body"), body.loc, hit.cause.primary,
                            {"target": call.target_label, "detail": _PY_BODY}, hit)
                continue
            if call.id not in ran:
                ran[call.id] = _ran_instead(ctx, hit)
            instead = ran[call.id]
            if instead is not None and instead[0].loc is not None:
                # the sources' model never ran; another model's pass, trained by no gradient
                # call, is on the loss path inside the tape: that pass is the line to change
                op, detail = instead
                yield Match((place(op.loc), "ran-instead"), op.loc, hit.cause.primary,
                            {"target": call.target_label, "detail": detail}, hit)
                continue
            found = _twin(ctx, hit)
            if found is not None:
                yield found
                continue
            twin = ctx.second_pass(hit)
            if twin is not None and twin.loc is not None:
                # the target was computed again from the weights behind the source: that
                # second forward pass is the line to change (use the source's own output)
                yield Match((place(twin.loc),), twin.loc, hit.cause.primary,
                            {"target": call.target_label, "detail": _SECOND_PASS}, hit)
                continue
            dangling = ctx.dangling(hit)
            detail = ""
            unlossed = compiled_without(ctx, hit) if dangling is not None else None
            if unlossed is not None and unlossed.loc is not None:
                # fit's loss is the compiled one: the compile that gave the output no loss
                raw, detail = unlossed.loc, left_outputs(unlossed.outputs)
            elif dangling is not None:
                raw = dangling.loc
                dropped = dropped_result(ctx, hit)  # `ta.write(t, h)`: its result dropped
                substitute = ctx.substitute(hit, dangling) if dropped is None else None
                if dropped is not None:
                    raw, detail = dropped.loc, dropped_detail(ctx, dropped)
                elif substitute is not None and substitute.loc is not None:
                    # the loss was built without it: that line is the one to change, and
                    # the one finding (the unused value's line is said, not reported again);
                    # when a Keras layer made that other value itself, that layer is
                    raw = (made_by_layer(ctx.trace, ctx.graph.ops, substitute, dangling)
                           or read_at(substitute, call.loc))
                    detail = unused_detail(dangling)
            elif hit.source.source.handle is not None and (
                    hit.source.source.handle in ctx.trace.handle_created):
                raw = ctx.trace.handle_created[hit.source.source.handle]
            elif _constant_target(ctx, hit) and call.loc is not None:
                # the target is a constant built from Python values: where it was built
                node = ctx.index.call_at(call.loc)
                argument = node.args[0] if node is not None and node.args else None
                if isinstance(argument, ast.Name):
                    raw = ctx.index.assignment(call.loc, argument.id) or raw
            yield Match((place(raw),), raw, hit.cause.primary,
                        {"target": call.target_label, "detail": detail}, hit)
        yield from _left_out_terms(ctx)
        yield from _zeros_from_other_model(ctx)
        yield from _sources_of_a_pass_outside(ctx)

    def fix(self, draft: Draft, location: Location, ctx: RuleContext) -> tuple[Edit, ...]:
        if "swap" not in draft.key or not isinstance(draft.key[-1], str):
            return ()  # which value the loss should use is the user's to say
        # the target swapped for the left-out loss: it changes what is differentiated
        edit = fixes.rewrite(location, ctx.index, calls.replace_target(draft.key[-1]))
        return fixes.ChangesValues((edit,), SWAPPED) if edit is not None else ()

    def lint(self, ctx: LintContext) -> Iterable[LintMatch]:
        # a Grad-CAM score from a second forward pass: that pass is the line to change
        for second, source in second_passes(ctx):
            yield LintMatch(self.code, Site.of(second), {
                "detail": f"`{ctx.text(second.func)}(...)` may be a second forward pass the "
                          "target is computed from", "source": source})
        # the asked model's output dangles; the loss comes from one other pass: that pass
        for other, source in dangling_passes(ctx):
            yield LintMatch(self.code, Site.of(other), {
                "detail": f"The loss may be computed from `{ctx.text(other.func)}(...)` "
                          "instead of from the output of the model asked for",
                "source": source})
        # a target pasted in as a constant (a Grad-CAM score typed in): where it was made
        for stmt, constant, sources in constant_targets(ctx):
            yield LintMatch(self.code, Site.of(stmt), {
                "detail": f"`{constant}` may be a constant made from Python values",
                "source": sources})
        # weights of a model the loss never reads (its copy, in DDPG), at the gradient call
        for call, expr, twin in unread_models(ctx):
            detail = "The loss may be computed from another model made by the same code" \
                if twin else "Nothing in the tape may read these weights"
            at = call.sources_node if call.sources_node is not None else expr
            meant = twin_pass(ctx, call) if twin else None
            if meant is not None:  # the copy read, or called twice, where the twin was meant
                at, detail = meant
            yield LintMatch(self.code, Site.of(at), {"detail": detail,
                                                     "source": ctx.text(expr)})
        # a variable copied into a constant (`tf.constant(temperature)`): the copy
        yield from matchers.copied_variables(ctx, self.code)
        # a weight a model class makes and nothing reads: where it is made
        for stmt, attr in unread_members(ctx):
            yield LintMatch(self.code, Site.of(stmt), {
                "detail": f"`self.{attr}` may never be read (not in `call`, nor anywhere)",
                "source": f"self.{attr}"})
        # a term computed in the tape from the weights and left out of the target: where
        # the target is made
        for term in ctx.dropped():
            if term.shared and isinstance(term.call.node, ast.Call):
                # the target is another call's loss too: this call may mean the term
                yield LintMatch(self.code, Site.of(term.call.node), {
                    "detail": f"`{term.name}` is computed in the tape and may be the loss "
                              f"meant here: `{_target_name(term.target)}` is another gradient "
                              "call's target too", "source": term.name})
                continue
            yield LintMatch(self.code, Site.of(term.target), {
                "detail": f"`{term.name}` is computed in the tape but may be left out of "
                          f"`{_target_name(term.target)}`", "source": term.name})
        # a value an API returns instead of changing its input, dropped (a traced
        # TensorArray write), or a layer that outputs zeros (Dropout at rate 1)
        for found in ctx.cuts("discarded"):
            yield LintMatch(self.code, found.cut.site, {"detail": found.cut.detail,
                                                        "source": found.cut.api})
        # a hand-written train step whose loss leaves out what layers added (add_loss)
        for _call, made, _lost in dropped.unadded_losses(ctx.calls):
            yield LintMatch(self.code, Site.of(made), {
                "detail": "The losses the model's layers add with `add_loss` (`self.losses`) "
                          "may be left out of this loss", "source": "self.losses"})
        # a compiled loss that reads y_true only: where it should read the prediction
        for spot, function, param in compiled.unread_predictions(ctx.tree):
            yield LintMatch(self.code, Site.of(spot), {
                "detail": f"The loss `{function}` given to `compile` never reads `{param}`, the "
                          "model's output", "source": param})
        # weights a tf.py_function's body reads itself, not through its `inp` tensors
        for found in ctx.cuts("py-closure"):
            yield LintMatch(self.code, found.cut.site, {
                "detail": f"`{found.cut.detail}` may read weights inside `tf.py_function` "
                          "that are not in its `inp` list (only those tensors are "
                          "differentiated)", "source": found.cut.detail})
        # a tf.Variable source nothing reads: where it was made, as the run says
        for call, name in unread_variables(ctx):
            run = next(r for c, r in ctx.calls if c is call)
            value = next(v for v, n in ctx.source_items(call) if n is name)
            for root in sorted(value.weights):
                yield LintMatch(self.code, run.made[root], {
                    "detail": f"`{name.id}` may never be read by any op", "source": name.id})


def _twin(ctx: RuleContext, hit: Hit) -> Match | None:
    """Return the match for a loss that reads a twin of the sources' model, made by the same code.

    Where the twin is the loss's fixed target (read outside the tape too) and read inside it,
    that read; else the call's source list; else, for a twin evaluated twice, the later pass.
    """
    call = hit.analysis.call
    other = ctx.other_model(hit)
    inside = twin_read_inside(ctx, hit, other) if other is not None else None
    if other is not None and inside is not None and inside.loc is not None:
        # a DQN's Q(s, a) from the target network: that read is the line to change
        return Match((place(inside.loc), "twin-inside"), inside.loc, hit.cause.primary,
                     {"target": call.target_label, "detail": twin_detail(ctx, other)}, hit)
    if other is not None and call.loc is not None:
        # the sources are another model's (a target network made by the same factory):
        # the source list of the gradient call is the line to change
        return Match((place(call.loc), "other-model"), call.loc, hit.cause.primary,
                     {"target": call.target_label, "detail": _other_model(ctx, other)}, hit)
    again = same_code_again(ctx, hit)
    if again is not None and again[0].loc is not None:
        # the loss evaluates a twin made by the same code twice, the sources' model never:
        # the later evaluation is where the sources' model was meant
        op, twin_handle = again
        return Match((place(op.loc), "again"), op.loc, hit.cause.primary,
                     {"target": call.target_label,
                      "detail": again_detail(ctx, twin_handle)}, hit)
    return None


def _target_name(stmt: ast.Assign) -> str:
    return ast.unparse(stmt.targets[0])


def _left_out_terms(ctx: RuleContext) -> Iterable[Match]:
    """Yield, at the line that built the target, the sources whose loss term was left out.

    A source cut only by a ``tf.stop_gradient`` the user wrote, with a loss-like scalar
    computed from it in the tape that the target does not use (``graph/left_out.py``).
    """
    for hit in ctx.hits("stop-gradient"):
        found = left_out_term(ctx.graph, hit.analysis, hit.source)
        if found is None:
            continue
        term, built = found
        line = term.loc.line if term.loc is not None else "?"
        call = hit.analysis.call
        other = other_call_loss(ctx, hit.analysis)
        if other is not None and call.loc is not None:
            # the target is another call's loss: this call's target is the line to change
            name = term_name(ctx.index, term)
            meant = f"`{name}`, " if name else ""
            where = other.call.loc.line if other.call.loc is not None else "?"
            yield Match((place(call.loc), "swap", name), call.loc, True,
                        {"target": call.target_label,
                         "detail": f", the loss of the gradient call at line {where}: the loss "
                                   f"computed from them at line {line}, {meant}may be the "
                                   "target meant"}, hit)
            continue
        yield Match((place(built.loc), "left-out"), built.loc, True,
                    {"target": hit.analysis.call.target_label,
                     "detail": f": the term computed from them at line {line} is not added "
                               "into it, and their other path is cut by `tf.stop_gradient`"},
                    hit)


def _read_in_py_body(ctx: RuleContext, hit: Hit) -> OpRecord | None:
    """Return the ``tf.py_function`` op on the target's dataflow whose body read the source.

    The body ran under a tape of TensorFlow's own (``script_ops.EagerFunc``), which watched
    the variables it read (``PyBody.read_handles``); the op's gradient gives only its inputs'
    gradients, so a weight read in the body is connected to nothing the outer tape saw.
    """
    handle, trace = hit.source.source.handle, ctx.trace
    if handle is None or not trace.py_bodies:
        return None
    anc = hit.analysis.ancestors
    for seq, (token, _) in sorted(trace.py_function_ops.items()):
        body = trace.py_bodies.get(token)
        op = ctx.graph.ops.get(seq)
        if (body is not None and handle in body.read_handles and op is not None
                and set(op.outputs) & anc):
            return op
    return None


def _constant_target(ctx: RuleContext, hit: Hit) -> bool:
    """Return True when every target of the call is a tensor no recorded op produced."""
    tensors = ctx.trace.tensors
    return all(t in tensors and tensors[t].producer is None for t in hit.analysis.call.targets)


def _ran_instead(ctx: RuleContext, hit: Hit) -> tuple[OpRecord, str] | None:
    """Return the first recorded read of an untrained weight on the loss path, and the detail.

    Only when no source of the call (Keras weights: a model's) was ever read and the tape
    recorded a pass over trainable weights that no gradient call of the run trains (a student
    step that calls the teacher): that pass computed the loss in the sources' place. A call
    whose sources have twins made by the same code (a DDPG target actor) is ``other_model``'s.
    """
    analysis, tape = hit.analysis, hit.analysis.tape
    reads = ctx.graph.reads
    if tape is None or any(s.source.handle is None or reads.get(s.source.handle)
                           or s.source.kind != "keras-variable" for s in analysis.sources):
        return None
    if any(ctx.other_model(Hit(analysis, i, s, hit.cause)) is not None
           for i, s in enumerate(analysis.sources)):
        return None  # a twin made by the same code reads in their place: the call's sources
    instead = untrained_on_path(ctx, analysis)
    ops = [op for h in instead for op in reads.get(h, ())
           if not op.in_gradient and tape.recording_at(op.seq)]
    if not ops:
        return None
    return min(ops, key=lambda op: op.seq), (
        f": the sources' model never ran: this line computed the loss from "
        f"{_listed(ctx, instead)} instead, which no gradient call trains: call the model whose "
        "weights are the sources")


def _listed(ctx: RuleContext, handles: list[int]) -> str:
    """Return up to three weights' names, then how many more."""
    names = ", ".join(f"`{ctx.handle_name(h)}`" for h in handles[:3])
    return names + (f" and {len(handles) - 3} more" if len(handles) > 3 else "")


def _other_model(ctx: RuleContext, handle: int) -> str:
    return (f": it depends on another model's weights instead (`{ctx.handle_name(handle)}`, made "
            "by the same code): pass the weights of the model the loss uses")


def _zeros_from_other_model(ctx: RuleContext) -> Iterable[Match]:
    """Yield the sources of ``unconnected_gradients=ZERO`` calls that are another model's.

    Zeros for an unconnected source are what ZERO asks for, so they are no finding by
    themselves; a source list of another model's weights (the loss reads their twins, made
    by the same code) is still the wrong list, whose zeros train nothing.
    """
    for analysis in ctx.analyses:
        call = analysis.call
        if call.unconnected != "zero" or call.loc is None:
            continue
        for index, source in enumerate(analysis.sources):
            if source.verdict != "zero" or source.causes or source.result != "zero":
                continue
            hit = Hit(analysis, index, source, Cause("not-connected", True))
            other = ctx.other_model(hit)
            if other is not None:
                yield Match((place(call.loc), "other-model"), call.loc, True,
                            {"target": call.target_label,
                             "detail": _other_model(ctx, other)}, hit)


def _sources_of_a_pass_outside(ctx: RuleContext) -> Iterable[Match]:
    """Yield the sources that reach the loss only outside the tape while others train nothing.

    The line to change is the gradient call's source list (a distiller differentiating by the
    teacher's weights, whose forward pass runs outside the tape on purpose), not the pass.
    """
    for hit in ctx.hits("outside-tape"):
        call = hit.analysis.call
        instead = trained_instead(ctx, hit)
        if not instead or call.loc is None:
            continue
        yield Match((place(call.loc), "other-model"), call.loc, hit.cause.primary,
                    {"target": call.target_label,
                     "detail": " as the tape recorded it: they reach it only through ops "
                               "that ran outside the tape, while "
                               f"{_listed(ctx, instead)}, on the loss path inside the tape, "
                               "are trained by no gradient call: pass the weights of the "
                               "model this loss trains"}, hit)
