"""A tape's own methods for the abstract interpreter: gradient, watch, stop_recording, reset.

TF-free. What ``tf.GradientTape``'s methods do to what the focus records (backprop.py):
``gradient`` is a gradient call of the focus, ``watch`` adds to its watch set (and raises on
Keras 3 variables and symbolic tensors), ``stop_recording`` pauses it, ``reset`` discards what
it recorded so far.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from tapemagic.lint import names
from tapemagic.lint.blocks import api_of
from tapemagic.lint.values import EMPTY, Cut, Env, Site, Value
from tapemagic.lint.wrapped import Wrapped


class Tapes(Wrapped):
    """The focus tape's methods (see the module docstring)."""

    def tape_method(self, node: ast.Call, tape: Value, attr: str, args: list[Value],
                    kwargs: dict[str, Value], env: Env) -> Value:
        """Return the value of ``tape.gradient/watch/stop_recording(...)``."""
        if attr == "stop_recording":
            return Value(kind="stop-recording")
        if attr == "reset" and tape.node is self.focus and self.in_focus:
            self.forget(node, env)
            return EMPTY
        if attr == "watch":
            if tape.node is self.focus and self.in_focus:
                for value, arg in zip(args, node.args, strict=False):
                    self.watch(value, arg, env)
            return EMPTY
        if attr in ("gradient", "jacobian", "batch_jacobian"):
            target = kwargs.get("target") or (args[0] if args else EMPTY)
            sources = kwargs.get("sources") or (args[1] if len(args) > 1 else EMPTY)
            node_sources = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "sources"), None)
            if attr == "gradient" and tape.node is self.focus and self.focus is not None:
                self.record(node, target, sources, node_sources)
            value = Value(live=target.live | sources.live, cuts=target.cuts, ghost=target.ghost)
            if tape.node is self.focus and self.focus is not None and not self.recording \
                    and value.live:
                # a persistent tape's gradient taken after its block: the tape does not
                # record it, nor the ops on it (each is a line to move into the block)
                cut = Cut("outside", api_of(node.func), Site.of(node), value.live, node)
                return replace(value, cuts=value.cuts | {cut})
            return value
        return EMPTY

    def forget(self, node: ast.Call, env: Env) -> None:
        """Interpret ``tape.reset()`` on the focus: what it recorded so far is discarded.

        ``GradientTape.reset`` (backprop.py) drops the tape's record and its watches; the
        values computed before it are then as if computed off the tape, so each is cut here.
        """
        self.watched = set()
        scope: Env | None = env
        while scope is not None:
            for name, held in scope.vars.items():
                if held.live and held.kind is None:
                    cut = Cut("outside", api_of(node.func) + "()", Site.of(node), held.live,
                              node)
                    scope.vars[name] = replace(held, live=frozenset(), cuts=held.cuts | {cut},
                                               ghost=held.ghost | held.live)
            scope = scope.parent

    def watch(self, value: Value, arg: ast.expr, env: Env) -> None:
        """Record ``tape.watch(arg)`` on the focus: its weights, or the tensor named by ``arg``.

        Keras 3 variables and symbolic Keras tensors (``model.inputs``) make ``tape.watch``
        raise ``ValueError`` (verified on TF 2.21 / Keras 3.15; ``tf.Variable`` is fine): such a
        watch is kept as a failed watch and watches nothing.
        """
        if value.kind in ("keras-tensor", "symbolic") or (value.kind == "variable"
                                            and value.text.startswith("keras")):
            if not self.guarded:  # a raise the code catches is the code's own fallback
                self.failed_watches.append(Cut("failed-watch", api_of(arg), Site.of(arg),
                                               value.weights, arg))
            self.failed_roots |= value.weights
            return
        self.watched |= value.weights | value.live
        parts = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) and \
            len(arg.elts) == len(value.items) else [arg]
        for part, given in zip(parts, value.items if len(parts) > 1 or parts[0] is not arg
                               else (value,), strict=False):
            if given.text == "int" and given.kind is None:  # token ids: no gradient reaches them
                self.integer_watches.append(Cut("integer", f"tape.watch({api_of(part)})",
                                                Site.of(part), frozenset(), part))
        for name in arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]:
            held = env.get(name.id) if isinstance(name, ast.Name) else None
            if held is None or held.kind == "variable" or not isinstance(name, ast.Name):
                continue
            tensors = frozenset(r for r in held.weights if r.startswith("t:")) or \
                frozenset({f"t:watch:{name.id}"})
            for root in tensors:
                self.watch_sites.setdefault(root, Site.of(arg))
            self.watched |= tensors
            env.vars[name.id] = replace(held, live=held.live | tensors,
                                        weights=held.weights | tensors)


#: A tape's methods: a name only ever used through them is never entered by a ``with``.
_TAPE_METHODS = frozenset({"gradient", "jacobian", "batch_jacobian", "watch", "watched_variables",
                           "reset", "stop_recording"})


def unentered(nodes: list[ast.AST], parents: dict[ast.AST, ast.AST]) -> list[ast.Assign]:
    """Return each ``name = tf.GradientTape(...)`` that no code can enter.

    Certain only when the name is bound once in the source and every read of it calls a
    tape method (one of them a gradient): a tape handed over, stored, returned or used in a
    ``with`` anywhere may be entered where the checker does not look.
    """
    stores: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
    out = []
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and _made_tape(node.value) and stores.get(node.targets[0].id) == 1):
            continue
        name = node.targets[0].id
        reads = [n for n in nodes if isinstance(n, ast.Name) and n.id == name
                 and isinstance(n.ctx, ast.Load)]
        methods = [getattr(parents.get(n), "attr", None) for n in reads]
        if reads and all(m in _TAPE_METHODS for m in methods) and \
                any(m in ("gradient", "jacobian", "batch_jacobian") for m in methods):
            out.append(node)
    return out


def _made_tape(call: ast.Call) -> bool:
    """Whether ``call`` makes a ``tf.GradientTape`` (by its last name, as ``context`` does)."""
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return last in {name.rsplit(".", 1)[-1] for name in names.GRADIENT_TAPE}
