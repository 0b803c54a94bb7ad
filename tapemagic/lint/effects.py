"""What a few APIs do beyond joining their operands, and what tracing a step changes.

TF-free. :class:`Effects` refines the library calls of :mod:`tapemagic.lint.members`:

- ``tf.Variable(value)`` made while the tape records, from a value computed from the weights:
  the variable's initial value is written by an assignment (``AssignVariableOp``), which the
  tape does not differentiate, so what reads the new variable has lost those weights (TM402);
- ``tf.constant(variable)`` copies the variable's value into a constant: the tape records
  no read of it (TM104 at the copy);
- ``tf.sign``: its registered gradient is zeros everywhere (``_SignGrad``), so the weights
  behind it get exact zeros, not None (a ``zero`` cut, TM501);
- a draw of 0/1 with a probability given (``K.random_binomial(shape, p)``) and the
  ``sample()`` of a TensorFlow Probability discrete distribution (``NOT_REPARAMETERIZED``)
  carry no gradient to the probabilities (TM201); its ``log_prob`` does;
- APIs the generated catalog lists (:mod:`tapemagic.lint.catalog`, TensorFlow's facts): no
  gradient crosses them, or they were asked for an integer result dtype;
- ``tf.gather(table, indices)``: indices that weights made pick rows of a learned table, so
  the gather is a place to change too (a VQ decoder without a straight-through);
- a Keras metric object: ``update_state`` writes its variables, ``result()`` reads them;
- traced code (a ``tf.function``, decorated or wrapped; Keras ``fit``'s train function; a Keras
  ``train_step``) runs its Python body once, when TensorFlow traces it. ``back_prop=False``
  on ``tf.map_fn``/``tf.while_loop``/``tf.scan``/``foldl``/``foldr`` then wraps the loop's
  results in ``stop_gradient`` (``while_v2``; eagerly the loop is a Python loop and the flag
  does nothing, verified on TF 2.21), and a Python number read from an attribute or a global
  is a constant of the graph: a loss weight that is 0.0 when traced and ramped later by the
  epoch loop zeroes its term for good (TM504), as changing it does not retrace.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from tapemagic.lint import catalog, frozen, names, patterns
from tapemagic.lint.blocks import api_of, weight_roots
from tapemagic.lint.members import Members
from tapemagic.lint.values import Cut, Env, Site, Value, join

#: ``text`` of a Python number read from state the source changes later, 0 at first.
FROZEN_ZERO = "frozen-zero"
_MULTIPLY = frozenset({"tensorflow.multiply", "keras.ops.multiply"})
_TENSOR_ARRAY = "tensorflow.TensorArray"

#: TensorArray methods that return the written array (tensor_array_ops.py).
_TENSOR_ARRAY_WRITES = frozenset({"write", "scatter", "unstack", "split"})
#: Keywords that set an API's result dtype (api_catalog.py's ``_DTYPE_PARAMETERS``).
_DTYPE_KEYWORDS = ("dtype", "out_type", "output_type")


class Effects(Members):
    """Variables made from values, zero-gradient ops and traced steps (module docstring)."""

    def __init__(self, tree: ast.Module, imports: names.Imports | None = None) -> None:
        super().__init__(tree, imports)
        #: Whether the code interpreted now runs traced (its Python body once, at trace)
        self.traced = False
        #: ... and by a function (or train function) made once: not re-made, so not retraced,
        #: in a loop, so the Python values it read at its trace stay its constants
        self.captured = False
        #: The source forces eager mode (``tf.config.run_functions_eagerly(True)``)
        self.eager = patterns.runs_eagerly(tree, self.imports)
        self.bindings = frozen.scan(tree)
        self.made_once = frozen.made_once(tree)

    def trace(self, traced: bool, once: bool) -> tuple[bool, bool]:
        """Enter code that runs traced if ``traced`` (``once``: by a function made once).

        Returns the state to restore. Nested calls inherit it (they are inlined into the
        trace); forced eager mode traces nothing.
        """
        old = (self.traced, self.captured)
        if traced and not self.eager:
            self.traced = True
            self.captured = self.captured or once
        return old

    def library(self, node: ast.Call, dotted: str, args: list[Value],
                kwargs: dict[str, Value], api: str | None = None) -> Value:
        """Return the value of a library call (:meth:`Members.library`), refined here."""
        if dotted == _TENSOR_ARRAY:  # its value-returning methods: see `discarded`
            return replace(super().library(node, dotted, args, kwargs, api), text=_TENSOR_ARRAY)
        if dotted == "tensorflow.function" and args and args[0].kind == "function":
            # step = tf.function(step): traced when called; made here (once, or per loop run)
            return replace(args[0], text="traced" if node in self.made_once else "retraced")
        if dotted in _MULTIPLY and self.captured and len(args) == 2 and \
                any(a.text == FROZEN_ZERO for a in args):  # tf.multiply(self.beta, kl)
            other = args[1] if args[0].text == FROZEN_ZERO else args[0]
            return self.cut(node, "frozen-zero", ast.unparse(node), [self.operand(other, node)])
        if dotted in names.DISCRETE_DISTRIBUTIONS:  # tfd.Bernoulli(probs=p): its samples cut
            params = join(*(self.operand(a, node) for a in [*args, *kwargs.values()]))
            return replace(params, kind="sampler", text=api or ast.unparse(node.func))
        if dotted in names.BINARY_DRAWS:  # K.random_binomial(shape, p=probs)
            key, index = names.BINARY_DRAWS[dotted]
            given = kwargs.get(key) or (args[index] if len(args) > index else None)
            if given is not None:
                return self.cut(node, "non-differentiable", api or ast.unparse(node.func),
                                [self.operand(given, node)])
        if dotted in names.ZERO_GRADIENT:
            return self.cut(node, "zero", api or ast.unparse(node.func),
                            [self.operand(a, node) for a in args[:1]])
        if dotted in names.CLIPS and _bounds_swapped(node, names.CLIPS[dotted]):
            return self.cut(node, "zero", api_of(node), [self.operand(a, node) for a in args[:1]])
        if dotted in names.DATASET_MAKERS:  # its elements: cut from what it was made of
            made = self.cut(node, "non-differentiable", api or ast.unparse(node.func),
                            [self.operand(a, node) for a in args[:1]])
            return Value(kind="dataset", items=(made,), cuts=made.cuts, ghost=made.ghost)
        if dotted in names.CONSTANT_COPIES and args and args[0].kind == "variable":
            # tf.constant(temperature): a copy of the variable's value, no read the tape sees
            return self.cut(node, "copied", api or ast.unparse(node.func),
                            [self.operand(args[0], node)])
        if dotted in names.GATHERS and len(args) > 1:
            return self.lookup(node, api or ast.unparse(node.func), args)
        if dotted not in names.KNOWN:
            found = self.catalogued(node, dotted, args, kwargs, api)
            if found is not None:
                return found
        for param, (position, kind) in catalog.stopped(dotted).items():
            # the API wraps this input in stop_gradient, or only an op input its gradient
            # gives None reads it: what it carries is cut here
            text = f"{api or ast.unparse(node.func)}({param}=...)"
            if param in kwargs:
                kwargs = kwargs | {param: self.cut(node, kind, text,
                                                   [self.operand(kwargs[param], node)])}
            elif 0 <= position < len(args):
                args = [*args[:position], self.cut(node, kind, text, [
                    self.operand(args[position], node)]), *args[position + 1:]]
        value = super().library(node, dotted, args, kwargs, api)
        if dotted in names.VARIABLE and self.recording:
            given = kwargs.get("initial_value") or kwargs.get("initializer") or \
                (args[0] if args else None)
            initial = self.operand(given, node) if given is not None else None
            if initial is not None and initial.live:
                written = Cut("assign", api or ast.unparse(node.func), Site.of(node),
                              initial.live, node)
                for root in value.weights:
                    self.assigned[root] = self.assigned.get(root, frozenset()) | \
                        initial.cuts | {written}
        if dotted in names.BACK_PROP_OPS and self.traced and \
                patterns.keyword_false(node, "back_prop"):
            text = f"{api or ast.unparse(node.func)}(..., back_prop=False)"
            stop = [self.cut(node, "stop-gradient", text, [item])
                    for item in (value.items if value.kind == "seq" else (value,))]
            return self.sequence(stop) if value.kind == "seq" else stop[0]
        return value

    def lookup(self, node: ast.Call, api: str, args: list[Value]) -> Value:
        """Return ``tf.gather(params, indices)``: differentiable in ``params`` only.

        Indices an earlier cut took from weights (an argmin's codes) pick rows of a learned
        table (a variable, a codebook) here: the rows replace the value the indices were
        computed from, so this lookup is a place to change too (a straight-through estimator
        goes here), as the run reports it. Only when the indices were computed from the rows
        they pick (a nearest-row search over the table): then the rows stand for the value that
        was compared with them. Rows picked from computed outputs (a router's choice among
        experts), or from one table by indices a search over another made (the values of a
        bucket ``searchsorted`` found among learned edges), leave the cut where the indices
        were made.
        """
        params, indices = self.operand(args[0], node), self.operand(args[1], node)
        value = self.op(node, api, [params, indices])
        lost = frozenset(r for r in indices.ghost - indices.live if not r.startswith("t:")
                         and not self.roots.covered(r, params.live))
        if args[0].kind != "variable" or not params.live or not lost or \
                not self.roots.overlap(weight_roots(indices.ghost), params.live):
            return value
        found = Cut("integer", api, Site.of(node), lost, node, "secondary")
        return replace(value, cuts=value.cuts | {found})

    def catalogued(self, node: ast.Call, dotted: str, args: list[Value],
                   kwargs: dict[str, Value], api: str | None) -> Value | None:
        """Return an API's value from TensorFlow's facts (:mod:`tapemagic.lint.catalog`).

        An API whose result depends on its tensors only through ops without a gradient cuts
        all of them; one asked for an integer result dtype gives integers. None otherwise.
        """
        api = api or ast.unparse(node.func)
        operands = [self.operand(a, node) for a in [*args, *kwargs.values()]]
        found = catalog.cut(dotted)
        chosen = {k: v.text for k, v in kwargs.items() if isinstance(v.text, str)} | {
            k.arg: _option(k.value) for k in node.keywords if k.arg is not None
            and _option(k.value)}
        option = catalog.option_cut(dotted, chosen, [
            _option(n) or (a.text if isinstance(a.text, str) else "")
            for a, n in zip(args, node.args, strict=False)])
        if found is None and option is not None:  # the option chose a gradient-less op
            found, api = option[:2], f"{api}(..., {option[2]})"
        if found is not None:
            kind = "non-differentiable" if found[0] == "indices" else found[0]
            value = self.cut(node, kind, api, operands)
            if found[0] in ("integer", "indices"):
                value = self.sampled(node, dotted, value)
            if found[0] == "integer":
                return replace(value, text="int")
            value = self.raising(node, found[1], value)
            # decoded labels (with their log-probabilities), or a result asked for in an
            # integer dtype (`tf.quantization.quantize(h, lo, hi, tf.qint8)`): an op on them
            # further on (its `dequantize`) is no new cut
            asked = any(a.text in names.INTEGER_DTYPES for a in [*args, *kwargs.values()])
            return replace(value, text="int") if found[0] == "indices" or asked else value
        position = catalog.dtype_position(dotted)
        if position is None:
            return None
        dtype = next((kwargs[k] for k in _DTYPE_KEYWORDS if k in kwargs), None) or (
            args[position] if len(args) > position else None)
        if dtype is None or dtype.text not in names.INTEGER_DTYPES:
            return None
        return replace(self.cut(node, "integer", api, operands[:1]), text="int")

    def method(self, node: ast.Call, base: Value, attr: str, args: list[Value],
               kwargs: dict[str, Value], env: Env) -> Value:
        """Return ``base.attr(...)`` (:meth:`Members.method`); a discrete ``sample()`` cuts."""
        if base.kind == "metric":
            return self.metric(node, base, attr, args)
        if base.kind != "sampler":
            return super().method(node, base, attr, args, kwargs, env)
        plain = replace(base, kind=None, text="")
        if attr == "sample":
            return self.cut(node, "non-differentiable", f"{base.text}(...).sample()", [plain])
        return self.op(node, f".{attr}()", [plain, *(self.operand(a, node) for a in args),
                                            *kwargs.values()])

    def metric(self, node: ast.Call, metric: Value, attr: str, args: list[Value]) -> Value:
        """Return a Keras metric object's method: ``update_state`` writes, ``result`` reads.

        A Keras metric accumulates into its own variables (``assign_add`` in ``update_state``,
        keras/src/metrics): what ``result()`` (or calling the metric) gives back is read from
        them, so the tape has no path from the values it was given to the result.
        """
        if attr in ("update_state", "__call__"):
            self.assign(node, replace(metric, kind="variable"),
                        join(*(self.operand(a, node) for a in args)))
        if attr in ("result", "__call__"):
            return self.read(metric.weights, node)
        return Value()

    def discarded(self, node: ast.expr, env: Env) -> None:
        """Interpret a call whose result a statement drops (``states.write(t, h)``).

        Traced, a ``tf.TensorArray`` is a value: ``write``, ``scatter``, ``unstack`` and
        ``split`` return a new array holding the values and leave the one they are called on
        as it was (tensor_array_ops.py, ``_GraphTensorArrayV2``: "use this object for all
        subsequent operations"; eagerly they write in place). So a later read of the old
        array carries none of the weights the values were computed from: that read gets a
        ``discarded`` cut at this statement.
        """
        if not (self.traced and isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                and node.func.attr in _TENSOR_ARRAY_WRITES):
            return
        name = node.func.value.id
        held = env.get(name)
        if held is None or held.text != _TENSOR_ARRAY:
            return
        # the values written, evaluated again only when that calls nothing
        given = join(*(self.operand(self.expr(a, env), a) for a in node.args
                       if not any(isinstance(n, ast.Call) for n in ast.walk(a))))
        lost = given.live - held.live
        if not lost:
            return
        api = ast.unparse(node.func) + "(...)"
        cut = Cut("discarded", api, Site.of(node), lost, node,
                  f"`{api}` returns a new array in traced code and its result is dropped "
                  f"here: `{name}` stays as it was")
        holder: Env | None = env
        while holder is not None and name not in holder.vars:
            holder = holder.parent
        if holder is not None:
            holder.vars[name] = replace(held, cuts=held.cuts | {cut}, ghost=held.ghost | lost)

    # -- traced steps -------------------------------------------------------------------------
    def frozen(self, base: Value, attr: str, value: Value) -> Value:
        """Return ``base.attr`` (``value``), marked when it is a number frozen when traced.

        Marked when it holds a host number (no weight, no tensor path) and the source binds
        it to a literal 0 first and to something else later (:mod:`tapemagic.lint.frozen`).
        """
        if not _host_number(value) or not self.bindings.attribute(self.classes(base), attr):
            return value
        return Value(text=FROZEN_ZERO)

    def classes(self, instance: Value) -> list[str]:
        """Return the names of an instance's class and of its user base classes, in order."""
        out: list[str] = []
        cls, env = instance.node, instance.env
        while isinstance(cls, ast.ClassDef) and env is not None and len(out) < 8:
            out.append(cls.name)
            parent = next((env.get(b.id) for b in cls.bases if isinstance(b, ast.Name)
                           and env.get(b.id) is not None), None)
            cls = parent.node if parent is not None and parent.kind == "class" else None
        return out

    def product(self, node: ast.BinOp, left: Value, right: Value) -> Value | None:
        """Return ``a * b`` when one factor is a frozen Python 0 or a literal 0 (else None).

        A literal zero (``argmax_term + 0 * tf.reduce_mean(y_pred)``, the term added to
        silence "No gradients provided") leaves the weights a path whose gradient is exact
        zeros (``Mul``'s registered gradient multiplies by the other factor): a
        ``zero-product`` cut no rule reports on its own (a term switched off on purpose), so
        that a cut the weights met on another path counts as theirs.
        """
        if not isinstance(node.op, ast.Mult):
            return None
        for factor, other in ((left, right), (right, left)):
            if self.captured and factor.text == FROZEN_ZERO:
                return self.cut(node, "frozen-zero", ast.unparse(node), [other])
        if not (_literal_zero(node.left) or _literal_zero(node.right)):
            return None
        value = join(left, right)
        # a cut inside the zeroed term changes nothing (fixed, its gradient is still zero),
        # but for an op with no gradient at all: the zeros still reach it, and it raises
        kept = frozenset(c for c in value.cuts if c.detail == "raises")
        roots = value.live | weight_roots(value.ghost)
        if roots:
            kept |= {Cut("zero-product", ast.unparse(node), Site.of(node), roots, node)}
        return Value(cuts=kept, ghost=value.ghost | value.live)

    def global_read(self, node: ast.Name, env: Env, value: Value) -> Value:
        """Return a name's value, marked when it is a module global frozen when traced."""
        holder: Env | None = env
        while holder is not None and node.id not in holder.vars:
            holder = holder.parent
        if holder is self.module_env and _host_number(value) and \
                self.bindings.global_name(node.id):
            return Value(text=FROZEN_ZERO)
        return value


def _host_number(value: Value) -> bool:
    """Whether a value is a plain host value: no kind, no weight, no tensor path, no cut."""
    return value.kind is None and not value.live and not value.cuts and \
        all(r.startswith("t:") for r in value.weights | value.ghost)


def _option(node: ast.expr) -> str:
    """Return how the catalog keys an option given as ``node``: a flag, a list of 2 or more.

    ``"True"``/``"False"`` for a boolean literal, ``"len>1"`` for a list or tuple display of
    two items or more (``tf.sparse.concat(1, [a, b])``), else "".
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return str(node.value)
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) > 1 and \
            not any(isinstance(e, ast.Starred) for e in node.elts):
        return "len>1"
    return ""


def _literal_zero(node: ast.expr) -> bool:
    """Whether ``node`` is the number literal 0 (``0``, ``0.0``, ``-0.``), not ``False``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and \
        node.value == 0


def _bounds_swapped(node: ast.Call, params: tuple[str, str]) -> bool:
    """Whether a clip's two bounds are number literals with the lower one above the upper."""
    given = {k.arg: k.value for k in node.keywords if k.arg in params}
    bounds = [given.get(p, node.args[i + 1] if len(node.args) > i + 1 else None)
              for i, p in enumerate(params)]
    try:
        low, high = (ast.literal_eval(b) if b is not None else None for b in bounds)
    except (ValueError, TypeError):  # not literals: nothing certain
        return False
    numbers = [b for b in (low, high) if isinstance(b, (int, float)) and not isinstance(b, bool)]
    return len(numbers) == 2 and numbers[0] > numbers[1]
