"""What a few APIs do beyond joining their operands, and what tracing a step changes.

TF-free. :class:`Effects` refines the library calls of :mod:`tapemagic.lint.members`:

- ``tf.Variable(value)`` made while the tape records, from a value computed from the weights:
  the variable's initial value is written by an assignment (``AssignVariableOp``), which the
  tape does not differentiate, so what reads the new variable has lost those weights (TM402);
- ``tf.sign``: its registered gradient is zeros everywhere (``_SignGrad``), so the weights
  behind it get exact zeros, not None (a ``zero`` cut, TM501);
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

from tapemagic.lint import names, patterns
from tapemagic.lint.members import Members
from tapemagic.lint.values import Cut, Env, Site, Value

#: ``text`` of a Python number read from state the source changes later, 0 at first.
FROZEN_ZERO = "frozen-zero"


class Effects(Members):
    """Variables made from values, zero-gradient ops and traced steps (module docstring)."""

    def __init__(self, tree: ast.Module, imports: names.Imports | None = None) -> None:
        super().__init__(tree, imports)
        #: Whether the code interpreted now runs traced (its Python body once, at trace)
        self.traced = False
        #: The source forces eager mode (``tf.config.run_functions_eagerly(True)``)
        self.eager = patterns.runs_eagerly(tree, self.imports)
        self.frozen_keys = frozen_numbers(tree)

    def library(self, node: ast.Call, dotted: str, args: list[Value],
                kwargs: dict[str, Value], api: str | None = None) -> Value:
        """Return the value of a library call (:meth:`Members.library`), refined here."""
        if dotted in names.ZERO_GRADIENT:
            return self.cut(node, "zero", api or ast.unparse(node.func),
                            [self.operand(a, node) for a in args[:1]])
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

    # -- traced steps -------------------------------------------------------------------------
    def frozen(self, key: str, value: Value) -> Value:
        """Return a number read from an attribute or global (``key``), marked if frozen.

        Marked when it holds a host number (no weight, no tensor path) and the source binds
        it to a literal 0 first and to something else later (:func:`frozen_numbers`).
        """
        if key not in self.frozen_keys or value.kind is not None or value.live or \
                value.cuts or any(not r.startswith("t:") for r in value.weights | value.ghost):
            return value
        return Value(text=FROZEN_ZERO)

    def product(self, node: ast.BinOp, left: Value, right: Value) -> Value | None:
        """Return ``a * b`` when, traced, one factor is a frozen Python 0 (else None)."""
        if not self.traced or not isinstance(node.op, ast.Mult):
            return None
        for factor, other in ((left, right), (right, left)):
            if factor.text == FROZEN_ZERO:
                return self.cut(node, "frozen-zero", ast.unparse(node), [other])
        return None

    def global_read(self, node: ast.Name, env: Env, value: Value) -> Value:
        """Return a name's value, marked when it is a module global frozen when traced."""
        holder: Env | None = env
        while holder is not None and node.id not in holder.vars:
            holder = holder.parent
        return self.frozen(node.id, value) if holder is self.module_env else value


def frozen_numbers(tree: ast.Module) -> frozenset[str]:
    """Return the globals (``name``) and attributes (``.name``) first bound to a literal 0.

    Only those that the source binds again later (an epoch loop's ``trainer.beta = epoch /
    4``, a callback's ``self.model.kl_weight = ...``, ``beta += 0.1``): a number that never
    changes is the code's intent, not a value frozen by tracing. Attributes count by name
    (any object's); globals are the module's own assignments and those declared ``global``.
    """
    writes: dict[str, list[tuple[int, ast.expr | None]]] = {}
    for key, line, value in _writes(tree):
        writes.setdefault(key, []).append((line, value))
    out = set()
    for key, found in writes.items():
        found.sort(key=lambda w: w[0])
        if len(found) > 1 and _zero(found[0][1]) and any(not _zero(v) for _, v in found[1:]):
            out.add(key)
    return frozenset(out)


def _writes(tree: ast.Module) -> list[tuple[str, int, ast.expr | None]]:
    """Return (key, line, value; None for ``+=``) of the bindings :func:`frozen_numbers` reads."""
    out: list[tuple[str, int, ast.expr | None]] = []
    declared = {n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names}
    pending: list[tuple[ast.AST, bool]] = [(tree, True)]  # (node, in the module's own scope)
    while pending:
        node, top = pending.pop()
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            if isinstance(child, ast.ClassDef):
                out += [("." + t.id, s.lineno, s.value) for s in child.body
                        if isinstance(s, ast.Assign) for t in s.targets
                        if isinstance(t, ast.Name)]  # class attributes
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(child, ast.Assign):
                targets, value = child.targets, child.value
            elif isinstance(child, ast.AugAssign):
                targets = [child.target]
            line = getattr(child, "lineno", 0)
            for target in targets:
                if isinstance(target, ast.Attribute):
                    out.append(("." + target.attr, line, value))
                elif isinstance(target, ast.Name) and (top or target.id in declared):
                    out.append((target.id, line, value))
            pending.append((child, inner and not isinstance(child, ast.ClassDef)))
    return out


def _zero(node: ast.expr | None) -> bool:
    """Whether ``node`` is a literal number equal to 0 (``0``, ``0.0``, ``-0.0``)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and \
        node.value == 0

