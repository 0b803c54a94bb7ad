"""The static checker's op catalog: which public TensorFlow APIs no gradient crosses.

Run by hand when TensorFlow changes (``python -m tapemagic.tracing.api_catalog``); it writes
``tapemagic/lint/api_ops.json``, which the TF-free checker reads, and a test regenerates it to
check that the file is TensorFlow's truth. The facts are TensorFlow's own: which op type each
public API makes (the generated ``gen_*_ops`` function it calls, named by the op-type string
that function passes to the op builder), which op types have no registered gradient
(``tf.no_gradient``, or no entry at all) or one that returns None for every input
(``optypes.RETURNS_NONE``), and which ops' first output is always an integer tensor.

An API is listed when its returned value depends on its tensor arguments only through such
ops: a generated op function itself (``tf.image.hsv_to_rgb``), or a Python wrapper whose
``return`` values, followed statement by statement through its body, come from such an op's
output and from nothing else computed from the arguments (``tf.image.adjust_hue`` converts the
dtype around ``AdjustHue``; ``tf.random.normal`` is not listed: it adds its ``mean`` after
the random op). Each entry also says whether the result is an integer tensor. APIs whose
``dtype``-like parameter sets the result type are listed with that parameter's position, so
``tf.image.convert_image_dtype(x, tf.uint8)`` is known to give integers.
"""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tensorflow as tf

from tapemagic.optypes import GATING_INPUTS, METADATA_OPS, RETURNS_NONE
from tapemagic.tracing import api_flow, api_lookups, gradient_probe
from tapemagic.tracing._tf_private import api_ops, registry_entry

#: Where the checker reads the catalog.
CATALOG = Path(__file__).resolve().parent.parent / "lint" / "api_ops.json"
#: Namespaces not walked: other libraries' copies (Keras), no tensors (config, io...).
_SKIPPED = frozenset({"keras", "raw_ops", "compat", "estimator", "experimental", "summary",
                      "io", "data", "saved_model", "config", "distribute", "tpu", "lookup",
                      "queue", "sysconfig", "train", "debugging", "audio", "types",
                      "autodiff", "mlir", "profiler", "xla", "dtypes", "errors", "version",
                      "tools", "__internal__", "__operators__", "test", "feature_column"})
#: Parameters that set the dtype of an API's result.
_DTYPE_PARAMETERS = ("dtype", "out_type", "output_type")


def build() -> dict[str, Any]:
    """Return the catalog: cut APIs, dtype parameters, and ops with no gradient at all.

    ``{"cuts": {api: [kind, [ops]]}, "dtypes": {api: position}, "raises": {op: true},
    "keywords": {api: {param: [position, {value: [kind, [ops]]}]}},
    "stopped": {api: {param: [position, [ops]]}}}``: ``raises`` lists the
    op types whose gradient makes a gradient call raise (no registry entry at all, a
    registered function that cannot give one, :func:`gradient_probe.always_raises`, or one
    that raises for the option value a keyword cut chose: ``MatrixSolveLs`` with
    ``fast=False``), ``keywords`` the option values of an API that
    give a result no gradient crosses (:func:`_option_cuts`, :func:`_flag_cuts`),
    ``stopped`` the parameters an API cuts while differentiating others
    (:func:`_input_cuts`).

    ``kind`` is ``"integer"`` when every output of the ops is always an integer tensor,
    ``"indices"`` when only the first is, else ``"non-differentiable"``. API names are dotted
    from ``tensorflow`` (``tensorflow.image.x``), with ``tensorflow.compat.v1.`` names for the
    v1-only ones.
    """
    names = frozenset(n for n in dir(tf.raw_ops) if not n.startswith("_"))  # op types
    cuts: dict[str, list[Any]] = {}
    positions: dict[str, int] = {}
    keywords: dict[str, dict[str, list[Any]]] = {}
    memo: dict[Any, Any] = {}  # what each followed function's result depends on
    inputs: dict[str, dict[str, list[Any]]] = {}
    for dotted, obj in [*_public(tf, "tensorflow", set(), 0), *_keras_ops()]:
        target = api_ops.unwrap(obj)
        found = _cut_ops(target, names, memo)
        if found:
            cuts[dotted] = [_kind(found), sorted(found)]
        elif severed := _input_cuts(target, names, memo):
            inputs[dotted] = severed
        position = _dtype_position(target)
        if position is not None:
            positions[dotted] = position
        chosen = {} if found else _option_cuts(target, names) | _flag_cuts(target, names, memo)
        if chosen:
            keywords[dotted] = chosen
    # ops the registry has no entry for: a gradient call whose path crosses one raises
    # LookupError, so every source is lost, not only those behind the op
    used = {op for _kind, ops in cuts.values() for op in ops} | {
        op for params in keywords.values() for _position, values in params.values()
        for _kind, ops in values.values() for op in ops}
    raises = sorted(op for op in used if registry_entry(op) == "missing"
                    or gradient_probe.always_raises(op) or op in _RAISING.raised)
    return {"cuts": dict(sorted(cuts.items())), "dtypes": dict(sorted(positions.items())),
            "raises": dict.fromkeys(raises, True), "keywords": dict(sorted(keywords.items())),
            "stopped": dict(sorted(inputs.items()))}


