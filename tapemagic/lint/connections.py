"""Sources a gradient target certainly does not depend on (TM104's static matcher).

TF-free. A Grad-CAM score computed by a second forward pass instead of from the conv output
passed as the source; the weights of a model the loss never reads (a copy made by the same
factory, as DDPG's target actor, or a model nothing calls); a ``tf.Variable`` source no op
reads. Each needs the source to make it certain (see each function): precision first.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint import names
from tapemagic.lint.context import LintContext
from tapemagic.lint.interp import GradientCall, Interpreter
from tapemagic.lint.values import Value


def second_passes(ctx: LintContext) -> Iterator[tuple[ast.Call, str]]:
    """Yield (model call, source text) where the target comes from a second forward pass.

    A tensor computed in the tape from weights is a gradient source (``conv_out``), the
    target does not descend from the statement that computed it, and a model call on the
    same weights that the target does descend from is the second, independent pass.
    """
    for call, run in ctx.calls:
        asked = [r for r in sorted(call.sources) if r in run.computed]
        reached = call.target.live | call.target.ghost
        if not asked or any(r in reached for r in asked):
            continue
        weights = frozenset().union(*(run.computed[r][0] for r in asked))
        made = [run.computed[r][1] for r in asked]
        own = frozenset().union(*(run.computed[r][2] for r in asked))
        source = ", ".join(ctx.text(node) for value, node in ctx.source_items(call)
                           if node is not None and value.weights & set(asked))
        for marker in sorted(m for m in call.target.ghost if m in run.model_calls):
            node, read = run.model_calls[marker]
            if marker in own or any(node is m or node in ast.walk(m) for m in made):
                continue
            inside = run.roots.expand(weights)
            if run.roots.overlap(read, inside) or any(
                    _twins(a, b) for a in run.roots.expand(read) for b in inside):
                yield node, source  # the same model again, or a copy made by its code


def unread_models(ctx: LintContext) -> Iterator[tuple[GradientCall, ast.expr, bool]]:
    """Yield (call, source expression, twin) for a model's weights the target never reads.

    The target reads weights (``live``), and nothing of this source, not even through a
    cut; and the source is certainly unread: no name in its expression is used inside the
    tape's block (a library function handed the model could read it unseen). ``twin``:
    the target reads a copy made by the same code (one factory called twice: the same
    constructor site, another call chain), as in ``tape.gradient(actor_loss,
    target_actor.trainable_variables)``.
    """
    for call, run in ctx.calls:
        if not call.target.live or not isinstance(call.tape, ast.expr):
            continue
        block = _block(ctx, call.tape)
        reached = frozenset(r for r in _reached(call) if not r.startswith("t:"))
        items = ctx.source_items(call)
        if len(items) == 1 and isinstance(items[0][1], ast.Name):
            items = _listed(ctx, items[0][0], items[0][1]) or _joined(
                ctx, run, items[0][1]) or items
        for value, node in items:
            asked = frozenset(r for r in value.weights if not r.startswith(("t:", "?")))
            if node is None or value.kind != "variable" or not asked or \
                    len(asked) != len(value.weights) or run.roots.overlap(asked, reached) \
                    or asked <= run.made.keys():  # a tf.Variable: unread_variables
                continue
            if block is None or _mentioned(ctx, node, block):
                continue
            inside = run.roots.expand(asked)
            twin = any(_twins(a, b) for a in inside for b in reached)
            # not a copy: only when nothing anywhere calls the model or hands it over
            # (a model called in a way the checker cannot follow stays silent)
            if twin or not _called(ctx, node):
                yield call, node, twin


def dangling_passes(ctx: LintContext) -> Iterator[tuple[ast.Call, str]]:
    """Yield (model call, source text): the loss comes from this pass, not the asked model's.

    ``fake = generator(noise)`` in the tape, then ``scores = discriminator(images)`` and
    ``tape.gradient(g_loss, generator.trainable_variables)``: the target reads nothing of
    the generator, whose name the block uses only to call it (its output dangles), and the
    target comes from exactly one other forward pass: that pass is the line to change.
    """
    for call, run in ctx.calls:
        if not call.target.live or not isinstance(call.tape, ast.expr):
            continue
        block = _block(ctx, call.tape)
        source = call.sources_node
        if block is None or not isinstance(source, ast.Attribute) or \
                not isinstance(source.value, ast.Name):
            continue
        asked = frozenset(r for r in call.sources if not r.startswith(("t:", "?")))
        reached = frozenset(r for r in _reached(call) if not r.startswith("t:"))
        if not asked or len(asked) != len(call.sources) or run.roots.overlap(asked, reached):
            continue
        name = source.value.id
        uses = [n for stmt in block.body for n in ast.walk(stmt)
                if isinstance(n, ast.Name) and n.id == name]
        calls = {id(c.func) for stmt in block.body for c in ast.walk(stmt)
                 if isinstance(c, ast.Call)}
        if not uses or any(id(n) not in calls for n in uses):
            continue  # used otherwise than called (handed to a function): not certain
        passes = {marker: node for marker, (node, _read) in run.model_calls.items()
                  if marker in call.target.ghost}
        if len(passes) == 1:
            yield next(iter(passes.values())), ctx.text(source)


def unread_members(ctx: LintContext) -> Iterator[tuple[ast.Assign, str]]:
    """Yield (assignment, name) for a weight a model class makes and no code ever reads.

    ``self.t = self.add_weight(...)`` (or ``tf.Variable``) in a class whose weights a
    gradient call asks for while its target reads the model: ``.t`` is read nowhere in the
    file, and the class never reads its weights generically (``self.weights``, ``getattr``).
    """
    seen: set[int] = set()
    for call, run in ctx.calls:
        for value, _node in ctx.source_items(call):
            for model in value.items if value.kind == "variable" else ():
                cls = model.node
                if not isinstance(cls, ast.ClassDef) or id(cls) in seen or \
                        not run.roots.overlap(model.weights, call.target.live):
                    continue
                seen.add(id(cls))
                if _generic(cls):
                    continue
                for stmt, attr in _made_weights(ctx, cls):
                    if not any(isinstance(n, ast.Attribute) and n.attr == attr
                               and isinstance(n.ctx, ast.Load) for n in ast.walk(ctx.tree)):
                        yield stmt, attr


def _made_weights(ctx: LintContext, cls: ast.ClassDef) -> Iterator[tuple[ast.Assign, str]]:
    for stmt in ast.walk(cls):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Attribute)
                and isinstance(stmt.targets[0].value, ast.Name)
                and stmt.targets[0].value.id == "self" and isinstance(stmt.value, ast.Call)):
            continue
        func = stmt.value.func
        made = (isinstance(func, ast.Attribute) and func.attr in ("add_weight", "add_variable")) \
            or (ctx.imports.dotted(func) or "") in names.VARIABLE
        trainable = not any(k.arg == "trainable" and isinstance(k.value, ast.Constant)
                            and k.value.value is False for k in stmt.value.keywords)
        if made and trainable:
            yield stmt, stmt.targets[0].attr


def _generic(cls: ast.ClassDef) -> bool:
    """Whether a class may read its weights without naming them (weight lists, getattr)."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and node.attr in names.WEIGHT_LISTS | {
                "__dict__", "_trainable_weights", "get_weights"}:
            return True
        if isinstance(node, ast.Name) and node.id in ("getattr", "vars", "setattr"):
            return True
    return False


