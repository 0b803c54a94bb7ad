"""Library calls, methods and Keras objects for the abstract interpreter.

TF-free. :class:`Members` knows what the TensorFlow and Keras APIs of
:mod:`tapemagic.lint.names` do to an abstract value (a cast to ``int32`` is a cut, a Dense layer
reads its weights, a Sequential runs its layers in order, ``tape.gradient`` is recorded), what
``model.trainable_variables`` or ``self.dense`` are, and how the user's own Keras classes are
built and called (their ``call`` is interpreted; ``self.x = ...`` assignments give members).
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from tapemagic.lint import names
from tapemagic.lint.blocks import Blocks
from tapemagic.lint.values import EMPTY, Cut, Env, Site, Value, join

#: Layer attributes that are weights (``layer.kernel``).
_WEIGHT_MEMBERS = frozenset({"kernel", "bias", "embeddings", "gamma", "beta",
                             "recurrent_kernel", "depthwise_kernel", "pointwise_kernel"})


class Members(Blocks):
    """What APIs, methods and attributes do (see the module docstring)."""

    def __init__(self, tree: ast.Module, imports: names.Imports | None = None) -> None:
        super().__init__(tree, imports)
        self._members: dict[tuple[str, str], Value] = {}

    # -- TensorFlow and Keras APIs --------------------------------------------------------------
    def library(self, node: ast.Call, dotted: str, args: list[Value],
                kwargs: dict[str, Value]) -> Value:
        """Return the value of a call of a library API named ``dotted`` (normalised)."""
        api = ast.unparse(node.func)
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
            frozen = any(k.arg == "trainable" and isinstance(k.value, ast.Constant)
                         and k.value.value is False for k in node.keywords)
            text = "int" if _integer_literal(node, self.imports) else "frozen" if frozen else ""
            return Value(kind="variable", weights=frozenset({root}), text=text)
        if dotted in names.METADATA:
            return EMPTY
        if dotted == "tensorflow.function":
            return args[0] if args else Value(kind="decorator")
        if dotted in names.HOST or dotted.startswith("numpy."):
            return self.cut(node, "host", api, operands + keyword_operands)
        if dotted in names.NON_DIFFERENTIABLE:
            return self.cut(node, "non-differentiable", api, operands[:1])
        if dotted in names.INTEGER_RESULT:
            return self.cut(node, "integer", api, operands[:1])
        if dotted in names.CASTS:
            dtype = kwargs.get("dtype") or (args[1] if len(args) > 1 else EMPTY)
            if dtype.text in names.INTEGER_DTYPES:
                return self.cut(node, "integer", api, operands[:1])
            return self.op(node, api, operands[:1])
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

    def keras(self, node: ast.Call, dotted: str, args: list[Value],
              kwargs: dict[str, Value]) -> Value | None:
        """Return the value of a Keras constructor (layer, model, Input), or None."""
        last = dotted.rsplit(".", 1)[-1]
        if dotted in names.INPUT:
            return Value(kind="symbolic")
        if dotted in names.SEQUENTIAL:
            layers = kwargs.get("layers") or (args[0] if args else EMPTY)
            model = self.container(node, "Sequential", layers.items)
            first = next((i for i in layers.items if i.kind in ("model", "symbolic")), None)
            if first is None or first.kind == "symbolic" or first.weights & self.built:
                self.built |= model.weights  # an Input (or a shaped first layer) builds it
            return model
        if dotted in names.FUNCTIONAL:
            outputs = kwargs.get("outputs") or (args[1] if len(args) > 1 else EMPTY)
            model = self.container(node, "functional", (outputs,))
            for root in outputs.live | {r for c in outputs.cuts for r in c.roots}:
                self.roots.add(self.fresh(node), root)
            return model
        if dotted in names.LAMBDA_LAYER:
            fn = kwargs.get("function") or (args[0] if args else EMPTY)
            return Value(kind="model", weights=frozenset({self.fresh(node)}), items=(fn,),
                         text="Lambda")
        if dotted.startswith(("keras.layers.", "keras.applications.")) and last[:1].isupper():
            root = self.fresh(node)
            if dotted.startswith("keras.applications.") or any(
                    k.arg in _SHAPED for k in node.keywords):
                self.built.add(root)  # it knows its input shape: its weights exist already
            return Value(kind="model", weights=frozenset({root}), text=last)
        return None

    def container(self, node: ast.AST, text: str, items: tuple[Value, ...]) -> Value:
        """Return a model made of ``items`` (its root contains theirs)."""
        root = self.fresh(node)
        for item in items:
            for child in item.weights:
                self.roots.add(root, child)
        return Value(kind="model", weights=frozenset({root}), items=items, text=text)

    # -- methods ----------------------------------------------------------------------------------
    def method(self, node: ast.Call, base: Value, attr: str, args: list[Value],
               kwargs: dict[str, Value], env: Env) -> Value:
        """Return the value of ``base.attr(...)``."""
        if base.kind in ("tape", "tape-new"):
            return self.tape_method(node, base, attr, args, kwargs, env)
        if base.kind == "instance" or (base.kind == "model" and isinstance(base.node,
                                                                           ast.ClassDef)):
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
        if attr in _ASSIGN_METHODS and base.kind == "variable":
            return self.assign(node, base, args[0] if args else EMPTY)
        if attr in names.HOST_METHODS and attr != "predict" and attr != "predict_on_batch":
            return self.cut(node, "host", f".{attr}()", [operand])
        if base.kind in ("model", "instance"):
            return self.model_method(node, base, attr, args, kwargs)
        if attr == "minimize" and args:
            return self.minimize(node, args, kwargs)
        return self.op(node, f".{attr}()", [operand, *(self.operand(a, node) for a in args),
                                            *kwargs.values()])

    def model_method(self, node: ast.Call, base: Value, attr: str, args: list[Value],
                     kwargs: dict[str, Value]) -> Value:
        """Return the value of a Keras Model/Layer method call."""
        if attr in ("predict", "predict_on_batch"):
            result = self.call_model(node, base, args[:1], {})
            return self.cut(node, "host", f".{attr}()", [result])
        if attr == "get_weights":
            return Value(cuts=frozenset({Cut("host", ".get_weights()", Site.of(node),
                                             base.weights, node)}))
        if attr == "set_weights":
            return self.assign(node, replace(base, kind="variable"), args[0] if args else EMPTY)
        if attr == "compile":
            loss = kwargs.get("loss") or (args[1] if len(args) > 1 else EMPTY)
            self.compiles.append((base, loss, node))
            return EMPTY
        if attr in ("__call__", "call"):
            return self.call_model(node, base, args, kwargs)
        if attr == "get_layer":
            child = f"{next(iter(base.weights), '?')}.{self.fresh(node)}"
            for root in base.weights:
                self.roots.add(root, child)
            return Value(kind="model", weights=frozenset({child}))
        if attr in _MODEL_PLAIN_METHODS:
            if attr in ("build", "fit", "evaluate", "load_weights", "summary"):
                self.built |= base.weights
            return EMPTY
        return self.op(node, f".{attr}()", [self.operand(a, node) for a in args])

    def tape_method(self, node: ast.Call, tape: Value, attr: str, args: list[Value],
                    kwargs: dict[str, Value], env: Env) -> Value:
        """Return the value of ``tape.gradient/watch/stop_recording(...)``."""
        if attr == "stop_recording":
            return Value(kind="stop-recording")
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
            return Value(live=target.live | sources.live, cuts=target.cuts)
        return EMPTY

    def watch(self, value: Value, arg: ast.expr, env: Env) -> None:
        """Record ``tape.watch(arg)`` on the focus: its weights, or the tensor named by ``arg``.

        Keras 3 variables and symbolic Keras tensors (``model.inputs``) make ``tape.watch``
        raise ``ValueError`` (verified on TF 2.21 / Keras 3.15; ``tf.Variable`` is fine): such a
        watch is kept as a failed watch and watches nothing.
        """
        if value.kind == "keras-tensor" or (value.kind == "variable"
                                            and value.text.startswith("keras")):
            self.failed_watches.append(Cut("failed-watch", _short(arg), Site.of(arg),
                                           value.weights, arg))
            self.failed_roots |= value.weights
            return
        self.watched |= value.weights | value.live
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

    def assign(self, node: ast.Call, variable: Value, value: Value) -> Value:
        """Record ``variable.assign(value)``: later reads carry what the write cut."""
        value = self.operand(value, node)
        cuts = set(value.cuts)
        if value.live and self.recording:
            cuts.add(Cut("assign", ast.unparse(node.func).rsplit(".", 1)[-1], Site.of(node),
                         value.live, node))
        for root in variable.weights:
            self.assigned[root] = self.assigned.get(root, frozenset()) | frozenset(cuts)
        return EMPTY

    def minimize(self, node: ast.Call, args: list[Value], kwargs: dict[str, Value]) -> Value:
        """Record ``optimizer.minimize(loss_fn, var_list)`` as a gradient call."""
        if self.focus is not None:
            return EMPTY
        variables = kwargs.get("var_list") or (args[1] if len(args) > 1 else EMPTY)
        recording, self.recording = self.recording, True
        try:
            target = self.call_value(node, args[0], [], {})
        finally:
            self.recording = recording
        self.record(node, target, variables, None)
        return EMPTY

    # -- the user's classes and Keras objects ----------------------------------------------------
    def instantiate(self, node: ast.AST, cls: Value) -> Value:
        """Return an instance of a user class (a model/layer, a loss, or a plain object)."""
        bases = self.bases(cls)
        if bases & names.LOSS_BASES:
            kind = "loss"
        elif bases & names.LAYER_BASES:
            kind = "model"
        else:
            kind = "object"
        return Value(kind=kind, weights=frozenset({self.fresh(node)}) if kind == "model" else
                     frozenset(), node=cls.node, env=cls.env)

    def bases(self, cls: Value) -> set[str]:
        """Return the dotted library bases of a user class, through its user base classes."""
        out: set[str] = set()
        node = cls.node
        if not isinstance(node, ast.ClassDef) or cls.env is None:
            return out
        for base in node.bases:
            dotted = self.imports.dotted(base)
            if dotted is not None:
                out.add(dotted)
            elif isinstance(base, ast.Name):
                parent = cls.env.get(base.id)
                if parent is not None and parent.kind == "class" and parent.node is not node:
                    out |= self.bases(parent)
        return out

    def find_method(self, instance: Value, name: str) -> Value | None:
        """Return the method ``name`` of an instance's class (or a user base class)."""
        cls: Any = instance.node
        env = instance.env
        seen = 0
        while isinstance(cls, ast.ClassDef) and env is not None and seen < 8:
            seen += 1
            for stmt in cls.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                        stmt.name == name:
                    return Value(kind="function", node=stmt, env=env)
            parent = next((env.get(b.id) for b in cls.bases if isinstance(b, ast.Name)
                           and env.get(b.id) is not None), None)
            cls = parent.node if parent is not None and parent.kind == "class" else None
        return None

    def bound(self, node: ast.Call, method: Value, instance: Value, args: list[Value],
              kwargs: dict[str, Value]) -> Value:
        """Return the value of calling a user method with ``self`` bound to ``instance``."""
        return self.call_value(node, method, [instance, *args], kwargs)

    def py_function(self, node: ast.Call, func: Value, inputs: Value) -> Value:
        """Return ``tf.py_function(func, inputs)``: differentiable through TF ops in its body.

        The body is interpreted on the inputs; a host conversion there is a ``py-host`` cut
        (TM304): TensorFlow differentiates a py_function by recording its body's ops.
        """
        if func.kind != "function" or not inputs.live:
            return self.op(node, "tf.py_function", [inputs])
        recording, self.recording = self.recording, True
        try:
            params = [self.element(inputs)] * 8
            result = self.call_value(node, func, params, {})
        finally:
            self.recording = recording
        name = getattr(func.node, "name", "<lambda>")
        cuts = frozenset(replace(c, kind="py-host", detail=name) if c.kind == "host" else c
                         for c in result.cuts)
        return Value(live=result.live, cuts=cuts | inputs.cuts,
                     ghost=result.ghost | inputs.live | inputs.ghost)

    def call_model(self, node: ast.Call, model: Value, args: list[Value],
                   kwargs: dict[str, Value]) -> Value:
        """Return the output of calling a model or layer on ``args``."""
        self.built |= model.weights
        operands = [self.operand(a, node) for a in args]
        symbolic = any(a.kind == "symbolic" for a in args)
        inputs = join(*operands)
        if model.text == "Sequential":
            value = replace(inputs, kind="symbolic") if symbolic else inputs
            for layer in model.items:
                if layer.kind in ("model", "instance"):
                    value = self.call_model(node, layer, [value], {})
            return value
        if model.text == "functional" and model.items:
            outputs = model.items[0]
            return join(self.read(outputs.live, node, symbolic), Value(cuts=outputs.cuts),
                        inputs) if not symbolic else replace(
                join(self.read(outputs.live, node, True), Value(cuts=outputs.cuts), inputs),
                kind="symbolic")
        if model.text == "Lambda" and model.items:
            return self.call_value(node, model.items[0], operands, {})
        method = self.find_method(model, "call" if model.kind != "object" else "__call__")
        if method is not None and (self.recording or symbolic):
            return self.bound(node, method, model, args, kwargs)
        if model.kind in ("loss", "object"):
            return self.op(node, ast.unparse(node.func), operands)
        weights = self.read(model.weights, node, symbolic)
        value = join(weights, inputs)
        return replace(value, kind="symbolic") if symbolic else value

    def member(self, base: Value, attr: str, node: ast.AST) -> Value:
        """Return ``model.attr`` (a weight list, a layer list, a weight, a ``self.x`` member)."""
        if attr in names.WEIGHT_LISTS:
            unbuilt = base.text == "Sequential" and not base.weights & self.built
            return Value(kind="variable", weights=base.weights, items=(base,), node=node,
                         text="keras:unbuilt" if unbuilt else
                         "keras" if self.is_keras(base) else "")
        if attr in ("inputs", "outputs", "input", "output") and self.is_keras(base):
            return Value(kind="keras-tensor")
        if attr == "layers":
            return Value(kind="layers", weights=base.weights,
                         items=tuple(i for i in base.items if i.kind == "model"))
        if isinstance(base.node, ast.ClassDef):
            found = self.self_member(base, attr)
            if found is not None:
                return found
        if attr in _WEIGHT_MEMBERS:
            root = f"{next(iter(sorted(base.weights)), '?')}.{attr}"
            for parent in base.weights:
                self.roots.add(parent, root)
            return Value(kind="variable", weights=frozenset({root}),
                         text="keras" if self.is_keras(base) else "")
        return EMPTY

    def is_keras(self, model: Value) -> bool:
        """Whether a model value is a Keras object (its variables are Keras 3 Variables)."""
        if model.kind not in ("model", "instance"):
            return False
        if not isinstance(model.node, ast.ClassDef):
            return bool(model.text)
        return bool(self.bases(Value(kind="class", node=model.node, env=model.env))
                    & names.KERAS_BASES)

    def self_member(self, instance: Value, attr: str) -> Value | None:
        """Return what ``self.attr = ...`` in the instance's class made (None if nothing)."""
        cls = instance.node
        assert isinstance(cls, ast.ClassDef)
        key = (",".join(sorted(instance.weights)), f"{id(cls)}.{attr}")
        if key in self._members:
            return self._members[key]
        self._members[key] = EMPTY  # a member defined from itself ends here
        value_node = next((n.value for n in ast.walk(cls) if isinstance(n, ast.Assign)
                           for t in n.targets if isinstance(t, ast.Attribute)
                           and t.attr == attr and isinstance(t.value, ast.Name)
                           and t.value.id == "self"), None)
        if value_node is None:
            return None
        local = Env(instance.env)
        local.vars["self"] = instance
        recording, self.recording = self.recording, False
        try:
            value = self.expr(value_node, local)
        finally:
            self.recording = recording
        if isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute) \
                and value_node.func.attr in ("add_weight", "add_variable"):
            value = Value(kind="variable", weights=frozenset({self.fresh(value_node)}),
                          text="keras")
        for child in value.weights:
            for parent in instance.weights:
                self.roots.add(parent, child)
        self._members[key] = value
        return value


_CALLABLE = frozenset({"model", "instance", "function", "loss", "object", "class"})
_ASSIGN_METHODS = frozenset({"assign", "assign_add", "assign_sub"})
_MODEL_PLAIN_METHODS = frozenset({"fit", "evaluate", "summary", "save", "save_weights",
                                  "load_weights", "build", "count_params", "get_config",
                                  "reset_states", "add_loss", "add_metric"})


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


_SHAPED = frozenset({"input_shape", "input_dim", "batch_input_shape", "batch_shape"})


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