class _Raising:
    """The registry's facts a whole-result cut may use: option values whose gradient raises."""

    def __init__(self) -> None:
        #: ops an option value made raise: a cut through one raises, like a missing entry
        self.raised: set[str] = set()

    def none_inputs(self, op_type: str) -> frozenset[str]:
        return frozenset()

    def raises_with(self, op_type: str, attrs: tuple[tuple[str, Any], ...]) -> bool:
        found = gradient_probe.raises_with(op_type, attrs)
        if found:
            self.raised.add(op_type)
        return found


class _Partial(_Raising):
    """... and, for one parameter's cut, the inputs an op's gradient leaves None."""

    def none_inputs(self, op_type: str) -> frozenset[str]:
        if op_type in METADATA_OPS:
            return frozenset()
        return gradient_probe.none_inputs(op_type)


_RAISING = _Raising()
_PARTIAL = _Partial()


def _kind(ops: frozenset[str]) -> str:
    """Say which outputs are integers: all, the first only (``indices``), or not the first.

    ``indices``: decoded labels beside their log-probabilities, a sparse result's indices
    beside its values.
    """
    if all(api_ops.outputs_integer(o) for o in ops):
        return "integer"
    if all(api_ops.first_output_integer(o) for o in ops):
        return "indices"
    return "non-differentiable"


