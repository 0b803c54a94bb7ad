"""What the rules' static matchers read: the gradient calls of a source and the cuts that count.

TF-free, no execution. :func:`analyse` interprets the module once per tape (each ``with
tf.GradientTape()`` in focus in turn; a tape inside a function nobody in the source calls, such
as a Keras ``train_step``, is analysed with that function's parameters unknown) and once without
a tape for Keras ``compile``/``fit`` losses and ``optimizer.minimize``. A cut *counts* for a
gradient call when the call's target no longer depends, through recorded ops, on weights the
cut took away and the call asks for (or, when the sources are unknown, on any weight at all):
so NumPy after the tape, ``argmax`` for a metric, a ``stop_gradient`` target or a
straight-through estimator give nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

from tapemagic.lint import compiled, patterns
from tapemagic.lint.dropped import Dropped, dropped_terms
from tapemagic.lint.interp import GradientCall, Interpreter
from tapemagic.lint.names import GRADIENT_TAPE, Imports
from tapemagic.lint.tapes import unentered
from tapemagic.lint.values import EMPTY, Cut, Env, Site, Value, join
from tapemagic.report.model import Edit


@dataclass(frozen=True)
class Counted:
    """A cut that severs weights a gradient call asks for."""

    cut: Cut
    call: GradientCall
    severed: frozenset[str]


@dataclass(frozen=True)
class LintMatch:
    """What a rule's static matcher found: the rule, the place, its hint params, quick edits."""

    code: str
    site: Site
    params: dict[str, str] = field(default_factory=dict)
    edits: tuple[Edit, ...] = ()


#: calls that make a constant tensor from host values (`tf.constant(w_np)`)
_CONSTANT_MAKERS = frozenset({"constant", "convert_to_tensor", "array", "asarray", "ones",
                              "zeros", "fill"})


