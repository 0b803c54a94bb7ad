"""Which parameters a TensorFlow function's result depends on, followed through its source.

Read by :mod:`tapemagic.tracing.api_catalog` when the static checker's catalog is regenerated.
A function's body is interpreted statement by statement over sets of parameter names: a
generated op with no gradient gives a value that depends on no parameter but carries the op
(``!Op``) when a parameter or another such op reached it, so that what a function returns
says which gradient-less ops severed it (an assertion's ``Where`` on a side path does not
count), metadata attributes depend on nothing, a call of
another Python function of TensorFlow is followed into that function's own source (its
result depends on the arguments its ``return`` depends on: ``tf.nn.ctc_beam_search_decoder``
returns what the v1 function returns, a ``CTCBeamSearchDecoder`` output), and anything else
depends on all its parts. Options can be fixed (``output_is_sparse=True``): an ``if`` on a
fixed parameter runs its chosen branch only, and a branch that returns ends the function.

Precision over recall, as the catalog only ever lists an API when no dependence is left: a
name bound in a loop depends on what it iterates, a nested function or lambda on what it
closes over, a method call on an object adds its arguments to the object (``out.append(x)``),
and a call that cannot be followed (a method, ``*args``, no source) depends on everything.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from tapemagic.tracing.api_lookups import CUT, Deps, Lookups, Registry, cuts

__all__ = ["CUT", "METADATA", "Flow", "cuts", "parameters", "parse"]

_NONE: Deps = frozenset()
#: Tensor attributes that are metadata: reading them reads no value (a sparse tensor's
#: ``dense_shape`` is its shape, an integer tensor).
METADATA = frozenset({"dtype", "shape", "name", "ndim", "device", "graph", "op", "rank",
                      "dense_shape"})
#: How deep calls are followed (an API, its v1 body, a helper, ...).
_MAX_DEPTH = 4
#: A summary being computed (recursion): its callers treat the call as unknown.
_BUSY = frozenset({"!busy"})


def parse(target: Any) -> ast.FunctionDef | None:
    """Return the ``def`` of a Python function's source (None when it cannot be read)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(target)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    fn = tree.body[0] if tree.body else None
    return fn if isinstance(fn, ast.FunctionDef) else None


def parameters(fn: ast.FunctionDef) -> list[str]:
    """Return a ``def``'s named parameters in order (positional first, keyword-only last)."""
    return [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]]


