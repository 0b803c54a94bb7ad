"""Library calls and methods for the abstract interpreter.

TF-free. :class:`Members` knows what the TensorFlow and Keras APIs of :mod:`tapemagic.lint.names`
do to an abstract value (a cast to ``int32`` is a cut, a ``tf.Variable`` is made, ``tape.gradient``
is recorded, ``tape.watch`` watches, ``v.assign(...)`` writes, ``tf.py_function`` runs its body)
and what methods of values do. Keras objects themselves (layers, models, the user's classes) are
:mod:`tapemagic.lint.objects`.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from tapemagic.lint import catalog, names, patterns
from tapemagic.lint.blocks import api_of
from tapemagic.lint.tapes import Tapes
from tapemagic.lint.values import EMPTY, Cut, Env, Site, Value, holds_variables, join

#: The namespaces of random draws: an API there that no gradient crosses gives samples.
_RANDOM = ("tensorflow.random.", "keras.random.")
#: ``Cut.detail`` of a random draw's cut (a policy's action).
SAMPLE = "sample"


class Members(Tapes):
    """What APIs, methods and attributes do (see the module docstring)."""

    # -- TensorFlow and Keras APIs --------------------------------------------------------------
    def library(self, node: ast.Call, dotted: str, args: list[Value],
                kwargs: dict[str, Value], api: str | None = None) -> Value:
        """Return the value of a call of a library API named ``dotted`` (normalised).

        ``api`` is what the user wrote for it (default: the call's function text).
        """
        api = api or ast.unparse(node.func)
        operands = [self.operand(a, node) for a in args]
        keyword_operands = [self.operand(v, node) for v in kwargs.values()]
        if dotted in names.GRADIENT_TAPE:
            flag = next((k.value for k in node.keywords if k.arg == "watch_accessed_variables"),
                        None)
            off = isinstance(flag, ast.Constant) and flag.value is False
            return Value(kind="tape-new", text="no-watch" if off else "")
        if dotted in names.VARIABLE:
            root = self.fresh(node)
            self.made.setdefault(root, Site.of(node))
            frozen = patterns.keyword_false(node, "trainable")
            text = "int" if _integer_literal(node, self.imports) else "frozen" if frozen else ""
            if frozen:
                self.untrainable.add(root)
            return Value(kind="variable", weights=frozenset({root}), text=text)
        if dotted in names.METADATA:
            return EMPTY
        if dotted == "tensorflow.function":
            return args[0] if args else Value(kind="decorator")
        if dotted in patterns.CUSTOM_GRADIENT and args and args[0].kind == "function":
            return replace(args[0], text="custom-gradient")  # f = tf.custom_gradient(g)
        if dotted == "tensorflow.grad_pass_through":
            return Value(kind="pass-through")  # its forward's gradient is the identity
        if dotted == "functools.partial" and args and args[0].kind == "function" and \
                len(args) == 1:  # partial(loss, w=2.0): the loss, its keywords bound
            return args[0]
        if dotted in names.HOST or dotted.startswith(names.HOST_MODULES):
            return self.cut(node, "host", api, operands + keyword_operands)
        if dotted in names.NON_DIFFERENTIABLE:  # a metric reads (y_true, y_pred): both
            taken = operands if dotted.startswith("keras.metrics.") else operands[:1]
            listed = catalog.cut(dotted)
            value = self.cut(node, "non-differentiable", api, taken)
            if listed is not None and listed[0] == "integer":  # a sample's ids, an argmax
                value = self.sampled(node, dotted, value)
                return replace(value, text="int")  # ... compared later: no second cut
            return self.raising(node, listed[1], value) if listed is not None else value
        if dotted in names.INTEGER_RESULT:
            listed = catalog.cut(dotted)
            if listed is not None and join(*operands[1:], *keyword_operands).live:
                # its op takes no gradient to any input (TensorFlow's registry): a value
                # weighted in (`bincount(ids, weights=losses)`) is cut too, not only the ids
                return self.cut(node, "integer" if listed[0] == "integer" else
                                "non-differentiable", api, operands + keyword_operands)
            return self.cut(node, "integer", api, operands[:1])
        if dotted in names.CASTS:
            dtype = kwargs.get("dtype") or (args[1] if len(args) > 1 else EMPTY)
            if dtype.text in names.INTEGER_DTYPES:
                return replace(self.cut(node, "integer", api, operands[:1]), text="int")
            return self.op(node, api, operands[:1])
        if dotted in names.TENSOR_MAKERS or dotted in names.DTYPE_KEEPING:
            made = self.op(node, api, operands + keyword_operands)
            return replace(made, text="int" if _integer_tensor(dotted, node, args, kwargs) else "")
        if names.tokenizer_factory(dotted):
            return Value(kind="tokenizer")
        if dotted in names.MAP_OPS | names.WHILE_OPS | names.COND_OPS | names.SCAN_OPS:
            called = self.higher_order(node, dotted, args, kwargs)
            if called is not None:
                return called
        if dotted in names.NUMPY_FUNCTION:
            inputs = kwargs.get("inp") or (args[1] if len(args) > 1 else EMPTY)
            return self.cut(node, "numpy-function", api, [self.operand(inputs, node)])
        if dotted in names.PY_FUNCTION and args:
            inputs = kwargs.get("inp") or (args[1] if len(args) > 1 else EMPTY)
            return self.py_function(node, args[0], self.operand(inputs, node))
        if dotted in names.STOP_GRADIENT:
            return self.cut(node, "stop-gradient", api, operands[:1])
        if dotted in names.TOP_K:
            value = join(*operands[:1])
            return Value(live=value.live, cuts=value.cuts, kind="topk", node=node,
                         ghost=value.ghost)
        return self.keras(node, dotted, args, kwargs) or self.op(
            node, api, operands + keyword_operands)

    @staticmethod
    def sampled(node: ast.Call, dotted: str, value: Value) -> Value:
        """Return ``value`` with its cut at ``node`` marked a sample when ``dotted`` draws.

        Called for integer results: an API of ``tf.random`` / ``keras.random`` that no
        gradient crosses and gives integers draws discrete choices (``tf.random.categorical``:
        a policy's actions). A loss of them needs their log-probability (the score function),
        not a gradient through them; a float draw (``tf.random.poisson``) is the cut itself.
        """
        if not dotted.startswith(_RANDOM):
            return value
        return replace(value, cuts=frozenset(
            replace(c, detail=SAMPLE) if c.node is node and not c.detail else c
            for c in value.cuts))

    def raising(self, node: ast.Call, ops: tuple[str, ...], value: Value) -> Value:
        """Return ``value`` with its cut at ``node`` marked when an op of ``ops`` raises.

        TensorFlow's catalog says which ops make the gradient call raise when reached: no
        registry entry (``tf.unique``'s Unique) or a raising one (``SparseSparseMaximum``).
        """
        if not catalog.raises(ops):
            return value
        return replace(value, cuts=frozenset(
            replace(c, detail="raises") if c.node is node and not c.detail else c
            for c in value.cuts))

    # -- methods ----------------------------------------------------------------------------------
    def method(self, node: ast.Call, base: Value, attr: str, args: list[Value],
               kwargs: dict[str, Value], env: Env) -> Value:
        """Return the value of ``base.attr(...)``."""
        if base.kind in ("tape", "tape-new"):
            return self.tape_method(node, base, attr, args, kwargs, env)
        if base.kind == "tokenizer":
            return Value(text="int") if attr in names.TOKENIZER_METHODS else EMPTY
        if attr == "map" and args and args[0].kind == "function" and isinstance(
                args[0].node, (ast.Lambda, ast.FunctionDef)) and not isinstance(
                base.node, ast.ClassDef):  # a class of the source's own `map`: its method
            return self.dataset_map(node, base, args[0])
        if base.kind == "dataset":  # batch, shuffle, prefetch...: the same elements
            return base
        if base.kind in ("model", "object") and isinstance(base.node, ast.ClassDef):
            found = self.find_method(base, attr)
            if found is not None:
                return self.bound(node, found, base, args, kwargs)
            held = self.self_member(base, attr) if isinstance(base.node, ast.ClassDef) else None
            if held is not None and held.kind in _CALLABLE:  # self.dense(x)
                return self.call_value(node, held, args, kwargs)
        operand = self.operand(base, node)
        if attr in ("append", "extend", "insert") and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and args:
            added = args[-1] if attr != "extend" else self.element(args[-1])
            env.vars[node.func.value.id] = self.sequence([*base.items, added])
            return EMPTY
        if base.kind == "variable" and attr in ("value", "read_value"):
            return replace(base, text="" if base.text.startswith("keras") else base.text)
        if attr in _ASSIGN_METHODS and (base.kind == "variable" or base.text.startswith("?")):
            return self.assign(node, base, args[0] if args else EMPTY)
        if attr in names.HOST_METHODS and attr != "predict" and attr != "predict_on_batch":
            return self.cut(node, "host", f".{attr}()", [operand])
        if base.kind in ("model", "instance"):
            return self.model_method(node, base, attr, args, kwargs)
        if attr == "minimize" and args:
            return self.minimize(node, args, kwargs)
        if attr in ("run", "experimental_run_v2") and args and args[0].kind == "function":
            # strategy.run(step, args=(model, batch)): the step runs on these arguments
            given = kwargs.get("args") or (args[1] if len(args) > 1 else EMPTY)
            items = list(given.items) if given.kind == "seq" else [given]
            return self.call_value(node, args[0], items, {})
        return self.op(node, f".{attr}()", [operand, *(self.operand(a, node) for a in args),
                                            *kwargs.values()])

    def model_method(self, node: ast.Call, base: Value, attr: str, args: list[Value],
                     kwargs: dict[str, Value]) -> Value:
        """Return the value of a Keras Model/Layer method call."""
        if attr in ("fit", "train_on_batch"):
            # Keras 3 traces the model's own train step at its first fit/train_on_batch and
            # reads `trainable` then (trainer.py): frozen at that moment, it keeps no weights
            for root in base.weights - self.stepped:
                self.stepped.add(root)
                if root in self.frozen_models and root in self.frozen_sites:
                    self.frozen_steps[root] = self.frozen_sites[root]
        if attr in ("predict", "predict_on_batch"):
            result = self.call_model(node, base, args[:1], {})
            return self.cut(node, "host", f".{attr}()", [result])
        if attr == "get_weights":
            return Value(cuts=frozenset({Cut("host", ".get_weights()", Site.of(node),
                                             base.weights, node)}))
        if attr == "set_weights":
            return self.assign(node, replace(base, kind="variable"), args[0] if args else EMPTY)
        if attr == "add_loss":
            self.add_loss(base, self.operand(args[0], node) if args else EMPTY)
            return EMPTY
        if attr == "compile":
            loss = kwargs.get("loss") or (args[1] if len(args) > 1 else EMPTY)
            self.compiles.append((base, loss, node))
            return EMPTY
        if attr in ("__call__", "call"):
            return self.call_model(node, base, args, kwargs)
        if attr in ("compute_loss", "compiled_loss"):
            # Keras' own loss of a train step adds what the layers added (`self.losses`)
            operands = [self.operand(a, node) for a in [*args, *kwargs.values()]]
            return self.op(node, f".{attr}()", [*operands, self.added_loss(base, node)])
        if attr == "stateless_call" and len(args) > 2:
            return self.stateless_call(node, base, args, kwargs)
        if attr == "get_layer":
            child = f"{next(iter(base.weights), '?')}.{self.fresh(node)}"
            for root in base.weights:
                self.roots.add(root, child, unnamed=True)
            return Value(kind="model", weights=frozenset({child}))
        if attr in _MODEL_PLAIN_METHODS:
            if attr in ("build", "fit", "evaluate", "load_weights", "summary"):
                self.built |= base.weights
            return EMPTY
        return self.op(node, f".{attr}()", [self.operand(a, node) for a in args])

    def stateless_call(self, node: ast.Call, model: Value, args: list[Value],
                       kwargs: dict[str, Value]) -> Value:
        """Return ``model.stateless_call(trainable, non_trainable, *inputs)``.

        Keras 3 runs the model with the values given in place of its variables (a
        ``StatelessScope``): it reads none of them, and returns ``(outputs, non_trainable)``.
        Values that are variables are read as such (a tape watches them by itself); plain
        tensors (``tf.convert_to_tensor(v)``, taken before on purpose) are recorded only once
        ``tape.watch``ed, so unwatched they give the focus a ``not-watched`` cut (TM102).
        """
        given = [self.operand(a, node) for a in args[:2]]
        if holds_variables(args[0]) or not (self.in_focus and self.recording):
            values = join(*given)
        else:  # taken outside on purpose: their `outside` cuts are not the story
            values = Value(live=given[0].live, cuts=frozenset(
                c for v in given for c in v.cuts if c.kind != "outside"), ghost=given[0].ghost)
            if not given[0].live and self.focus_call is not None:
                lost = Cut("unwatched-values", f"{api_of(node.func)}(...)",
                           Site.of(self.focus_call), model.weights, self.focus_call)
                values = replace(values, cuts=values.cuts | {lost})
        outputs = self.op(node, api_of(node.func), [values, *(self.operand(a, node)
                                                            for a in args[2:])])
        return self.sequence([outputs, args[1]])

    def higher_order(self, node: ast.Call, dotted: str, args: list[Value],
                     kwargs: dict[str, Value]) -> Value | None:
        """Return `tf.map_fn`, `tf.scan`, `tf.while_loop` or `tf.cond` with their functions run.

        TensorFlow records the ops of the functions they call (so a cut in the body cuts): the
        source's own, or a model given as the function (``tf.map_fn(encoder, frames)``); None
        for any other (then it is a plain op).
        """
        def fn(index: int, *keys: str) -> Value:
            found = next((kwargs[k] for k in keys if k in kwargs), None)
            return found if found is not None else args[index] if len(args) > index else EMPTY

        if dotted in names.MAP_OPS:
            body, elems = fn(0, "fn", "f", "function"), fn(1, "elems", "xs")
            if body.kind not in ("function", "model", "instance"):
                return None
            return self.call_value(node, body, [self.element(self.operand(elems, node))], {})
        if dotted in names.SCAN_OPS:
            body = fn(0, "fn")
            if body.kind not in ("function", "model", "instance"):
                return None
            element = self.element(self.operand(fn(1, "elems"), node))
            start = join(fn(2, "initializer"), element)
            return self.call_value(node, body, [start, element], {})
        if dotted in names.COND_OPS:
            true_fn, false_fn = fn(1, "true_fn"), fn(2, "false_fn")
            if true_fn.kind != "function" or false_fn.kind != "function":
                return None
            # the predicate picks a branch and no gradient reaches it (cond_v2's If op has
            # none for its condition): weights only it reads are cut where it is computed
            pred = self.operand(fn(0, "pred"), node)
            if pred.live:
                pred = self.cut(node.args[0] if node.args else node, "non-differentiable",
                                f"{api_of(node.func)}(pred, ...)", [pred])
            return join(pred, self.call_value(node, true_fn, [], {}),
                        self.call_value(node, false_fn, [], {}))
        body, state = fn(1, "body", "body_fun"), fn(2, "loop_vars", "init_val")
        if body.kind != "function":
            return None
        items = list(state.items) if state.kind == "seq" else [state]
        result = self.call_value(node, body, items, {})
        after = list(result.items) if result.kind == "seq" else [result]
        if len(after) != len(items):
            return join(state, result)
        return self.sequence([join(a, b) for a, b in zip(items, after, strict=True)])

    def add_loss(self, layer: Value, loss: Value) -> None:
        """Record ``layer.add_loss(loss)``: ``model.losses`` (and ``fit``) read it back.

        Keras clears a layer's losses when it is called again: a loss added in another state
        (outside the tape, or while a functional model was built) is replaced, not joined.
        """
        state = "symbolic" if loss.kind == "symbolic" else self.recording
        for root in layer.weights:
            old = self.added_losses.get(root)
            kept = join(old[1], loss) if old is not None and old[0] == state else loss
            self.added_losses[root] = (state, kept)

    def added_loss(self, model: Value, node: ast.AST) -> Value:
        """Return what ``model.losses`` holds: the losses its layers added (read here)."""
        inside = self.roots.expand(model.weights)
        found = [value for root, (_state, value) in self.added_losses.items()
                 if self.roots.overlap(frozenset({root}), inside)]
        if not found:
            return EMPTY
        value = join(*found)
        cuts = frozenset(c for c in value.cuts if c.kind != "outside")
        return join(self.read(value.live, node), Value(cuts=cuts, ghost=value.ghost))

    def assign(self, node: ast.Call, variable: Value, value: Value) -> Value:
        """Record ``variable.assign(value)``: later reads carry what a recorded write cut.

        Off every tape (``set_weights(online.get_weights())``, an EMA) the variable keeps its
        own value: no tape could trace a read of it back to what it was copied from.
        """
        value = self.operand(value, node)
        if not self.recording:  # of other weights (not `v.assign_sub(lr * g)`): a copy
            read = value.live | value.ghost | frozenset(r for c in value.cuts for r in c.roots)
            self.copied |= variable.weights if any(not r.startswith(("t:", "?")) and not
                                                   self.roots.covered(r, variable.weights)
                                                   for r in read) else set()
            return EMPTY
        cuts = set(value.cuts)
        if value.live and self.recording:
            cuts.add(Cut("assign", ast.unparse(node.func).rsplit(".", 1)[-1], Site.of(node),
                         value.live, node))
        for root in variable.weights:
            self.assigned[root] = self.assigned.get(root, frozenset()) | frozenset(cuts)
        return EMPTY

    def minimize(self, node: ast.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """Record ``optimizer.minimize(loss_fn, var_list)`` as a gradient call."""
        if self.focus is not None or args[0].kind != "function":
            return EMPTY  # a loss tensor (``tape=`` given): its own tape is analysed
        variables = kwargs.get("var_list") or (args[1] if len(args) > 1 else EMPTY)
        recording, self.recording = self.recording, True
        try:
            target = self.call_value(node, args[0], [], {})
        finally:
            self.recording = recording
        self.record(node, target, variables, None)
        return EMPTY


_CALLABLE = frozenset({"model", "instance", "function", "loss", "object", "class"})
_ASSIGN_METHODS = frozenset({"assign", "assign_add", "assign_sub"})
_MODEL_PLAIN_METHODS = frozenset({"fit", "evaluate", "summary", "save", "save_weights", "build",
                                  "load_weights", "count_params", "get_config", "reset_states",
                                  "add_loss", "add_metric"})


def _integer_tensor(dotted: str, node: ast.Call, args: list[Value],
                    kwargs: dict[str, Value]) -> bool:
    """Whether a tensor maker or dtype-keeping op gives an integer tensor.

    ``tf.constant([[3, 14]])`` (int literals, no dtype), ``tf.constant(x, dtype=tf.int32)``,
    ``tf.expand_dims(ids, 0)`` of integer ``ids``, token ids from a tokenizer.
    """
    if dotted in names.TENSOR_MAKERS:
        dtype = kwargs.get("dtype") or (args[1] if len(args) > 1 else None)
        if dtype is not None:
            return dtype.text in names.INTEGER_DTYPES
        return bool(node.args) and (_int_literals(node.args[0]) or _ints(args[0]))
    return bool(args) and _ints(args[0])


def _ints(value: Value) -> bool:
    if value.kind == "seq":
        return bool(value.items) and all(_ints(i) for i in value.items)
    return value.text == "int"


def _int_literals(node: ast.expr) -> bool:
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_int_literals(e) for e in node.elts)
    return isinstance(node, ast.Constant) and type(node.value) is int


def _integer_literal(node: ast.Call, imports: names.Imports) -> bool:
    """Whether ``tf.Variable(...)`` makes an integer variable (int literal or int ``dtype``)."""
    dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    if dtype is not None:
        text = imports.dotted(dtype) if isinstance(dtype, ast.Attribute) else None
        literal = dtype.value if isinstance(dtype, ast.Constant) else ""
        return str(text or literal).rsplit(".", 1)[-1] in names.INTEGER_DTYPES
    if not node.args:
        return False
    first = node.args[0]
    values = first.elts if isinstance(first, (ast.List, ast.Tuple)) else [first]
    return bool(values) and all(isinstance(v, ast.Constant) and type(v.value) is int
                                for v in values)