@dataclass
class LintContext:
    """One parsed source, its gradient calls and the cuts that count (see module docstring)."""

    tree: ast.Module
    lines: list[str]
    parents: dict[ast.AST, ast.AST] = field(default_factory=dict)
    imports: Imports = field(default_factory=lambda: Imports(ast.Module([], [])))
    calls: list[tuple[GradientCall, Interpreter]] = field(default_factory=list)
    #: ``tape.watch(...)`` calls inside a tape that raise (Keras 3 variables, Keras tensors).
    failed_watches: list[Cut] = field(default_factory=list)
    #: Loss terms computed in a tape and left out of its target (:mod:`.dropped`), once.
    left_out: list[Dropped] | None = None

    def dropped(self) -> list[Dropped]:
        """Return the terms computed in a tape from asked weights and left out of its target."""
        if self.left_out is None:
            self.left_out = list(dropped_terms(self.tree, self.calls))
        return self.left_out

    def counted(self) -> Iterator[Counted]:
        """Yield every cut that counts, once per (cut, gradient call).

        Not a cut whose weights a term left out of the target reaches (the value loss an
        actor-critic computed and never added): adding the term is the fix, not the cut.
        """
        for call, run in self.calls:
            roots = run.roots
            sources = roots.expand(call.sources)
            left = frozenset().union(*(d.roots for d in self.dropped() if d.call is call))
            for cut in sorted(call.target.cuts, key=lambda c: (c.site.line, c.site.col)):
                if cut.kind == "not-watched":  # live but unrecorded: see Blocks.read
                    reached = call.target.live | call.target.ghost
                    if sources and roots.overlap(cut.roots, sources) and \
                            roots.overlap(cut.roots, reached):
                        yield Counted(cut, call, cut.roots)
                    continue
                # tensor roots count only as asked-for sources; unknown names' (`?model`,
                # from another cell) only when the call asks for them
                raising = _raises(cut, call.target)
                lost = cut.roots if raising else roots.severed(cut, call.target.live)
                severed = frozenset(r for r in lost if r not in run.untrained and (
                    not r.startswith(("t:", "?")) or r in sources))
                if not severed:
                    continue
                if sources and not roots.overlap(severed, sources):
                    continue
                if not sources and call.target.live and not raising:
                    continue
                if left and severed <= roots.expand(left):
                    continue
                yield Counted(cut, call, severed)

    def cuts(self, kind: str) -> Iterator[Counted]:
        """Yield the counted cuts of one kind (``host``, ``integer``, ``outside``...)."""
        return (c for c in self.counted() if c.cut.kind == kind)

    def target_statement(self, call: GradientCall) -> ast.stmt | None:
        """Return the last assignment of a gradient call's target name before the call."""
        given = call.node.args[0] if isinstance(call.node, ast.Call) and call.node.args \
            else None
        if not isinstance(given, ast.Name):
            return None
        found = [n for n in ast.walk(self.tree) if isinstance(n, ast.Assign)
                 and n.lineno < getattr(call.node, "lineno", 0) and any(
                     isinstance(t, ast.Name) and t.id == given.id for t in n.targets)]
        return max(found, key=lambda n: n.lineno, default=None)

    def unwatched_tensors(self) -> Iterator[tuple[GradientCall, list[Site]]]:
        """Yield gradient calls with a tensor source the loss used before any watch of it.

        With the sites to point at: the watch that came too late, else the tape and the line
        that made the tensor.
        """
        for call, run in self.calls:
            tensors = {r for r in call.sources if r.startswith("t:")}
            # a tensor a cut took away was watched in time: the cut is the story (TM202...)
            cut_off = {r for c in call.target.cuts if c.kind != "not-watched" for r in c.roots}
            missing = sorted(r for r in tensors if r in call.target.ghost
                             and r not in call.target.live and r not in cut_off)
            if not missing or call.tape is None:
                continue
            block = run.focus
            if block is not None and any(
                    block.lineno <= w.site.line <= (block.end_lineno or block.lineno)
                    for w in self.failed_watches):
                continue  # the watch in this block raises: that is the one cause (TM108)
            sites: list[Site] = []
            for root in missing:
                late = run.watch_sites.get(root)
                if late is not None:
                    sites.append(late)
                else:
                    sites.append(Site.of(call.tape))
                    made = run.made.get(root)
                    here = self._scope_of(Site.of(call.node).line)
                    if (made is not None and self._constant_at(made)
                            and self._scope_of(made.line) is here):
                        # a constant could become a tf.Variable there; a computed tensor
                        # (interpolated images) has only the watch to fix, as the engine says;
                        # one the step got as an argument (a PINN's collocation points) is the
                        # caller's data, not the line to change
                        sites.append(made)
            yield call, sites

    def _scope_of(self, line: int) -> ast.AST:
        """Return the innermost function (or the module) whose body holds ``line``."""
        scope: ast.AST = self.tree
        for node in ast.walk(self.tree):
            if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                    and node.lineno <= line <= (node.end_lineno or node.lineno)
                    and node.lineno >= getattr(scope, "lineno", 0)):
                scope = node
        return scope

    def _constant_at(self, site: Site) -> bool:
        """Return True when the name at ``site`` is bound to a literal or a constant tensor.

        ``tf.constant(w_np)`` is one; a computed tensor (``real + alpha * diff``) is not.
        """
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign) and any(
                    Site.of(t) == site for t in node.targets):
                value = node.value
                if isinstance(value, ast.Call):
                    name = self.text(value.func).rsplit(".", 1)[-1]
                    return name in _CONSTANT_MAKERS
                return isinstance(value, (ast.Constant, ast.List, ast.Tuple))
        return False

    def source_items(self, call: GradientCall) -> list[tuple[Value, ast.expr | None]]:
        """Return each source of a call with its expression (one value for a single source)."""
        node, value = call.sources_node, call.sources_value
        if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == len(value.items):
            return list(zip(value.items, node.elts, strict=True))
        return [(value, node)]

    def integer_sources(self) -> Iterator[Site]:
        """Yield where an integer ``tf.Variable`` passed as a gradient source was made."""
        for call, run in self.calls:
            for value, _node in self.source_items(call):
                if value.kind == "variable" and value.text == "int":
                    yield from (run.made[r] for r in sorted(value.weights) if r in run.made)

    def integer_watches(self) -> Iterator[Site]:
        """Yield ``tape.watch(ids)`` sites of integer tensors a gradient call then asks for.

        Token ids (``tf.constant([[3, 14]])``, a tokenizer's output, an integer cast) get no
        gradient: TensorFlow only watches floating tensors, and an Embedding looks them up.
        """
        for call, run in self.calls:
            asked = {ast.unparse(node) for _value, node in self.source_items(call)
                     if node is not None}
            for cut in run.integer_watches:
                if cut.node is not None and ast.unparse(cut.node) in asked:
                    yield cut.site

    def watch_site(self, found: Counted) -> Site | None:
        """Return where the tensor sources a cut severs were watched (all of them), if so."""
        roots = found.severed
        if not roots or not all(r.startswith("t:") for r in roots):
            return None
        run = next(r for c, r in self.calls if c is found.call)
        sites = {run.watch_sites.get(r) for r in roots}
        return sites.pop() if len(sites) == 1 and None not in sites else None

    def unbuilt_sources(self) -> Iterator[ast.AST]:
        """Yield where the weight list a gradient call got was read from an unbuilt model."""
        for call, _run in self.calls:
            value = call.sources_value
            if value.text == "keras:unbuilt" and value.node is not None:
                yield value.node

    def replaced_variables(self) -> Iterator[tuple[str, ast.stmt]]:
        """Yield (name, statement) where a loop rebinds a variable source to a plain tensor.

        ``x = x - lr * g`` after ``tape.gradient(y, x)`` in the same loop: the next run's
        source is a tensor no tape watches.
        """
        for call, run in self.calls:
            loop = self.parents.get(call.node)
            while loop is not None and not isinstance(loop, (ast.For, ast.While)):
                loop = self.parents.get(loop)
            if loop is None:
                continue
            for value, node in self.source_items(call):
                if value.kind != "variable" or not isinstance(node, ast.Name):
                    continue
                for stmt in ast.walk(loop):
                    if _rebinds(stmt, node.id) and _binds_tensor(stmt, run):
                        yield node.id, stmt  # type: ignore[misc]

    def segment(self, site: Site) -> str:
        """Return the source text of a one-line site ('' for a longer one)."""
        if site.line != site.end_line or not 0 < site.line <= len(self.lines):
            return ""
        raw = self.lines[site.line - 1].encode("utf-8")
        return raw[site.col:site.end_col].decode("utf-8", errors="replace")

    def text(self, node: ast.AST) -> str:
        """Return the source text of ``node`` ('' when it spans nothing)."""
        return ast.get_source_segment("\n".join(self.lines), node) or ""