def _block(ctx: LintContext, tape: ast.expr) -> ast.With | None:
    node = ctx.parents.get(tape)
    while node is not None and not isinstance(node, (ast.With, ast.AsyncWith)):
        node = ctx.parents.get(node)
    return node if isinstance(node, ast.With) else None


def _listed(ctx: LintContext, value: Value,
            name: ast.Name) -> list[tuple[Value, ast.expr | None]]:
    """Return the items of a source list bound by one ``name = [a, b]`` statement."""
    made = [n.value for n in ast.walk(ctx.tree) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name.id for t in n.targets)]
    if len(made) != 1 or not isinstance(made[0], (ast.List, ast.Tuple)) or \
            len(made[0].elts) != len(value.items):
        return []
    return list(zip(value.items, made[0].elts, strict=True))


def _joined(ctx: LintContext, run: Interpreter,
            name: ast.Name) -> list[tuple[Value, ast.expr | None]]:
    """Return the parts of ``name = a.trainable_variables + b.trainable_variables``.

    Each part a module-level model's weight list, as the module run bound the model.
    """
    made = [n.value for n in ast.walk(ctx.tree) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name.id for t in n.targets)]
    if len(made) != 1:
        return []
    parts: list[ast.expr] = []
    pending: list[ast.expr] = [made[0]]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            pending += [node.right, node.left]
        else:
            parts.append(node)
    out: list[tuple[Value, ast.expr | None]] = []
    for part in parts:
        if not (isinstance(part, ast.Attribute) and part.attr in names.WEIGHT_LISTS
                and isinstance(part.value, ast.Name)):
            return []
        model = run.module_env.get(part.value.id)
        if model is None or model.kind != "model" or not model.weights:
            return []
        out.append((Value(kind="variable", weights=model.weights), part))
    return out if len(out) > 1 else []