def _option_cuts(target: Any, names: frozenset[str]) -> dict[str, list[Any]]:
    """Return the option values of an API that make its result through a gradient-less op.

    ``{param: [position, {value: [kind, [op]]}]}`` for each branch ``if param == X:`` of the
    API's body (nested functions included) that returns a generated op with no gradient:
    ``tf.image.resize(..., method="area")`` returns ``ResizeArea``, its other methods ops
    with a gradient. ``X`` is a string constant or a class attribute of the API's module
    (``ResizeMethod.AREA``), keyed by its value and by the attribute's name.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(target)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return {}
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    scope = getattr(target, "__globals__", {})
    out: dict[str, list[Any]] = {}
    for node in ast.walk(fn):
        found = _branch_option(node, params + [a.arg for a in fn.args.kwonlyargs], scope)
        if found is None:
            continue
        param, keys, body = found
        ops = _returned_ops(body, scope, names)
        if not ops or not all(_no_gradient(op) for op in ops):
            continue
        entry = out.setdefault(param, [params.index(param) if param in params else -1, {}])
        for key in keys:
            entry[1][key] = [_kind(ops), sorted(ops)]
    return out


def _branch_option(node: ast.AST, params: list[str], scope: dict[str, Any]
                   ) -> tuple[str, list[str], list[ast.stmt]] | None:
    """Return (param, its option keys, the branch body) of ``if param == X:``, else None."""
    if not isinstance(node, ast.If):
        return None
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq) and isinstance(test.left, ast.Name)
            and test.left.id in params):
        return None
    other = test.comparators[0]
    if isinstance(other, ast.Constant) and isinstance(other.value, str):
        return test.left.id, [other.value], node.body
    if isinstance(other, ast.Attribute) and isinstance(other.value, ast.Name):
        holder = scope.get(other.value.id)
        value = getattr(holder, other.attr, None) if isinstance(holder, type) else None
        if isinstance(value, str):
            return test.left.id, sorted({value, other.attr}), node.body
    return None


def _returned_ops(body: list[ast.stmt], scope: dict[str, Any],
                  names: frozenset[str]) -> frozenset[str]:
    """Return the generated ops a branch returns directly; empty if it returns anything else."""
    ops: set[str] = set()
    flow = api_flow.Flow(scope, names, _no_gradient)
    for stmt in body:
        if not isinstance(stmt, ast.Return):
            continue
        call = stmt.value
        op = flow.generated_op(call.func) if isinstance(call, ast.Call) else None
        if op is None:
            return frozenset()
        ops.add(op)
    return frozenset(ops)


def write(path: Path = CATALOG) -> None:
    """Write the catalog :func:`build` returns to ``path`` (sorted, one entry a line)."""
    data = build()
    lines = ["{"]
    for section_index, (section, entries) in enumerate(data.items()):
        lines.append(f'  "{section}": {{')
        items = list(entries.items())
        for index, (key, value) in enumerate(items):
            comma = "," if index < len(items) - 1 else ""
            lines.append(f"    {json.dumps(key)}: {json.dumps(value)}{comma}")
        lines.append("  }" + ("," if section_index < len(data) - 1 else ""))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _public(module: types.ModuleType, prefix: str, seen: set[int],
            depth: int) -> Iterator[tuple[str, Any]]:
    """Yield (dotted name, function) of the public API under ``module`` (and compat.v1)."""
    if id(module) in seen or depth > 3:
        return
    seen.add(id(module))
    for attr in sorted(dir(module)):
        if attr.startswith("_"):
            continue
        obj = getattr(module, attr, None)
        dotted = f"{prefix}.{attr}"
        if isinstance(obj, types.ModuleType):
            try:
                inner = obj.__name__.startswith("tensorflow._api")
            except AttributeError:  # a lazy loader of another library (Keras)
                continue
            wanted = attr not in _SKIPPED or dotted in ("tensorflow.compat",
                                                        "tensorflow.compat.v1")
            if inner and wanted and (prefix != "tensorflow.compat" or attr == "v1"):
                yield from _public(obj, dotted, seen, depth + 1)
        elif callable(obj) and not isinstance(obj, type) and prefix != "tensorflow.compat":
            yield dotted, obj


def _keras_ops() -> Iterator[tuple[str, Any]]:
    """Yield (dotted name, function) of Keras 3's ``keras.ops`` and its submodules.

    Followed into Keras' TensorFlow backend (``keras.ops.image.hsv_to_rgb`` runs
    ``tf.image.hsv_to_rgb``): the checker's names for them are ``keras.ops.x`` and
    ``keras.ops.image.x`` (:func:`tapemagic.lint.names.normalise`).
    """
    import keras

    for prefix, module in (("keras.ops", keras.ops), *(
            (f"keras.ops.{name}", getattr(keras.ops, name)) for name in ("image", "nn", "linalg",
                                                                       "numpy"))):
        for attr in sorted(dir(module)):
            obj = getattr(module, attr, None)
            if not attr.startswith("_") and callable(obj) and not isinstance(obj, type):
                yield f"{prefix}.{attr}", obj


def _generated(fn: Any) -> bool:
    return (getattr(fn, "__module__", "") or "").rsplit(".", 1)[-1].startswith("gen_")


def _no_gradient(op_type: str) -> bool:
    """Whether no gradient reaches any data input of ``op_type`` (TensorFlow's registry)."""
    if op_type in METADATA_OPS or 0 in GATING_INPUTS.get(op_type, frozenset()):
        return False  # a shape, or indices that only select: not a cut of a value
    return op_type in RETURNS_NONE or registry_entry(op_type) in ("none", "missing") or \
        gradient_probe.always_raises(op_type)  # registered, but it cannot give one


def _cut_ops(target: Any, names: frozenset[str], memo: dict[Any, Any],
             fixed: dict[str, Any] | None = None) -> frozenset[str]:
    """Return the gradient-less ops an API's result depends on its arguments through.

    Empty when some argument reaches the result by another way (or the source cannot be
    read). ``fixed``: option values chosen (``{"output_is_sparse": True}``).
    """
    if _generated(target):
        op = api_lookups.op_type(target, names)
        return frozenset({op}) if op is not None and _no_gradient(op) else frozenset()
    fn = api_flow.parse(target)
    if fn is None:
        return frozenset()
    flow = api_flow.Flow(getattr(target, "__globals__", {}), names, _severs, fixed, memo,
                         registry=_RAISING)
    params = api_flow.parameters(fn) + [a.arg for a in (fn.args.vararg, fn.args.kwarg) if a]
    returned = flow.run(fn.body, {p: frozenset({p}) for p in params})
    severed = api_flow.cuts(returned)
    if not flow.returns or not severed or returned - severed:
        return frozenset()
    return frozenset(op[len(api_flow.CUT):] for op in severed)


def _input_cuts(target: Any, names: frozenset[str], memo: dict[Any, Any]
                ) -> dict[str, list[Any]]:
    """Return the parameters an API cuts the gradient of while differentiating others.

    ``{param: [position, [op]]}`` when the result depends on some parameters, and a
    parameter reaches it, followed alone, only through gradient-less ops among which
    ``StopGradient`` (``tf.compat.v1.nn.softmax_cross_entropy_with_logits`` wraps its
    ``labels`` in ``stop_gradient`` and differentiates ``logits`` only; ``tf.nn.moments``:
    ``shift``), or through inputs of an op whose registered gradient gives them None
    (``op.input`` in the list: ``tf.pad``'s ``constant_values`` reaches only ``PadV2``'s,
    ``tf.one_hot``'s ``on_value`` only ``OneHot``'s). A parameter with a constant default
    is left out, but for a number default (``constant_values=0``) of the latter kind.
    """
    fn = api_flow.parse(target)
    if fn is None or _generated(target):
        return {}
    flow = api_flow.Flow(getattr(target, "__globals__", {}), names, _severs, None, memo,
                         registry=_PARTIAL)
    params = api_flow.parameters(fn)
    returned = flow.run(fn.body, {p: frozenset({p}) for p in params})
    severed = api_flow.cuts(returned)
    kept = returned - severed
    if not flow.returns or not severed or not kept or fn.args.vararg or fn.args.kwarg:
        return {}
    positional = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    defaults = dict(zip(positional[::-1], fn.args.defaults[::-1], strict=False)) | {
        a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True)
        if d is not None}
    out: dict[str, list[Any]] = {}
    for param in params:
        default = defaults.get(param)
        given = default.value if isinstance(default, ast.Constant) else None
        optional = given is not None
        number = isinstance(given, (int, float)) and not isinstance(given, bool)
        if param in kept or param == "name" or (optional and not number):
            continue
        # what this parameter alone reaches: a gradient-less op's mark, or nothing at all
        alone = api_flow.Flow(getattr(target, "__globals__", {}), names, _severs, None, memo,
                              registry=_PARTIAL)
        marks = api_flow.cuts(alone.run(fn.body, {p: frozenset({p}) if p == param else
                                                  frozenset() for p in params}))
        ops = sorted(op[len(api_flow.CUT):] for op in marks)
        if ("StopGradient" in ops and not number) or (ops and all("." in op for op in ops)):
            out[param] = [positional.index(param) if param in positional else -1, ops]
    return out


