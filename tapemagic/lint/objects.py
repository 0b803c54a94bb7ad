"""Keras objects for the abstract interpreter: layers, models and the user's own classes.

TF-free. :class:`Objects` builds the values of Keras constructors (a Dense layer is a weight
root; a Sequential contains its layers and runs them in order; a functional ``Model`` keeps its
symbolic outputs; a Lambda layer calls its function), answers what ``model.trainable_variables``,
``layer.kernel`` or ``self.dense`` are, and calls models: the user's classes are instantiated
without running ``__init__`` (``self.x = ...`` assignments anywhere in the class give members,
evaluated when first read, in the scope of their method: :mod:`tapemagic.lint.methods`) and
their ``call`` is interpreted.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import Any

from tapemagic.lint import methods, names, patterns
from tapemagic.lint.blocks import Blocks, api_of
from tapemagic.lint.values import EMPTY, UNKNOWN_PARAMETER, Env, Site, Value, join, merge

#: Layer attributes that are weights (``layer.kernel``).
_WEIGHT_MEMBERS = frozenset({"kernel", "bias", "embeddings", "gamma", "beta",
                             "recurrent_kernel", "depthwise_kernel", "pointwise_kernel"})
_SHAPED = frozenset({"input_shape", "input_dim", "batch_input_shape", "batch_shape"})


class Objects(Blocks):
    """Keras constructors, members and model calls (see the module docstring)."""

    def __init__(self, tree: ast.Module, imports: names.Imports | None = None) -> None:
        super().__init__(tree, imports)
        self._members: dict[tuple[str, str], Value] = {}
        #: What each construction of an instance passed to ``__init__`` (by instance).
        self._constructed: dict[tuple[str, int], list[tuple[tuple[Value, ...],
                                                           dict[str, Value]]]] = {}
        self._locals: dict[tuple[str, int, int], Value] = {}  # a method's locals, evaluated
        self.entry: ast.AST | None = None  # the layer a Sequential runs now (its constructor)
        #: A functional model's root -> its integer ``keras.Input(...)`` calls
        self.integer_inputs: dict[str, list[ast.AST | None]] = {}

    def keras(self, node: ast.Call, dotted: str, args: list[Value],
              kwargs: dict[str, Value]) -> Value | None:
        """Return the value of a Keras constructor (layer, model, Input), or None."""
        last = dotted.rsplit(".", 1)[-1]
        if dotted in names.INPUT:  # an integer one: Keras casts what a model is given to it
            dtype = kwargs.get("dtype") or Value()
            return Value(kind="symbolic", node=node,
                         text="int" if dtype.text in names.INTEGER_DTYPES else "")
        if dotted in names.SEQUENTIAL:
            layers = kwargs.get("layers") or (args[0] if args else EMPTY)
            model = self.container(node, "Sequential", layers.items)
            first = next((i for i in layers.items if i.kind in ("model", "symbolic")), None)
            if first is None or first.kind == "symbolic" or first.weights & self.built:
                self.built |= model.weights  # an Input (or a shaped first layer) builds it
            return model
        if dotted in names.FUNCTIONAL:
            outputs = kwargs.get("outputs") or (args[1] if len(args) > 1 else EMPTY)
            # A functional model is built from symbolic inputs, always outside any tape: its
            # layer calls are the model's graph, not ops off the tape (whatever the checker
            # could tell of inputs built in a loop or a dict), and calling it reads them all.
            built = frozenset(r for c in outputs.cuts if c.kind == "outside" for r in c.roots)
            outputs = replace(outputs, live=outputs.live | built,
                              cuts=frozenset(c for c in outputs.cuts if c.kind != "outside"),
                              ghost=outputs.ghost - built)
            model = self.container(node, "functional", (outputs,))
            given = kwargs.get("inputs") or (args[0] if args else EMPTY)
            self.integer_inputs[self.fresh(node)] = [
                i.node if i.text == "int" else None for i in (given.items or (given,))]
            for root in outputs.live | {r for c in outputs.cuts for r in c.roots}:
                self.roots.add(self.fresh(node), root)
            return model
        if dotted in names.CLONES and args and args[0].kind == "model":
            # a model of the same layers with new weights: none of the original's are read
            root = self.fresh(node)
            if args[0].weights & self.built:
                self.built.add(root)
            return Value(kind="model", weights=frozenset({root}), node=node)
        if dotted in names.LAMBDA_LAYER:
            fn = kwargs.get("function") or (args[0] if args else EMPTY)
            return Value(kind="model", weights=frozenset({self.fresh(node)}), items=(fn,),
                         text="Lambda")
        if dotted.startswith("keras.metrics.") and last[:1].isupper():
            # a metric object: state variables its update writes and its result reads
            return Value(kind="metric", weights=frozenset({self.fresh(node)}), node=node,
                         text=last)
        if dotted.startswith(("keras.layers.", "keras.applications.")) and last[:1].isupper():
            root = self.fresh(node)
            if dotted.startswith("keras.applications.") or any(
                    k.arg in _SHAPED for k in node.keywords):
                self.built.add(root)  # it knows its input shape: its weights exist already
            # node: where the layer was made, the place of its own ops in a Sequential
            return Value(kind="model", weights=frozenset({root}), text=last, node=node)
        return None

    def container(self, node: ast.AST, text: str, items: tuple[Value, ...]) -> Value:
        """Return a model made of ``items`` (its root contains theirs)."""
        root = self.fresh(node)
        for item in items:
            for child in item.weights:
                self.roots.add(root, child)
        return Value(kind="model", weights=frozenset({root}), items=items, text=text)

    def instantiate(self, node: ast.AST, cls: Value, args: tuple[Value, ...] = (),
                    kwargs: dict[str, Value] | None = None) -> Value:
        """Return an instance of a user class (a model/layer, a loss, or a plain object).

        ``args``/``kwargs`` are what the construction passed to ``__init__`` (kept for the
        scope its members are evaluated in).
        """
        bases = self.bases(cls)
        if bases & names.LOSS_BASES:
            kind = "loss"
        elif bases & names.LAYER_BASES or names.keras_bases(bases):
            kind = "model"
        else:
            kind = "object"
        instance = Value(kind=kind, weights=frozenset({self.fresh(node)}) if kind == "model"
                         else frozenset(), node=cls.node, env=cls.env)
        self._constructed.setdefault(_instance_key(instance), []).append((args, kwargs or {}))
        return instance

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

    def call_model(self, node: ast.Call, model: Value, args: list[Value],
                   kwargs: dict[str, Value]) -> Value:
        """Return the output of calling a model or layer on ``args``.

        The output's ghost carries a marker of this call (``t:call@line:col``): which forward
        passes a gradient target was computed from (a Grad-CAM score from a second pass).
        """
        value = self.run_model(node, model, args, kwargs)
        if self.focus is None or not model.weights or value.kind not in (None, "symbolic"):
            return value
        marker = f"t:call@{node.lineno}:{node.col_offset}"
        known = self.model_calls.get(marker)
        self.model_calls[marker] = (node, model.weights | (known[1] if known else frozenset()))
        return replace(value, ghost=value.ghost | {marker})

    def run_model(self, node: ast.Call, model: Value, args: list[Value],
                  kwargs: dict[str, Value]) -> Value:
        """Return the output of calling a model or layer on ``args`` (see ``call_model``)."""
        self.built |= model.weights
        operands = [self.operand(a, node) for a in args]
        symbolic = any(a.kind == "symbolic" for a in args)
        inputs = join(*operands)
        if model.text == "Sequential":
            value = replace(inputs, kind="symbolic") if symbolic else inputs
            for layer in model.items:
                if layer.kind in ("model", "instance"):
                    self.entry = layer.node
                    value = self.call_model(node, layer, [value], {})
            self.entry = None
            return value
        if model.text == "functional" and model.items:
            outputs = model.items[0]
            casts = self.integer_inputs.get(next(iter(model.weights)), [])
            given = operands[0].items if len(casts) > 1 and operands and \
                len(operands[0].items) == len(casts) else operands[:1] if len(casts) == 1 else []
            # Functional casts each input to its Input's dtype: integers take no gradient
            inputs = join(*(self.cut(m, "integer", api_of(m), [g]) if m is not None else g
                            for m, g in zip(casts, given, strict=False))) if given else inputs
            if outputs.kind == "seq" and outputs.items and not symbolic:
                # a list of outputs: each reads the weights on its own path (a VAE's log_var
                # head is not on the reconstruction's)
                return replace(self.sequence([self.functional_output(node, o, inputs, symbolic)
                                              for o in outputs.items]), keys=outputs.keys)
            return self.functional_output(node, outputs, inputs, symbolic)
        if model.text == "Lambda" and model.items:
            return self.call_value(node, model.items[0], operands, {})
        # a Keras layer runs its `call`; a tf.Module or a plain object its `__call__`
        method = self.find_method(model, "call") if model.kind != "object" else None
        method = method or self.find_method(model, "__call__")
        if method is not None and (self.recording or symbolic):
            return self.bound(node, method, model, args, kwargs)
        if model.kind in ("loss", "object"):
            return self.op(node, ast.unparse(node.func), operands)
        if model.text in names.INTEGER_LAYERS or (model.text in names.INDEX_LAYERS
                                                   and inputs.live):
            # an Embedding's input is indices, a lookup's output ids: no gradient to the
            # input (a cut only when weights come before: text made ids is data). Behind the
            # user's own cut (an argmax, a cast) an Embedding's lookup is not one more to fix:
            # it takes indices by design (the runtime's graph/refine.behind says the same).
            # A Sequential runs it where the list made it: the line to change (the engine
            # places a layer's ops there too, tracing/layer_sites.py)
            made = model.node if isinstance(model.node, ast.Call) and \
                model.node is self.entry else node
            inputs = self.cut(made, "integer", ast.unparse(getattr(made, "func", made)),
                              operands)
        if model.text in patterns.DROPOUT_LAYERS and patterns.drops_everything(model.node,
                                                                               self.tree):
            inputs = self.zeroed(model.node or node, operands)  # rate 1.0: Keras returns zeros
        # a layer without variables reads no weights: only its input can carry them
        weights = EMPTY if model.text in names.WEIGHTLESS_LAYERS else self.read(
            model.weights, node, symbolic)
        if symbolic:
            return replace(join(weights, inputs), kind="symbolic")
        return self.op(node, ast.unparse(node.func), [weights, inputs])  # outside: a cut

    def functional_output(self, node: ast.AST, output: Value, inputs: Value,
                          symbolic: bool) -> Value:
        """Return one output of a functional model called on ``inputs`` (its weights read)."""
        value = join(self.read(output.live, node, symbolic), Value(cuts=output.cuts), inputs)
        return replace(value, kind="symbolic") if symbolic else value

    def member(self, base: Value, attr: str, node: ast.AST) -> Value:
        """Return ``model.attr`` (a weight list, a layer list, a weight, a ``self.x`` member)."""
        if attr in _TRAINABLE_LISTS and base.weights and base.weights <= self.frozen_models:
            # a frozen model lists none of its weights as trainable
            return Value(kind="variable", node=node, text="keras:frozen", items=(base,))
        if attr in names.WEIGHT_LISTS:
            unbuilt = base.text == "Sequential" and not base.weights & self.built
            return Value(kind="variable", weights=base.weights, items=(base,), node=node,
                         text="keras:unbuilt" if unbuilt else
                         "keras" if self.is_keras(base) else "")
        if attr in ("outputs", "output") and base.kind == "model" and base.weights:
            # a functional model built on them reads these weights (Grad-CAM's grad_model)
            return Value(kind="symbolic", live=base.weights)
        if attr in ("inputs", "outputs", "input", "output") and self.is_keras(base):
            return Value(kind="keras-tensor")
        if attr == "layers":
            return Value(kind="layers", weights=base.weights,
                         items=tuple(i for i in base.items if i.kind == "model"))
        if isinstance(base.node, ast.ClassDef):
            found = self.self_member(base, attr)
            if found is not None:
                return found
            method = self.find_method(base, attr) if attr not in _KERAS_CALLS else None
            if method is not None:  # `self._route` handed to an API: bound to its instance
                return replace(method, items=(base,), text="bound")
        if attr == "losses":
            return self.added_loss(base, node)
        if attr in _WEIGHT_MEMBERS:
            root = f"{next(iter(sorted(base.weights)), '?')}.{attr}"
            for parent in base.weights:
                self.roots.add(parent, root)
            return Value(kind="variable", weights=frozenset({root}),
                         text="keras" if self.is_keras(base) else "")
        return EMPTY

    def added_loss(self, model: Value, node: ast.AST) -> Value:
        """Return what ``model.losses`` holds (:mod:`tapemagic.lint.members` implements it)."""
        raise NotImplementedError

    def is_keras(self, model: Value) -> bool:
        """Whether a model value is a Keras object (its variables are Keras 3 Variables)."""
        if model.kind not in ("model", "instance"):
            return False
        if not isinstance(model.node, ast.ClassDef):
            # an unknown name or parameter: maybe not Keras
            return bool(model.text) and not model.text.startswith("?")
        return bool(names.keras_bases(self.bases(Value(kind="class", node=model.node,
                                                       env=model.env))))

    def self_member(self, instance: Value, attr: str) -> Value | None:
        """Return what ``self.attr = ...`` in the instance's class made (None if nothing)."""
        cls = instance.node
        assert isinstance(cls, ast.ClassDef)
        key = (",".join(sorted(instance.weights)), f"{id(cls)}.{attr}")
        if key in self._members:
            return self._members[key]
        found = methods.member_assignment(cls, attr)
        if found is None:  # not memoised: a Dense subclass's `self.kernel` is read again
            return None
        self._members[key] = EMPTY  # a member defined from itself ends here
        method, stmt = found
        value_node = stmt.value
        recording, self.recording = self.recording, False
        try:
            value = self.expr(value_node, self.member_scope(instance, method, stmt))
        finally:
            self.recording = recording
        if isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Attribute) \
                and value_node.func.attr in ("add_weight", "add_variable"):
            value = Value(kind="variable", weights=frozenset({self.fresh(value_node)}),
                          text="keras")
            if patterns.keyword_false(value_node, "trainable"):
                self.untrained |= value.weights
        for child in value.weights:
            for parent in instance.weights:
                self.roots.add(parent, child)
        freeze = methods.class_freeze(self.tree, cls, attr) if value.kind == "model" else None
        if freeze is not None and value.weights:
            self.frozen_models |= value.weights
            for root in value.weights:
                self.frozen_sites.setdefault(root, Site.of(freeze))
        self._members[key] = value
        return value

    def member_scope(self, instance: Value, method: methods.Function | None,
                     stmt: ast.Assign) -> Env:
        """Return the scope of a member's assignment: ``self`` and its method's names before it.

        The method's parameters are bound (:meth:`parameter`), never looked up as module
        globals of the same name; the locals it assigned before the member are evaluated in
        order. So ``self.scale = alpha / rank`` in ``__init__(self, base, rank=2, alpha=4.0)``
        is arithmetic on two numbers, off every tape and on no weight.
        """
        local = Env(instance.env)
        local.vars["self"] = instance
        if method is None:
            return local
        made = self._constructed.get(_instance_key(instance), []) \
            if method.name == "__init__" else []
        for param, default, index in methods.parameters(method):
            given = [args[index] if index is not None and index < len(args)
                     else kwargs.get(param.arg) for args, kwargs in made]
            local.vars[param.arg] = self.parameter(method, param, default, given)
        for assign in methods.locals_before(method, stmt):
            # once per instance: the variables a local makes keep one root for every member
            key = (*_instance_key(instance), id(assign))
            if key not in self._locals:
                self._locals[key] = self.expr(assign.value, local)
            targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
            for target in targets:
                self.bind(target, self._locals[key], local, source=False)
        return local

    def parameter(self, method: methods.Function, param: ast.arg, default: ast.expr | None,
                  given: list[Value | None]) -> Value:
        """Return a parameter's value: what each construction passed (None: the default).

        Host values passed (``LoRA(base, 4, 8.0)``) or a host default (``rank=2``, a scalar
        annotation, a ``build``'s shape) make a plain value; models, variables and tensors
        passed are themselves. Anything else (no construction seen, a name of another cell
        passed, a ``None`` default) is an unknown parameter: called, it reads its weights as
        a layer passed in does (``self.base(x)``); in arithmetic (``1.0 / units``) it is not
        read, as a number there is far likelier than a weight (precision first).
        """
        unresolved = Value(kind="model", weights=frozenset({f"?{param.arg}"}),
                           text=UNKNOWN_PARAMETER)
        if not given or None in given:  # the default is used somewhere
            if not methods.host_parameter(method, param, default):
                return unresolved
            text = default.value if isinstance(default, ast.Constant) and \
                isinstance(default.value, str) else ""  # a dtype name stays known
            given = [*given, Value(text=text)]
        passed = [v for v in given if v is not None]
        if any(v.kind == "model" and v.text.startswith("?") for v in passed):
            return unresolved
        if all(_weightless(v) for v in passed):
            texts = {v.text for v in passed}
            return Value(text=texts.pop() if len(texts) == 1 else "")
        out: Value | None = None
        for value in passed:
            out = merge(out, value)
        return out or unresolved


def _instance_key(instance: Value) -> tuple[str, int]:
    return ",".join(sorted(instance.weights)), id(instance.node)


def _weightless(value: Value) -> bool:
    """Whether a value passed in carries no weight: no kind, nothing live, cut or weighed."""
    if value.kind == "seq":
        return all(_weightless(i) for i in value.items)
    return value.kind is None and not value.live and not value.cuts and \
        all(r.startswith("t:") for r in value.weights | value.ghost)


#: Methods Keras runs itself: a reference to one is not a call of the user's code here.
_KERAS_CALLS = frozenset({"call", "__call__", "build", "train_step", "test_step"})
_TRAINABLE_LISTS = frozenset({"trainable_variables", "trainable_weights"})