def twin_pass(ctx: LintContext, call: GradientCall) -> tuple[ast.Call, str] | None:
    """Return the pass in the tape where the asked model's twin was meant, and what it does.

    A pass of a copy the code writes (:func:`copy_pass`), else a pass repeated
    (:func:`repeated_pass`); None when neither is certain.
    """
    copy = copy_pass(ctx, call)
    if copy is not None:
        return copy, f"`{ctx.text(copy)}` may read a copy of the weights (written by " \
                     "`set_weights` or `assign`, which no gradient trains) where its twin was meant"
    repeated = repeated_pass(ctx, call)
    if repeated is not None:
        return repeated, f"`{ctx.text(repeated)}` may repeat a forward pass where its twin " \
                         "was meant"
    return None


def repeated_pass(ctx: LintContext, call: GradientCall) -> ast.Call | None:
    """Return the second of two identical model calls in the tape's block, if there is one.

    ``q1 = critic_1(sa)``, then ``q2 = critic_1(sa)`` where the twin ``critic_2`` was meant:
    the repeated pass is the line to change when the twin the call asks for is never read.
    """
    block = _block(ctx, call.tape) if isinstance(call.tape, ast.expr) else None
    run = next((r for c, r in ctx.calls if c is call), None)
    if block is None or run is None:
        return None
    passes = {id(node) for node, _weights in run.model_calls.values()}
    seen: dict[str, ast.Call] = {}
    for node in sorted((n for n in ast.walk(block) if isinstance(n, ast.Call)
                        and id(n) in passes), key=lambda n: (n.lineno, n.col_offset)):
        key = ast.unparse(node)
        if key in seen:
            return node
        seen[key] = node
    return None


def copy_pass(ctx: LintContext, call: GradientCall) -> ast.Call | None:
    """Return the one pass in the tape's block of a copy the target reads instead of its twin.

    ``target.set_weights(online.get_weights())`` (or an ``assign`` off every tape) makes the
    target network a copy nothing trains by gradient. A target that reads copies only, in a
    tape whose gradient asks for their twin (a DQN's Q(s, a) taken from the target network),
    reads that pass where the twin was meant: it is the line to change. The other way round
    (the copy's own weights asked for, as DDPG's target actor) the gradient call is.
    """
    block = _block(ctx, call.tape) if isinstance(call.tape, ast.expr) else None
    run = next((r for c, r in ctx.calls if c is call), None)
    if block is None or run is None or not run.copied:
        return None
    copied = run.roots.expand(frozenset(run.copied))
    reached = frozenset(r for r in _reached(call) if not r.startswith(("t:", "?")))
    if not reached or not all(r in copied for r in reached):
        return None
    last = block.end_lineno or block.lineno
    passes = [node for node, weights in run.model_calls.values() if weights <= copied
              and block.lineno <= node.lineno <= last]
    return passes[0] if len(passes) == 1 else None


def _called(ctx: LintContext, source: ast.expr) -> bool:
    """Whether a name of the source is called or passed to a call anywhere in the file."""
    wanted = {n.id for n in ast.walk(source) if isinstance(n, ast.Name)}
    for call in ast.walk(ctx.tree):
        if not isinstance(call, ast.Call) or (isinstance(call.func, ast.Attribute)
                                              and call.func.attr in _NOT_READING):
            continue
        head = call.func
        while isinstance(head, ast.Attribute):
            head = head.value
        passed = [*call.args, *(k.value for k in call.keywords)]
        if any(isinstance(n, ast.Name) and n.id in wanted for n in [head, *passed]):
            return True
    return False


