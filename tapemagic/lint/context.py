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

from tapemagic.lint.interp import GradientCall, Interpreter
from tapemagic.lint.names import GRADIENT_TAPE
from tapemagic.lint.values import EMPTY, Cut, Env, Roots, Site, Value
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


@dataclass
class LintContext:
    """One parsed source, its gradient calls and the cuts that count (see module docstring)."""

    tree: ast.Module
    lines: list[str]
    calls: list[tuple[GradientCall, Roots]] = field(default_factory=list)

    def counted(self) -> Iterator[Counted]:
        """Yield every cut that counts, once per (cut, gradient call)."""
        for call, roots in self.calls:
            sources = roots.expand(call.sources)
            for cut in sorted(call.target.cuts, key=lambda c: (c.site.line, c.site.col)):
                severed = roots.severed(cut, call.target.live)
                if not severed:
                    continue
                if sources and not roots.overlap(severed, sources):
                    continue
                if not sources and call.target.live:
                    continue
                yield Counted(cut, call, severed)

    def cuts(self, kind: str) -> Iterator[Counted]:
        """Yield the counted cuts of one kind (``host``, ``integer``, ``outside``...)."""
        return (c for c in self.counted() if c.cut.kind == kind)

    def text(self, node: ast.AST) -> str:
        """Return the source text of ``node`` ('' when it spans nothing)."""
        return ast.get_source_segment("\n".join(self.lines), node) or ""


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
    ctx = LintContext(tree, lines)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    focuses = [n for n in ast.walk(tree) if isinstance(n, (ast.With, ast.AsyncWith))
               and any(_tape_like(i.context_expr) for i in n.items)]
    for focus in [None, *focuses]:
        interp = Interpreter(tree, focus)  # type: ignore[arg-type]
        env = interp.run_module()
        if focus is None:
            _compiles(interp)
        elif not interp.reached_focus:
            _standalone(interp, focus, env, parents)  # type: ignore[arg-type]
        ctx.calls += [(call, interp.roots) for call in interp.calls_found]
    return ctx


def _compiles(interp: Interpreter) -> None:
    """Record each ``model.compile(loss=...)`` as a gradient call of the model's weights."""
    for model, loss, node in interp.compiles:
        interp.recording = True
        try:
            prediction = interp.call_model(node, model, [EMPTY], {})
            for fn in loss.items if loss.kind == "seq" else (loss,):
                target = prediction
                if fn.kind in ("function", "loss", "model", "object", "class"):
                    target = interp.call_value(node, fn, [EMPTY, prediction], {})
                interp.record(node, target, Value(weights=model.weights), None)
        finally:
            interp.recording = False


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
    interp.run_function(fn, scope, args, {})