def _raises(cut: Cut, target: Value) -> bool:
    """Whether ``cut`` is an op with no gradient at all that a gradient reaches.

    TensorFlow calls an op's gradient function only when a gradient reaches one of its
    outputs: one a later cut took away (an argmax of its result, a ``stop_gradient`` around
    it: ``Blocks.cut`` marks those ``raises-after``) raises nothing.
    """
    return cut.detail == "raises" and not any(
        c.detail == "secondary" and c.roots & cut.roots for c in target.cuts)


def _rebinds(stmt: ast.AST, name: str) -> bool:
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    return isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and \
        stmt.target.id == name


def _binds_tensor(stmt: ast.AST, run: Interpreter) -> bool:
    """Whether a rebinding of a variable source leaves a plain tensor in the name.

    Judged by the value the interpreter bound there, not by the statement's shape: a fresh
    ``tf.Variable(...)``, or a dict of ``model.trainable_variables`` rebuilt each step, still
    holds variables. ``x -= lr * g`` always gives a tensor; a statement this run never
    interpreted (a function defined in the loop and not called) gives no evidence: no hint.
    """
    if isinstance(stmt, ast.AugAssign):
        return True
    held = run.binds_variables.get(stmt)
    return held is not None and not held


def _tape_like(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return last in {name.rsplit(".", 1)[-1] for name in GRADIENT_TAPE}
    return False


def analyse(tree: ast.Module, lines: list[str]) -> LintContext:
    """Interpret ``tree`` once per tape and once for Keras; return the rules' context."""
    nodes = list(ast.walk(tree))
    parents = {child: parent for parent in nodes for child in ast.iter_child_nodes(parent)}
    imports = Imports(tree)
    ctx = LintContext(tree, lines, parents, imports)
    # `with tape:` counts only where a tape was made first (`tape = tf.GradientTape()`)
    made_tapes = any(isinstance(n, ast.Call) and _tape_like(n) for n in nodes)
    focuses = [n for n in nodes if isinstance(n, (ast.With, ast.AsyncWith))
               and any(_tape_like(i.context_expr) if isinstance(i.context_expr, ast.Call)
                       else made_tapes and _tape_like(i.context_expr) for i in n.items)]
    for focus in [None, *focuses, *unentered(nodes, parents)]:
        interp = Interpreter(tree, focus, imports)  # type: ignore[arg-type]
        env = interp.run_module()
        if focus is None:
            _compiles(interp)
        elif not interp.reached_focus:
            _standalone(interp, focus, env, parents)  # type: ignore[arg-type]
        ctx.calls += [(call, interp) for call in interp.calls_found]
        ctx.failed_watches += [c for c in interp.failed_watches if c not in ctx.failed_watches]
    return ctx


def _compiles(interp: Interpreter) -> None:
    """Record each ``model.compile(loss=...)`` as a gradient call of the model's weights."""
    for model, loss, node in interp.compiles:
        interp.recording = True
        # fit runs the loss and the model's call in its train function, traced once per
        # compile (a compile in a loop makes a new one each time round)
        interp.trace(not any(k.arg == "run_eagerly" and not (
            isinstance(k.value, ast.Constant) and k.value.value is False)
            for k in node.keywords), node in interp.made_once)
        try:
            prediction = compiled.keyed_prediction(
                interp.call_model(node, model, [EMPTY], {}), loss, node)
            for fn in loss.items if loss.kind == "seq" else (loss,):
                target = prediction
                if fn.kind in ("function", "loss", "model", "object", "class"):
                    target = interp.call_value(node, fn, [EMPTY, prediction], {})
                # fit adds the losses the model's layers added (``add_loss``) to the loss
                target = join(target, interp.added_loss(model, node))
                interp.record(node, target, Value(weights=model.weights), None)
        finally:
            interp.recording = interp.traced = interp.captured = False


def _standalone(interp: Interpreter, focus: ast.With, env: Env,
                parents: dict[ast.AST, ast.AST]) -> None:
    """Interpret the function holding ``focus`` on unknown arguments (``self``: its class)."""
    fn: ast.AST | None = parents.get(focus)
    while fn is not None and not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        fn = parents.get(fn)
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    args: list[Value] = []
    owner = parents.get(fn)
    if isinstance(owner, ast.ClassDef) and fn.args.args:
        cls = env.get(owner.name)
        if cls is not None and cls.kind == "class":
            instance = interp.instantiate(owner, cls)
            args.append(Value(kind=instance.kind, weights=frozenset({"self"}), node=owner,
                              env=cls.env))
    scope = env if parents.get(fn) is interp.tree else Env(env)
    # a tf.function, or the train_step / test_step a Keras model's fit traces
    interp.trace(patterns.traced(fn, interp.imports) or (
        fn.name in _KERAS_STEPS and bool(args) and args[0].kind == "model"),
        fn in interp.made_once)
    try:
        interp.run_function(fn, scope, args, {})
    finally:
        interp.traced = interp.captured = False


#: The Keras model methods that ``fit``/``evaluate`` run in a traced function.
_KERAS_STEPS = frozenset({"train_step", "test_step"})