def _mentioned(ctx: LintContext, source: ast.expr, block: ast.With) -> bool:
    """Whether a name of the source expression is used in the tape's block."""
    wanted = {n.id for n in ast.walk(source) if isinstance(n, ast.Name)}
    return any(isinstance(n, ast.Name) and n.id in wanted for stmt in block.body
               for n in ast.walk(stmt))


def constant_targets(ctx: LintContext) -> Iterator[tuple[ast.Assign, str, str]]:
    """Yield (assignment, name, sources) where the target is a constant of Python literals.

    ``class_channel = tf.constant([4.43])`` in the tape, then ``tape.gradient(class_channel,
    image)``: nothing recorded made it, so it depends on no source.
    """
    for call, _run in ctx.calls:
        node = call.node
        if not isinstance(node, ast.Call) or not node.args or \
                not isinstance(node.args[0], ast.Name) or call.sources_node is None:
            continue
        target = call.target
        if target.live or target.cuts or not all(r.startswith("t:") for r in target.ghost):
            continue
        name = node.args[0].id
        block = _block(ctx, call.tape) if isinstance(call.tape, ast.expr) else None
        made = [stmt for stmt in (block.body if block is not None else [])
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == name]
        stores = [n for stmt in (block.body if block is not None else [])
                  for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == name
                  and isinstance(n.ctx, ast.Store)]
        augmented = any(isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
                        and n.target.id == name for stmt in (block.body if block else [])
                        for n in ast.walk(stmt))
        if len(made) == 1 and len(stores) == 1 and not augmented and \
                _literal_tensor(ctx, made[0].value):
            yield made[0], name, ctx.text(call.sources_node)


def _literal_tensor(ctx: LintContext, node: ast.expr) -> bool:
    """Whether ``node`` is ``tf.constant(<Python literals>)`` (or convert_to_tensor)."""
    if not isinstance(node, ast.Call) or not node.args or \
            (ctx.imports.dotted(node.func) or "") not in names.TENSOR_MAKERS:
        return False
    try:
        ast.literal_eval(node.args[0])
    except ValueError:
        return False
    return True


def unread_variables(ctx: LintContext) -> Iterator[tuple[GradientCall, ast.Name]]:
    """Yield (call, name) for a ``tf.Variable`` source nothing in the source ever reads.

    Its only uses are as a gradient source or in ``apply_gradients``: no op reads it, so
    no target depends on it.
    """
    for call, run in ctx.calls:
        reached = _reached(call)
        for value, node in ctx.source_items(call):
            if value.kind != "variable" or not isinstance(node, ast.Name) or \
                    not value.weights or not all(r in run.made for r in value.weights) \
                    or run.roots.overlap(value.weights, reached):
                continue
            if not any(_read(ctx, n) for n in ast.walk(ctx.tree) if isinstance(n, ast.Name)
                       and n.id == node.id and isinstance(n.ctx, ast.Load)):
                yield call, node


def _read(ctx: LintContext, name: ast.Name) -> bool:
    """Whether a load of a name may read it (not only pass it as a gradient source)."""
    node: ast.AST | None = ctx.parents.get(name)
    while node is not None and not isinstance(node, ast.stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _NOT_READING and name not in ast.walk(node.func):
            return False
        node = ctx.parents.get(node)
    return True


#: Calls whose arguments are weights handed over, not read: ``tape.gradient(loss, [w, b])``.
_NOT_READING = frozenset({"gradient", "jacobian", "apply_gradients"})


def _reached(call: GradientCall) -> frozenset[str]:
    """Return the roots a target reads, would read (ghost), or lost at a cut."""
    target = call.target
    return target.live | target.ghost | frozenset(r for c in target.cuts for r in c.roots)


def _twins(a: str, b: str) -> bool:
    """Whether roots ``a`` and ``b`` were made by the same constructor in other call chains."""
    if "<" not in a or "<" not in b:
        return False
    site_a, chain_a = a.split("<", 1)
    site_b, chain_b = b.split("<", 1)
    return site_a.split(".", 1)[0] == site_b.split(".", 1)[0] and chain_a != chain_b