class Flow(Lookups):
    """One interpretation of one function body (see the module docstring)."""

    def __init__(self, scope: dict[str, Any], names: frozenset[str],
                 no_gradient: Callable[[str], bool], fixed: dict[str, Any] | None = None,
                 memo: dict[Any, Any] | None = None, depth: int = 0,
                 registry: Registry | None = None) -> None:
        self.scope = scope
        self.names = names
        self.no_gradient = no_gradient
        self.fixed = fixed or {}
        self.memo = memo if memo is not None else {}
        self.depth = depth
        self.registry = registry
        self.returns = 0
        self.returned = False  # the statements run so far always returned
        #: dicts built here key by key (``kwargs["x"] = v``), passed on as ``**kwargs``
        self.dicts: dict[str, dict[str, Deps]] = {}
        #: nested functions defined here, for a test on fixed options they decide
        self.defs: dict[str, ast.FunctionDef] = {}

    # -- statements ----------------------------------------------------------------------------
    def run(self, body: list[ast.stmt], env: dict[str, Deps]) -> Deps:
        """Interpret ``body`` on ``env`` (changed in place); return what returns depend on."""
        out: Deps = _NONE
        for stmt in body:
            if self.returned:
                break
            if isinstance(stmt, ast.Return):
                self.returns += 1
                out |= self.deps(stmt.value, env)
                self.returned = True
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self.assign(stmt, env)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                env[stmt.name] = self.closure(stmt, env)
                if isinstance(stmt, ast.FunctionDef):
                    self.defs[stmt.name] = stmt
            elif isinstance(stmt, ast.If) and (chosen := self.decided(stmt.test)) is not None:
                out |= self.run(stmt.body if chosen else stmt.orelse, env)
            elif isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.With)):
                out |= self.branches(stmt, env)
            elif isinstance(stmt, ast.Expr):
                self.effect(stmt.value, env)
        return out

    def assign(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign,
               env: dict[str, Deps]) -> None:
        """Bind an assignment; an item or attribute stored adds to its object's dependence."""
        value = self.deps(stmt.value, env)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        self.keyed(stmt, targets, value)
        for target in targets:
            whole = isinstance(target, (ast.Name, ast.Tuple, ast.List, ast.Starred)) and \
                not isinstance(stmt, ast.AugAssign)
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    env[name.id] = value if whole else env.get(name.id, _NONE) | value

    def keyed(self, stmt: ast.stmt, targets: Sequence[ast.expr], value: Deps) -> None:
        """Keep a dict built key by key: ``kwargs = {}``, then ``kwargs["k"] = v``."""
        for target in targets:
            if isinstance(target, ast.Name):
                empty = isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict) \
                    and not stmt.value.keys
                if empty:
                    self.dicts[target.id] = {}
                else:
                    self.dicts.pop(target.id, None)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                    and target.value.id in self.dicts:
                key = target.slice
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and \
                        not isinstance(stmt, ast.AugAssign):
                    held = self.dicts[target.value.id]
                    held[key.value] = held.get(key.value, _NONE) | value
                else:
                    self.dicts.pop(target.value.id)

    def branches(self, stmt: ast.stmt, env: dict[str, Deps]) -> Deps:
        """Interpret a compound statement's bodies; a name keeps what any of them bound."""
        if isinstance(stmt, ast.With):
            for item in stmt.items:
                if item.optional_vars is not None:
                    # a name scope gives its name, a string: no value of the arguments
                    bound = _NONE if self.names_scope(item.context_expr) else \
                        self.deps(item.context_expr, env)
                    for name in ast.walk(item.optional_vars):
                        if isinstance(name, ast.Name):
                            env[name.id] = bound
            return self.run(stmt.body, env)
        if isinstance(stmt, ast.Try):
            bodies = [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
        elif isinstance(stmt, ast.For):
            looped = self.deps(stmt.iter, env)
            for name in ast.walk(stmt.target):
                if isinstance(name, ast.Name):
                    env[name.id] = env.get(name.id, _NONE) | looped
            bodies = [stmt.body, stmt.orelse]
        else:
            assert isinstance(stmt, (ast.If, ast.While))
            bodies = [stmt.body, stmt.orelse]
        out: Deps = _NONE
        results = []
        for body in bodies:
            branch = dict(env)
            out |= self.run(body, branch)
            self.returned = False  # another branch (or no pass of a loop) goes on
            results.append(branch)
        for branch in results:
            for key, value in branch.items():
                env[key] = env.get(key, _NONE) | value
        return out

    def effect(self, node: ast.expr, env: dict[str, Deps]) -> None:
        """Evaluate an expression statement: ``out.append(x)`` adds ``x`` to ``out``."""
        self.deps(node, env)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            base = node.func.value
            while isinstance(base, (ast.Attribute, ast.Subscript)):
                base = base.value
            if isinstance(base, ast.Name):
                added = frozenset().union(*(self.deps(a, env) for a in [
                    *node.args, *(k.value for k in node.keywords)]))
                env[base.id] = env.get(base.id, _NONE) | added

    def closure(self, fn: ast.AST, env: dict[str, Deps]) -> Deps:
        """Return what a nested function or lambda closes over (every name it reads)."""
        return frozenset().union(*(env.get(n.id, _NONE) for n in ast.walk(fn)
                                   if isinstance(n, ast.Name)))

    def decided(self, test: ast.expr) -> bool | None:
        """Return which branch a test on fixed options takes (None when it is not decided)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.decided(test.operand)
            return None if inner is None else not inner
        if isinstance(test, ast.Name) and test.id in self.fixed:
            return bool(self.fixed[test.id])
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and \
                test.func.id in self.defs:
            return self.decided_by(self.defs[test.func.id], test)
        if isinstance(test, ast.Call) and self.symbolic(test.func):
            return False  # a Keras op on a training step's tensors runs its backend function
        if isinstance(test, ast.Call) and self.composite(test):
            return False  # a training step's tensors are dense: not a sparse or ragged one
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and any(
                self.decided(v) is False for v in test.values):
            return False
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return None
        if isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name) and \
                test.left.func.id == "len" and len(test.left.args) == 1 and \
                isinstance(test.left.args[0], ast.Name) and \
                f"len:{test.left.args[0].id}" in self.fixed:
            return _many(test.ops[0], test.comparators[0])
        if not (isinstance(test.left, ast.Name) and test.left.id in self.fixed):
            return None
        given, op, other = self.fixed[test.left.id], test.ops[0], test.comparators[0]
        known, value = self.constant(other)
        if not known:
            return None
        if isinstance(op, (ast.Eq, ast.Is)):
            return bool(given == value)
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return bool(given != value)
        return None

    def decided_by(self, fn: ast.FunctionDef, call: ast.Call) -> bool | None:
        """Return what a nested function returns first for the fixed options it is given.

        ``_use_composite_impl(fast, shape)`` in ``tf.linalg.lstsq`` starts with ``if fast is
        False: return False``: with ``fast=False`` fixed, the test it decides is decided.
        Only a leading ``if`` on a fixed option whose body returns a constant counts.
        """
        params = [a.arg for a in fn.args.args]
        passed = dict(zip(params, call.args, strict=False))
        fixed = {p: self.fixed[a.id] for p, a in passed.items()
                 if isinstance(a, ast.Name) and a.id in self.fixed}
        body = [s for s in fn.body if not (isinstance(s, ast.Expr)
                                           and isinstance(s.value, ast.Constant))]
        first = body[0] if body else None
        if not fixed or not isinstance(first, ast.If) or len(first.body) != 1 or \
                not isinstance(first.body[0], ast.Return) or \
                not isinstance(first.body[0].value, ast.Constant):
            return None
        inner = Flow(self.scope, self.names, self.no_gradient, fixed, self.memo, self.depth)
        if inner.decided(first.test) is not True:
            return None
        return bool(first.body[0].value.value)

    def constant(self, node: ast.expr) -> tuple[bool, Any]:
        """Return (True, value) of a literal or a class attribute of the scope (``X.AREA``)."""
        if isinstance(node, ast.Constant):
            return True, node.value
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            holder = self.scope.get(node.value.id)
            if isinstance(holder, type) and isinstance(getattr(holder, node.attr, None), str):
                return True, getattr(holder, node.attr)
        return False, None

    # -- expressions ---------------------------------------------------------------------------
    def deps(self, node: ast.AST | None, env: dict[str, Deps]) -> Deps:
        """Return the parameters an expression's value depends on."""
        if node is None or isinstance(node, ast.Constant):
            return _NONE
        if isinstance(node, ast.Lambda):
            return self.closure(node, env)
        if isinstance(node, ast.Name):
            return env.get(node.id, _NONE)
        if isinstance(node, ast.Attribute):
            return _NONE if node.attr in METADATA else self.deps(node.value, env)
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.Subscript):
            # an index only selects: no gradient reaches it (an integer, a slice's bounds),
            # so `outputs[i]` over `range(num_split)` depends on `outputs` alone; a cut op's
            # mark it carries stays
            return self.deps(node.value, env) | cuts(self.deps(node.slice, env))
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = dict(env)
            for generator in node.generators:
                looped = self.deps(generator.iter, inner)
                for name in ast.walk(generator.target):
                    if isinstance(name, ast.Name):
                        inner[name.id] = looped
            parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            return frozenset().union(*(self.deps(p, inner) for p in parts))
        return frozenset().union(*(self.deps(c, env) for c in ast.iter_child_nodes(node)
                                   if isinstance(c, ast.expr)))

    def call(self, node: ast.Call, env: dict[str, Deps]) -> Deps:
        """Return what a call's result depends on (a generated op, a followed function)."""
        given = [self.deps(a, env) for a in node.args]
        named = {k.arg: self.deps(k.value, env) for k in node.keywords if k.arg is not None}
        everything = frozenset().union(*given, *named.values(), *(
            self.deps(k.value, env) for k in node.keywords if k.arg is None))
        op = self.generated_op(node.func)
        if op is not None and (self.no_gradient(op) or self.raising(op, node)):
            # severed: only the op's mark is left
            return frozenset({CUT + op}) | cuts(everything) if everything else _NONE
        if op is not None and self.registry is not None and \
                (lost := self.registry.none_inputs(op)):
            return self.partly(node, op, lost, given, named)
        if op is not None and (carried := self.carried(node, op, given, named)) is not None:
            return carried
        inner = node.func.value if isinstance(node.func, ast.Attribute) else None
        followed = None if op is not None else self.follow(node, given, named, env)
        if followed is not None:
            return followed
        return everything | self.deps(inner, env)

    def follow(self, node: ast.Call, given: list[Deps], named: dict[str, Deps],
               env: dict[str, Deps]) -> Deps | None:
        """Return a TensorFlow Python function's result's dependence at this call, if known."""
        target = self.function(node.func)
        instance = None
        if target is None and isinstance(node.func, ast.Call):
            # Keras 3's ops: `Pad(pad_width, mode=mode)(x, constant_values=...)` runs the
            # operation's `call(self, ...)`; what `self` holds is what it was made from
            target = self.method(node.func.func, "call")
            instance = self.deps(node.func, env)
        spread = [k for k in node.keywords if k.arg is None]
        if all(isinstance(k.value, ast.Name) and k.value.id in self.dicts for k in spread):
            for k in spread:  # tf.pad(x, widths, mode, **kwargs): the keys it was given
                assert isinstance(k.value, ast.Name)
                named = named | self.dicts[k.value.id]
            spread = []
        if target is None or self.depth >= _MAX_DEPTH or any(
                isinstance(a, ast.Starred) for a in node.args) or spread:
            return None
        fn = parse(target)
        if fn is None or fn.args.vararg is not None or fn.args.kwarg is not None or any(
                isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
            return None
        params = parameters(fn)
        if instance is not None:
            given = [instance, *given]
        if len(given) > len(fn.args.posonlyargs) + len(fn.args.args) or \
                any(k not in params for k in named):
            return None
        bound = dict(zip(params, given, strict=False)) | named
        fixed = self.fixed_for(fn, node, params[1:] if instance is not None else params)
        key = (id(target), tuple(sorted(fixed.items(), key=repr)), id(self.registry))
        if self.memo.get(key) is _BUSY:
            return None
        if key not in self.memo:
            self.memo[key] = _BUSY
            inner = Flow(getattr(target, "__globals__", {}), self.names, self.no_gradient,
                         fixed, self.memo, self.depth + 1, self.registry)
            self.memo[key] = inner.run(fn.body, {p: frozenset({p}) for p in params})
        returned = self.memo[key]
        severed = cuts(returned) if any(bound.values()) else _NONE
        return severed.union(*(bound.get(p, _NONE) for p in returned - cuts(returned)))

    def fixed_for(self, fn: ast.FunctionDef, node: ast.Call, params: list[str]) -> dict[str, Any]:
        """Return the options a call fixes: literals given, fixed options passed on, defaults."""
        fixed: dict[str, Any] = {}
        positional = [*fn.args.posonlyargs, *fn.args.args]
        defaults = dict(zip([a.arg for a in positional][::-1], fn.args.defaults[::-1],
                            strict=False))
        defaults |= {a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults,
                                              strict=True) if d is not None}
        for name, default in defaults.items():
            if isinstance(default, ast.Constant) and isinstance(default.value, (bool, str)):
                fixed[name] = default.value
        passed = dict(zip(params, node.args, strict=False)) | {
            k.arg: k.value for k in node.keywords if k.arg is not None}
        for name, value in passed.items():
            fixed.pop(name, None)
            if isinstance(value, ast.Constant) and isinstance(value.value, (bool, str)):
                fixed[name] = value.value
            elif isinstance(value, ast.Name) and value.id in self.fixed:
                fixed[name] = self.fixed[value.id]
        return fixed


def _many(op: ast.cmpop, other: ast.expr) -> bool | None:
    """Return ``len(seq) <op> other`` for every sequence of two items or more, if the same.

    ``if len(sp_inputs) == 1: return sp_inputs[0]`` in ``tf.sparse.concat`` is False for
    any list of two sparse tensors or more; None when the outcome depends on the length.
    """
    if not (isinstance(other, ast.Constant) and type(other.value) is int):
        return None
    bound = other.value
    if isinstance(op, ast.Eq) and bound < 2:
        return False
    if isinstance(op, ast.NotEq) and bound < 2:
        return True
    if isinstance(op, (ast.Gt, ast.GtE)) and bound <= (1 if isinstance(op, ast.Gt) else 2):
        return True
    if isinstance(op, (ast.Lt, ast.LtE)) and bound <= (2 if isinstance(op, ast.Lt) else 1):
        return False
    return None