def _severs(op_type: str) -> bool:
    """Whether ``op_type`` gives outputs no gradient crosses (an ``Assert`` gives none)."""
    return api_ops.has_outputs(op_type) and _no_gradient(op_type)


def _flag_cuts(target: Any, names: frozenset[str], memo: dict[Any, Any]
               ) -> dict[str, list[Any]]:
    """Return the options whose other value makes the API's result gradient-less.

    ``{param: [position, {"True": [kind, [op]]}]}``: ``tf.sparse.reduce_sum(...,
    output_is_sparse=True)`` returns ``SparseReduceSumSparse``'s outputs (no gradient), by
    default ``SparseReduceSum``'s. A list whose length the body tests is keyed ``"len>1"``:
    ``tf.sparse.concat`` of one sparse tensor returns it, of more ``SparseConcat``'s outputs.
    """
    fn = api_flow.parse(target)
    if fn is None:
        return {}
    params = api_flow.parameters(fn)
    positional = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    defaults = dict(zip(positional[::-1], fn.args.defaults[::-1], strict=False)) | {
        a.arg: d for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True)
        if d is not None}
    choices = [(p, {p: not d.value}, str(not d.value)) for p, d in defaults.items()
               if isinstance(d, ast.Constant) and isinstance(d.value, bool)]
    choices += [(n.args[0].id, {f"len:{n.args[0].id}": True}, "len>1") for n in ast.walk(fn)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id == "len" and len(n.args) == 1 and isinstance(n.args[0], ast.Name)
                and n.args[0].id in params]
    out: dict[str, list[Any]] = {}
    for param, fixed, key in choices:
        ops = _cut_ops(target, names, memo, fixed)
        if ops:
            out[param] = [params.index(param) if param in positional else -1,
                          {key: [_kind(ops), sorted(ops)]}]
    return out


def _dtype_position(target: Any) -> int | None:
    """Return the position of a parameter that sets the result's dtype, if the API has one."""
    try:
        params = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        return None
    return next((i for i, p in enumerate(params) if p in _DTYPE_PARAMETERS), None)


if __name__ == "__main__":
    write()
    print(f"wrote {CATALOG}")
