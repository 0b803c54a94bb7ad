"""The abstract interpreter: runs a program's statements over :class:`Value` instead of tensors.

TF-free, no execution. :class:`Interpreter` walks one module in source order with one tape
*in focus* (a ``with tf.GradientTape() as tape:`` statement) or none. Inside the focus's body
(and in a Keras loss, a model's ``call``, a ``minimize`` callable) it is *recording*: reading a
weight makes a value live; outside it, every op on a live value is an ``outside`` cut. Calls of
the user's own functions, methods and Keras layers are followed into their bodies (a bounded
depth), so a cut in a loss helper is found where the helper writes it. Each
``tape.gradient(target, sources)`` on the focus is kept as a :class:`GradientCall` with the
abstract target and the sources' roots. Expressions and calls live in
:mod:`tapemagic.lint.calls`; this module holds the statements.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from tapemagic.lint.calls import Calls
from tapemagic.lint.names import Imports
from tapemagic.lint.values import EMPTY, Cut, Env, Site, Value, holds_variables, merge

_MAX_STEPS = 50_000  # statements interpreted per focus: bounds a pathological source's cost


@dataclass(frozen=True)
class GradientCall:
    """One ``tape.gradient(target, sources)`` (or Keras / ``minimize`` equivalent) as analysed.

    ``sources`` are the roots of the weights asked for (empty when unknown); ``node`` the call;
    ``sources_node`` the expression of the sources (None for Keras ``fit``).
    """

    node: ast.AST
    target: Value
    sources: frozenset[str]
    sources_node: ast.expr | None
    sources_value: Value
    tape: ast.expr | None = None  # the focus's ``tf.GradientTape(...)`` (None for Keras)
    watched: frozenset[str] = frozenset()  # what the focus had watched by then


class _Return(Exception):
    """Unwinds a function body at ``return`` (the value is kept on the interpreter)."""


class Interpreter(Calls):
    """Interpret one module with one tape in focus (see the module docstring)."""

    def __init__(self, tree: ast.Module, focus: ast.With | ast.Assign | None = None,
                 imports: Imports | None = None) -> None:
        super().__init__(tree, imports)
        self.focus = focus
        self.recording = False
        self.calls_found: list[GradientCall] = []
        self.reached_focus = False
        self.source_names = _source_names(tree)
        #: Each assignment interpreted -> whether every value it bound held only weights
        #: (TM112: rebinding a variable source to its own weight list replaces nothing)
        self.binds_variables: dict[ast.AST, bool] = {}
        #: Plain tensors bound to a name inside the focus, in order (a loss term left out)
        self.tape_bindings: list[tuple[ast.Assign, Value]] = []
        self._steps = 0
        self._returns: list[list[Value]] = []

    # -- scopes ----------------------------------------------------------------------------------
    def run_module(self) -> Env:
        """Interpret the module body; return its global scope."""
        self.module_env = Env()
        self.run_body(self.tree.body, self.module_env)
        return self.module_env

    def run_function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                     env: Env, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """Interpret a call of ``fn`` (defined in ``env``) on abstract arguments; return it."""
        local = Env(env)
        params = [*fn.args.posonlyargs, *fn.args.args]
        for index, param in enumerate(params):
            value = args[index] if index < len(args) else kwargs.get(param.arg, EMPTY)
            local.vars[param.arg] = value
        for param in fn.args.kwonlyargs:
            local.vars[param.arg] = kwargs.get(param.arg, EMPTY)
        if fn.args.vararg is not None:
            local.vars[fn.args.vararg.arg] = self.sequence(args[len(params):])
        if isinstance(fn, ast.Lambda):
            return self.expr(fn.body, local)
        self._returns.append([])
        try:
            self.run_body(fn.body, local)
        except _Return:
            pass
        found = self._returns.pop()
        out: Value | None = None
        for value in found:
            out = merge(out, value)
        return out or EMPTY

    def run_body(self, body: list[ast.stmt], env: Env) -> None:
        """Interpret statements in order."""
        for node in body:
            self._steps += 1
            if self._steps > _MAX_STEPS:
                return
            self.stmt(node, env)

    # -- statements ------------------------------------------------------------------------------
    def stmt(self, node: ast.stmt, env: Env) -> None:  # noqa: C901 - one branch per statement
        """Interpret one statement."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            env.vars[node.name] = Value(kind="function", node=node, env=env)
        elif isinstance(node, ast.ClassDef):
            env.vars[node.name] = Value(kind="class", node=node, env=env)
        elif isinstance(node, ast.Assign):
            value = self.identify(node, self.expr(node.value, env))
            if node is self.focus and value.kind == "tape-new":
                value = self.unentered_tape(node, value)
            self.binds_variables[node] = self.binds_variables.get(node, True) and \
                holds_variables(value)
            for target in node.targets:
                self.bind(target, value, env)
                self.freeze(target, node.value, env)
            if self.in_focus and value.kind is None and value.live:
                self.tape_bindings.append((node, value))
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.bind(node.target, self.expr(node.value, env), env)
        elif isinstance(node, ast.AugAssign):
            old = self.expr(node.target, env) if isinstance(node.target, ast.Name) else EMPTY
            value = self.op(node, self.binop_api(node.op), [old, self.expr(node.value, env)])
            self.bind(node.target, value, env)
        elif isinstance(node, ast.Expr):
            self.expr(node.value, env)
            self.discarded(node.value, env)
        elif isinstance(node, ast.Return):
            if self._returns:
                self._returns[-1].append(
                    self.expr(node.value, env) if node.value is not None else EMPTY)
                raise _Return
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            self.with_(node, env)
        elif isinstance(node, ast.If):
            self.if_(node, env)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            items = self.expr(node.iter, env)
            self.bind(node.target, self.element(items), env)
            if items.kind == "dataset" and self.traced and self.recording:
                self.reduced(node, env)
            else:
                self.branches(env, [node.body, node.orelse], None)
        elif isinstance(node, ast.While):
            self.expr(node.test, env)
            self.branches(env, [node.body, node.orelse], None)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            handlers = [h.body for h in getattr(node, "handlers", [])]
            # a handler that watches something else is the code's own fallback for a watch
            # that raises (`except ValueError: tape.watch(x)`); `except: pass` is not
            falls_back = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                             and n.func.attr == "watch"
                             for body in handlers for stmt in body for n in ast.walk(stmt))
            self.guarded += falls_back
            try:
                self.run_body(node.body, env)  # type: ignore[attr-defined]
            finally:
                self.guarded -= falls_back
            self.branches(env, [*handlers, node.orelse], None)  # type: ignore[attr-defined]
            self.run_body(node.finalbody, env)  # type: ignore[attr-defined]

    def branches(self, env: Env, bodies: list[list[ast.stmt]], cut: Cut | None) -> None:
        """Interpret alternative bodies from the same state; keep what any of them bound.

        ``cut`` (a Python branch on a live tensor) is added to every name a branch binds.
        """
        copies = []
        for body in bodies:
            branch = env.copy()
            try:
                self.run_body(body, branch)
            except _Return:
                if len(bodies) == 1:
                    raise
            copies.append(branch)
        for branch in copies:
            if cut is not None:
                for name, value in branch.vars.items():
                    if env.vars.get(name) is not value:
                        branch.vars[name] = replace(value, cuts=value.cuts | {cut})
            env.absorb(branch)

    def reduced(self, node: ast.For | ast.AsyncFor, env: Env) -> None:
        """Interpret a ``for`` over a tf.data dataset in a traced function.

        Autograph runs it as ``Dataset.reduce`` (``_tf_dataset_for_stmt``): the body is the
        reduce function, traced into the dataset's own graph, and what the loop carries
        out comes from the reduce op, which no tape differentiates. What the body bound is
        cut there; eagerly the same loop is plain Python on the tape.
        """
        branch = env.copy()
        self.run_body(node.body, branch)
        api = f"for {ast.unparse(node.target)} in ... (a traced loop over a dataset: " \
              "Dataset.reduce)"
        for name, value in branch.vars.items():
            if env.vars.get(name) is not value and value.kind is None:
                branch.vars[name] = self.cut(node.iter, "non-differentiable", api, [value])
        env.absorb(branch)

    def if_(self, node: ast.If, env: Env) -> None:
        """Interpret an ``if``; a branch on a live tensor value is a ``control`` cut."""
        test = self.condition(node.test, env)
        cut = None
        if self.recording and test.live:
            cut = Cut("control", ast.unparse(node.test), Site.of(node.test), test.live, node.test)
        self.branches(env, [node.body, node.orelse], cut)

    def with_(self, node: ast.With | ast.AsyncWith, env: Env) -> None:
        """Interpret a ``with``: a tape (the focus starts recording) or ``stop_recording``."""
        recording, in_focus, paused = self.recording, self.in_focus, self.paused
        for item in node.items:
            value = self.expr(item.context_expr, env)
            if value.kind == "tape" and item.optional_vars is None:
                value = replace(value, node=node)  # `with tape:` on a tape made earlier
            if value.kind == "tape-new":
                value = replace(value, kind="tape", node=node)
            if value.kind == "tape" and value.node is node and node is self.focus:
                self.reached_focus = True
                self.recording = True
                self.in_focus = True
                self.watched = set()
                self.focus_call = item.context_expr
                self.focus_watches = value.text != "no-watch"
            if value.kind == "stop-recording":
                if self.in_focus:
                    self.paused = item.context_expr
                self.recording = self.in_focus = False
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, env)
            elif isinstance(item.context_expr, ast.Name) and value.kind == "tape":
                env.vars[item.context_expr.id] = value
        try:
            self.run_body(node.body, env)
        finally:
            self.recording, self.in_focus, self.paused = recording, in_focus, paused

    def unentered_tape(self, node: ast.Assign, value: Value) -> Value:
        """Return the focus tape made by ``node`` that no ``with`` ever enters.

        ``GradientTape.__enter__`` is what starts recording (backprop.py ``_push_tape``):
        a tape only made records no op, so its gradient call's target reaches no weight.
        """
        self.reached_focus = True
        self.watched = set()
        self.focus_call = self.unentered = node.value
        return replace(value, kind="tape", node=node)

    def record(self, node: ast.AST, target: Value, sources: Value,
               sources_node: ast.expr | None) -> None:
        """Keep one gradient call of the focus (or a Keras / ``minimize`` equivalent)."""
        tape = self.focus_call if self.focus is not None else None
        self.calls_found.append(GradientCall(node, target, sources.weights, sources_node,
                                             sources, tape, frozenset(self.watched)))

    def identify(self, node: ast.Assign, value: Value) -> Value:
        """Give a tensor computed in the tape from weights an identity, if it is a source.

        ``conv_out, preds = grad_model(img)`` then ``tape.gradient(score, conv_out)``: the
        identity (a ``t:`` root) flows to what is computed from this statement's value, so a
        target computed from a second forward pass is told apart from one computed from it.
        """
        if not (self.in_focus and self.recording and value.live and value.kind in (None, "seq")):
            return value
        bound = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        if not bound & self.source_names:
            return value
        root = "t:" + self.fresh(node.value)
        self.made.setdefault(root, Site.of(node.targets[0]))
        # the forward passes it came from (markers of model calls) are its own pass
        passes = frozenset(r for r in value.ghost if r.startswith("t:call@"))
        self.computed.setdefault(root, (value.live, node.value, passes))
        mark = {root}
        items = tuple(replace(i, live=i.live | mark, weights=i.weights | mark)
                      for i in value.items)
        return replace(value, live=value.live | mark, weights=value.weights | mark, items=items)

    # -- binding -------------------------------------------------------------------------------
    def bind(self, target: ast.expr, value: Value, env: Env, source: bool = True) -> None:
        """Bind ``value`` to an assignment target (names, tuples, attributes of ``self``).

        ``source`` False: a plain tensor bound to a name gets no root (a method's local).
        """
        if isinstance(target, ast.Name):
            if source and value.kind is None and not (value.live or value.weights or value.items
                                                      or value.text not in ("", "int")):
                # a plain tensor (or number) gets a root, so that it can be a gradient
                # source: TM102 when the tape never watched it before the loss used it
                root = "t:" + self.fresh(target)
                self.made.setdefault(root, Site.of(target))
                value = replace(value, weights=frozenset({root}), ghost=value.ghost | {root})
            env.vars[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Starred):
                    self.bind(element.value, value, env, source)
                else:
                    self.bind(element, self.item(value, index, target), env, source)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, value, env, source)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            self.store(target, value, env)

    def freeze(self, target: ast.expr, value: ast.expr, env: Env) -> None:
        """Note ``model.trainable = False`` (or ``True``) on a model value of the source.

        Keras then lists none of its weights in ``trainable_variables`` (layer.py
        ``trainable_weights``), so a source list read from it after that is empty of them.
        """
        if not (isinstance(target, ast.Attribute) and target.attr == "trainable"):
            return
        owner = self.expr(target.value, env)
        if owner.kind not in ("model", "instance") or not owner.weights:
            return
        if isinstance(value, ast.Constant) and value.value is False:
            self.frozen_models |= owner.weights
            for root in owner.weights:
                self.frozen_sites[root] = Site.of(target)
        else:
            self.frozen_models -= owner.weights

    def store(self, target: ast.Subscript, value: Value, env: Env) -> None:
        """Bind ``d[key] = value`` in a dict or list the source made (``out["loss"] = loss``).

        A string key replaces that key's item; any other key adds a possible item.
        """
        assert isinstance(target.value, ast.Name)
        held = env.get(target.value.id)
        if held is None or held.kind != "seq":
            return
        key = target.slice.value if isinstance(target.slice, ast.Constant) else None
        items, keys = list(held.items), list(held.keys)
        if isinstance(key, str) and len(keys) == len(items):
            if key in keys:
                items[keys.index(key)] = value
            else:
                items.append(value)
                keys.append(key)
        else:
            items.append(value)
            keys = []
        made = self.sequence(items)
        env.vars[target.value.id] = replace(made, keys=tuple(keys))


def _source_names(tree: ast.Module) -> frozenset[str]:
    """Return the names passed as sources to any ``.gradient``/``.jacobian`` call."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("gradient", "jacobian", "batch_jacobian")):
            continue
        given = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "sources")]
        for expr in given:
            for part in expr.elts if isinstance(expr, (ast.List, ast.Tuple)) else [expr]:
                if isinstance(part, ast.Name):
                    out.add(part.id)
    return frozenset(out)
