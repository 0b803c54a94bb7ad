"""Expressions and calls of the abstract interpreter: what each API does to a :class:`Value`.

TF-free. The statement half is :mod:`tapemagic.lint.interp`; this mixin evaluates expressions.
A library op joins its operands (``tf.reduce_mean(x)`` depends on what ``x`` depends on); a cut
API (tables in :mod:`tapemagic.lint.names`) applied to a live value returns a value that is not
live and carries a :class:`Cut` at that call; Keras layers and models read their weights; the
user's own functions, classes and Lambda layers are followed into their bodies.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import replace

from tapemagic.lint import names, patterns
from tapemagic.lint.blocks import api_of, integer_parts
from tapemagic.lint.effects import Effects
from tapemagic.lint.values import EMPTY, UNKNOWN, Env, Value, holds_variables, join

_MAX_DEPTH = 8  # nested calls of the user's functions followed (recursion ends here)
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@"}
#: Operators whose result on integer tensors is an integer tensor.
_INTEGER_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
#: Builtins whose result carries nothing of their arguments (a count, a string, a type).
_OPAQUE_BUILTINS = frozenset({"print", "len", "range", "isinstance", "str", "repr", "type",
                              "bool", "id", "hasattr", "getattr", "callable", "format"})
_PYTHON_BUILTINS = frozenset(dir(builtins))
_SEQUENCE_BUILTINS = frozenset({"list", "tuple", "sorted", "reversed", "iter", "next", "dict",
                                "set"})
#: Attributes and methods of a variable that give the variable itself (to a tape).
_VARIABLE_VIEWS = frozenset({"value", "_value", "read_value", "handle"})
#: Tensor attributes that are metadata, not values on the gradient path.
_METADATA = frozenset({"shape", "dtype", "ndim", "name", "device", "path", "trainable",
                       "graph", "op"})


class Calls(Effects):
    """Expression evaluation (mixed into :class:`~tapemagic.lint.interp.Interpreter`)."""

    # -- expressions ------------------------------------------------------------------------------
    def expr(self, node: ast.expr | None, env: Env) -> Value:  # noqa: C901 - one case per node
        """Return the abstract value of an expression."""
        if node is None:
            return EMPTY
        if isinstance(node, ast.Constant):
            return Value(text=node.value) if isinstance(node.value, str) else EMPTY
        if isinstance(node, ast.Name):
            found = env.get(node.id)
            if found is not None:
                return self.global_read(node, env, found)
            if node.id in names.INTEGER_DTYPES:
                return Value(text=node.id)
            return self.unknown(node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(node, env)
        if isinstance(node, ast.Subscript):
            return self.subscript(node, env)
        if isinstance(node, ast.BinOp):
            left = self.expr(node.left, env)
            right = self.expr(node.right, env)
            if isinstance(node.op, ast.Add) and holds_variables(left) and \
                    holds_variables(right):  # `enc.trainable_variables + [codebook]`
                return Value(kind="variable", weights=left.weights | right.weights)
            parts = [self.operand(left, node.left), self.operand(right, node.right)]
            frozen = self.product(node, *parts)
            if frozen is not None:
                return frozen
            if isinstance(node.op, _INTEGER_ARITHMETIC) and integer_parts(parts):
                # arithmetic on integers an earlier cast made (`(16 - size) // 2`) stays
                # integer: that cast is the cut, not this
                return replace(self.op(node, self.binop_api(node.op), parts), text="int")
            if isinstance(node.op, ast.FloorDiv):
                return self.cut(node, "non-differentiable", "//", parts)
            return self.swapped(node, self.op(node, self.binop_api(node.op), parts), *parts)
        if isinstance(node, ast.UnaryOp):
            inner = self.operand(self.expr(node.operand, env), node.operand)
            return EMPTY if isinstance(node.op, ast.Not) else self.op(node, "-", [inner])
        if isinstance(node, ast.BoolOp):
            return join(*(self.expr(v, env) for v in node.values))
        if isinstance(node, ast.Compare):
            return self.compare(node, env)
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.IfExp):
            body, orelse = self.expr(node.body, env), self.expr(node.orelse, env)
            return self.sequence([body, orelse]) if body.kind != orelse.kind else join(body,
                                                                                       orelse)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return self.sequence([self.expr(e, env) for e in node.elts])
        if isinstance(node, ast.Dict):
            made = self.sequence([self.expr(v, env) for v in node.values])
            keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
            if all(isinstance(k, str) for k in keys):
                return replace(made, keys=tuple(keys))  # type: ignore[arg-type]
            return made
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
            return self.comprehension(node, env)
        if isinstance(node, ast.Lambda):
            return Value(kind="function", node=node, env=env)
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value, env)
            self.bind(node.target, value, env)
            return value
        if isinstance(node, (ast.Starred, ast.Await)):
            return self.expr(node.value, env)
        return EMPTY

    def swapped(self, node: ast.BinOp, value: Value, left: Value, right: Value) -> Value:
        """Return ``a + stop_gradient(b - a)`` with its terms swapped told as one cut.

        The forward value is ``b``'s and the gradient flows to ``a`` only. When ``a`` is a
        value a cut made from the weights ``b`` holds (``q = tf.round(z)``, then ``q +
        stop_gradient(z - q)``), that cut is the quantiser the estimator is meant to pass
        over: the line to change is this one (the terms swapped), not the quantiser's.
        """
        if not isinstance(node.op, ast.Add):
            return value
        for stop, other, term in ((node.right, left, node.left), (node.left, right, node.right)):
            inner = stop.args[0] if isinstance(stop, ast.Call) and stop.args and (
                self.imports.dotted(stop.func) or "") in names.STOP_GRADIENT else None
            if not (isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Sub)
                    and ast.dump(inner.right) == ast.dump(term)) or other.live:
                continue
            stopped = frozenset().union(*(c.roots for c in value.cuts if c.node is stop))
            # nor the quantiser written again inside the stop_gradient: no gradient enters it
            within = {id(n) for n in ast.walk(inner)}
            kept = frozenset(c for c in value.cuts if c.node is stop or (
                id(c.node) not in within and (c not in other.cuts
                                              or not c.roots <= self.roots.expand(stopped))))
            return replace(value, cuts=kept)
        return value

    def compare(self, node: ast.Compare, env: Env) -> Value:
        """Return a comparison's value: a boolean tensor, which no gradient crosses."""
        parts = [self.operand(self.expr(e, env), e) for e in [node.left, *node.comparators]]
        api = names.comparison_api(node.ops[0])
        if api is None:  # `is`, `in`: Python, not a tensor op
            return EMPTY
        return self.cut(node, "non-differentiable", api, parts)

    def condition(self, node: ast.expr, env: Env) -> Value:
        """Return what a Python ``if`` test depends on (a comparison: its operands)."""
        if isinstance(node, ast.Compare):
            return join(*(self.operand(self.expr(e, env), e)
                          for e in [node.left, *node.comparators]))
        if isinstance(node, ast.BoolOp):
            return join(*(self.condition(v, env) for v in node.values))
        if isinstance(node, ast.UnaryOp):
            return self.condition(node.operand, env)
        return self.operand(self.expr(node, env), node)

    def comprehension(self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp,
                      env: Env) -> Value:
        """Return a comprehension's value (its element, once per generator)."""
        local = Env(env)
        for generator in node.generators:
            self.bind(generator.target, self.element(self.expr(generator.iter, local)), local)
        element = node.value if isinstance(node, ast.DictComp) else node.elt
        value = self.expr(element, local)
        if value.kind == "variable":
            return value
        return self.sequence([value])

    def subscript(self, node: ast.Subscript, env: Env) -> Value:
        """Return ``base[index]``: an element of a list, else a slicing op on a tensor."""
        base = self.expr(node.value, env)
        index = node.slice
        if isinstance(index, ast.Constant) and isinstance(index.value, int):
            if base.kind == "topk" or (base.items and base.kind in ("seq", "layers")):
                return self.item(base, index.value, node)
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            # a mapping looked up by name (a model's dict of outputs): Python, not a tensor
            # op, so no op off the tape; the item of that key when the dict is known
            if index.value in base.keys:
                return base.items[base.keys.index(index.value)]
            return self.element(base) if base.kind == "seq" and base.items else base
        if base.kind in ("seq", "layers") and base.items:
            return self.element(base)
        if base.kind in ("model", "variable"):
            return base
        value = self.op(node, "[]", [self.operand(base, node.value), self.expr(index, env)])
        return replace(value, text="int") if base.text == "int" else value  # ids[None, :]

    def attribute(self, node: ast.Attribute, env: Env) -> Value:
        """Return ``base.attr``: a dtype name, a member of a model, or the tensor itself."""
        dotted = self.imports.dotted(node)
        if dotted is not None:  # a library name: a dtype (`tf.int32`) or an API passed around
            return Value(kind="api", text=dotted.rsplit(".", 1)[-1], node=node)
        base = self.expr(node.value, env)
        attr = node.attr
        if base.kind == "topk":
            return self.item(base, 1 if attr == "indices" else 0, node)
        if base.kind in ("model", "instance"):
            return self.frozen(base, attr, self.member(base, attr, node))
        if base.kind == "object" and isinstance(base.node, ast.ClassDef):
            # a plain class holding the models (a trainer, an agent): `self.actor` is what
            # its methods assigned there
            return self.frozen(base, attr, self.self_member(base, attr) or EMPTY)
        if base.kind == "variable" and attr in _VARIABLE_VIEWS:
            # the same weights; Keras 3's `v.value` is the tf.Variable inside (watchable)
            return replace(base, text="" if base.text.startswith("keras") else base.text)
        if attr in _METADATA:
            return EMPTY
        if base.kind in ("function", "class", "tape", "tape-new", "loss", "object"):
            return EMPTY
        return self.op(node, f".{attr}", [self.operand(base, node.value)])

    @staticmethod
    def binop_api(op: ast.operator) -> str:
        """Return the operator's text (``+``)."""
        return _BINOPS.get(type(op), "op")

    # -- calls ------------------------------------------------------------------------------------
    def arguments(self, node: ast.Call, env: Env) -> tuple[list[Value], dict[str, Value]]:
        """Evaluate a call's positional and keyword arguments."""
        args: list[Value] = []
        for arg in node.args:
            value = self.expr(arg, env)
            if isinstance(arg, ast.Starred) and value.items:
                args.extend(value.items)
            else:
                args.append(value)
        kwargs = {k.arg: self.expr(k.value, env) for k in node.keywords if k.arg}
        return args, kwargs

    def call(self, node: ast.Call, env: Env) -> Value:
        """Return the value of a call (dispatch on what is called)."""
        func = node.func
        dotted = self.imports.dotted(func) if isinstance(func, (ast.Name, ast.Attribute)) \
            else None
        if dotted is not None:
            args, kwargs = self.arguments(node, env)
            return self.library(node, dotted, args, kwargs)
        if isinstance(func, ast.Attribute):
            base = self.expr(func.value, env)
            args, kwargs = self.arguments(node, env)
            return self.method(node, base, func.attr, args, kwargs, env)
        if isinstance(func, ast.Name) and env.get(func.id) is None and \
                func.id in _PYTHON_BUILTINS:
            args, kwargs = self.arguments(node, env)
            return self.builtin(node, func.id, args, kwargs)
        callee = self.expr(func, env)
        args, kwargs = self.arguments(node, env)
        return self.call_value(node, callee, args, kwargs)

    def custom_gradient(self, node: ast.Call, fn: ast.AST, result: Value,
                        args: list[Value]) -> Value:
        """Return a ``tf.custom_gradient`` function's output: its forward, differentiable.

        TensorFlow differentiates the call with the ``grad`` the function returns, never
        through its forward ops: the cuts made inside its body do not count, and the output
        depends on its inputs (and on the weights the body read).
        """
        forward = self.item(result, 0, node) if result.kind == "seq" else result
        inputs = join(*(self.operand(a, node) for a in args))
        first, last = getattr(fn, "lineno", 0), getattr(fn, "end_lineno", 0) or 0
        kept = frozenset(c for c in forward.cuts if not first <= c.site.line <= last)
        # a cut the body made of a live value: the grad function carries it across; one met
        # on a value an earlier cut already took away (secondary) stays taken away
        dropped = frozenset().union(*(c.roots for c in forward.cuts - kept
                                      if c.detail != "secondary"))
        # on Keras symbolic tensors (a layer of a functional model) the call is traced into
        # the model like any op: its output stays symbolic, not an op run off the tape
        symbolic = forward.kind == "symbolic" or any(a.kind == "symbolic" for a in args)
        return Value(live=forward.live | inputs.live | dropped, cuts=kept | inputs.cuts,
                     ghost=forward.ghost | inputs.ghost, kind="symbolic" if symbolic else None)

    def unknown(self, name: str) -> Value:
        """Return the value of a name this source never binds (an earlier cell's, a ``*``).

        It is taken for a model, layer or variable made elsewhere (its weights are the root
        ``?name``: calling it or using it in an op reads them), so one notebook cell can be
        checked alone. A hint through such a root needs the gradient call to ask for it.
        """
        if name in _PYTHON_BUILTINS:
            return EMPTY
        return Value(kind="model", weights=frozenset({f"?{name}"}), text=UNKNOWN)

    def builtin(self, node: ast.Call, name: str, args: list[Value],
                kwargs: dict[str, Value]) -> Value:
        """Return the value of a builtin (``float(x)`` is a host round-trip)."""
        operands = [self.operand(a, n) for a, n in zip(args, node.args, strict=False)]
        if name in names.HOST:
            return self.cut(node, "host", f"{name}()", operands)
        if name in _OPAQUE_BUILTINS:
            return EMPTY
        if name in ("zip", "enumerate"):  # iterating gives one tuple of elements per step
            items = [EMPTY, *args] if name == "enumerate" else args
            return replace(self.sequence(items), kind="zip")
        if name in _SEQUENCE_BUILTINS:
            return self.sequence(args) if len(args) > 1 else (args[0] if args else EMPTY)
        return self.op(node, f"{name}()", operands + list(kwargs.values()))

    def call_value(self, node: ast.Call, callee: Value, args: list[Value],
                   kwargs: dict[str, Value]) -> Value:
        """Return the value of calling an abstract value (a function, class, model, loss)."""
        if callee.kind == "function" and callee.text == "bound" and callee.items:
            args = [callee.items[0], *args]  # a method read from its instance: self first
            callee = replace(callee, text="", items=())
        if callee.kind == "function" and isinstance(callee.node, (
                ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and callee.env is not None:
            given = [*args, *kwargs.values()]
            # a function Keras runs on symbolic tensors (a Lambda layer's, a functional
            # model's helper) is traced into the model: its ops are the model's ops
            live = any(a.live for a in given) and not any(a.kind == "symbolic" for a in given)
            if (not self.recording and live) or self.depth >= _MAX_DEPTH \
                    or callee.node in self.active:  # recursion: once is enough
                # a model handed to the helper is one it runs (`loss_fn(model, x, y)`)
                handed = [self.read(a.weights, node) for a in given
                          if a.kind == "model" and a.text != UNKNOWN and a.weights]
                return self.op(node, api_of(node.func), [*given, *handed])
            self.depth += 1
            self.call_stack.append(f"{node.lineno}:{node.col_offset}")
            self.active.add(callee.node)
            # a tf.function (decorated or wrapped) runs its body at trace time, as do the
            # functions it calls
            decorated = patterns.traced(callee.node, self.imports)
            state = self.trace(decorated or callee.text in ("traced", "retraced"),
                               callee.text == "traced" or (
                                   decorated and callee.node in self.made_once))
            try:
                result = self.run_function(callee.node, callee.env, args, kwargs)
            finally:
                self.depth -= 1
                self.call_stack.pop()
                self.active.discard(callee.node)
                self.traced, self.captured = state
            if callee.text == "custom-gradient" or patterns.custom_gradient(callee.node,
                                                                            self.imports):
                return self.custom_gradient(node, callee.node, result, [*args,
                                                                        *kwargs.values()])
            return result
        if callee.kind == "class":
            return self.instantiate(node, callee, tuple(args), kwargs)
        if callee.kind == "metric":  # metric(y_true, y_pred): an update, then the result
            return self.metric(node, callee, "__call__", args)
        if callee.kind == "tokenizer":  # tokenizer(text): token ids, integers
            return Value(text="int")
        if callee.kind == "pass-through":  # tf.grad_pass_through(f)(x): identity backward
            return self.op(node, api_of(node.func), [self.operand(a, node) for a in args])
        if callee.kind == "api" and isinstance(callee.node, ast.expr):
            dotted = self.imports.dotted(callee.node)
            if dotted is not None:  # `Lambda(tf.round)`, `map_fn(tf.floor, ...)`
                return self.library(node, dotted, args, kwargs, ast.unparse(callee.node))
        if callee.kind in ("model", "instance", "loss", "object"):
            return self.call_model(node, callee, args, kwargs)
        operands = [self.operand(a, node) for a in [*args, *kwargs.values()]]
        return self.op(node, api_of(node.func), operands)

