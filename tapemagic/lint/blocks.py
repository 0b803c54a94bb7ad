"""The building blocks of the abstract interpreter: its state, ops, cuts and weight reads.

TF-free. :class:`Blocks` holds what one interpretation knows besides the bindings (is the tape
in focus recording, which weights it watches, what was assigned into which variable, which
root contains which) and the few operations every API is made of: a differentiable op, a cut,
a read of weights, an element of a list. :mod:`tapemagic.lint.members` (APIs and Keras
objects), :mod:`tapemagic.lint.calls` (expressions) and :mod:`tapemagic.lint.interp`
(statements) build on it.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from tapemagic.lint import names
from tapemagic.lint.values import EMPTY, UNKNOWN, Cut, Env, Roots, Site, Value, join

#: Cut kinds also looked for behind an earlier cut (NumPy after `.numpy()` is the same cut).
_NEXT_CUTS = frozenset({"non-differentiable", "integer", "numpy-function", "stop-gradient"})


class Blocks:
    """State and building blocks shared by the interpreter's halves."""

    def __init__(self, tree: ast.Module, imports: names.Imports | None = None) -> None:
        self.tree = tree
        self.imports = imports if imports is not None else names.Imports(tree)
        self.roots = Roots()
        self.module_env = Env()
        self.recording = False
        self.focus: ast.With | ast.Assign | None = None
        #: The focus is a tape made (``tape = tf.GradientTape()``) and never entered: it
        #: records nothing, so the line to change for every op the step runs is where it was
        #: made (a ``with`` block goes there), not each op's
        self.unentered: ast.expr | None = None
        self.call_stack: list[str] = []
        self.active: set[ast.AST] = set()  # the user's functions being interpreted now
        self.failed_watches: list[Cut] = []
        self.guarded = 0  # inside a `try` whose handler watches instead (interp.py)
        self.failed_roots: set[str] = set()
        #: Model calls seen while a focus exists: marker root -> (call, model's weights).
        self.model_calls: dict[str, tuple[ast.Call, frozenset[str]]] = {}
        #: Tensors computed in the tape from weights and passed as gradient sources: their
        #: identity root -> (the weights they were computed from, the expression, the
        #: markers of the model calls it came from).
        self.computed: dict[str, tuple[frozenset[str], ast.expr, frozenset[str]]] = {}
        #: ``tape.watch(ids)`` of integer tensors on the focus (token ids for a saliency map).
        self.integer_watches: list[Cut] = []
        #: Where each tensor root (``t:...``, a name bound to a tensor) was made / watched.
        self.made: dict[str, Site] = {}
        self.built: set[str] = set()  # models whose weights exist (called, built, shaped)
        #: Variables made with ``trainable=False`` (a tape never watches them by itself)
        self.untrainable: set[str] = set()
        #: Models set ``trainable = False`` (and not back) where the interpretation is now
        self.frozen_models: set[str] = set()
        self.frozen_sites: dict[str, Site] = {}  # ... and where each was frozen
        #: Models whose own Keras train step was traced (a first fit / train_on_batch), and
        #: those traced while frozen, with where they were frozen
        self.stepped: set[str] = set()
        self.frozen_steps: dict[str, Site] = {}
        self.watch_sites: dict[str, Site] = {}
        self.depth = 0
        self.in_focus = False
        #: The ``tape.stop_recording()`` block the focus is paused in: the line to change for
        #: what runs there unrecorded is that block's, not each op's
        self.paused: ast.expr | None = None
        self.watched: set[str] = set()
        self.focus_watches = True
        self.focus_call: ast.expr | None = None
        self.assigned: dict[str, frozenset[Cut]] = {}
        #: Weights written off every tape (``set_weights``, ``assign``): copies, never trained
        self.copied: set[str] = set()
        self.compiles: list[tuple[Value, Value, ast.Call]] = []
        #: Roots of weights made with ``add_weight(..., trainable=False)`` (bucket edges, an
        #: accumulator): no gradient is asked of them, so a cut of only these cuts nothing
        self.untrained: set[str] = set()
        #: What ``layer.add_loss(...)`` added, by the layer's root, with the state it was
        #: added in (recording, not, symbolic): ``model.losses`` reads it back.
        self.added_losses: dict[str, tuple[object, Value]] = {}

    # -- the other halves provide these -----------------------------------------------------------
    def run_function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, env: Env,
                     args: list[Value], kwargs: dict[str, Value]) -> Value:
        """Interpret a call of a user function (the statement half implements it)."""
        raise NotImplementedError

    def bind(self, target: ast.expr, value: Value, env: Env, source: bool = True) -> None:
        """Bind an assignment target (the statement half implements it)."""
        raise NotImplementedError

    def record(self, node: ast.AST, target: Value, sources: Value,
               sources_node: ast.expr | None) -> None:
        """Keep a gradient call (the statement half implements it)."""
        raise NotImplementedError

    def expr(self, node: ast.expr | None, env: Env) -> Value:
        """Evaluate an expression (:mod:`tapemagic.lint.calls` implements it)."""
        raise NotImplementedError

    def call_value(self, node: ast.Call, callee: Value, args: list[Value],
                   kwargs: dict[str, Value]) -> Value:
        """Call an abstract value (:mod:`tapemagic.lint.calls` implements it)."""
        raise NotImplementedError

    def fresh(self, node: ast.AST) -> str:
        """Return the root of a weight container made at ``node`` in the current call chain.

        ``def q_net(): return Sequential(...)`` called twice makes two models: the position of
        each call in the chain tells them apart, deterministically.
        """
        here = f"@{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0)}"
        return here + "".join(f"<{site}" for site in reversed(self.call_stack))

    # -- building blocks --------------------------------------------------------------------------
    def op(self, node: ast.AST, api: str, parts: list[Value]) -> Value:
        """Return a differentiable op's value on ``parts`` (an ``outside`` cut off the tape)."""
        symbolic = any(map(_symbolic, parts))
        value = join(*parts)
        if symbolic:
            return replace(value, kind="symbolic")
        if not self.recording and value.live:
            cut = Cut("outside", api, self.outside_site(node), value.live, node)
            return Value(cuts=value.cuts | {cut}, ghost=value.ghost | value.live)
        return value

    def outside_site(self, node: ast.AST) -> Site:
        """Return where an op run off the tape at ``node`` is to be changed.

        Inside the focus's ``stop_recording()`` block that is the block (it wraps more than
        it should: the forward pass with a metric); for a tape never entered, the line that
        made it; else the op's own line.
        """
        if self.paused is not None:
            return Site.of(self.paused)
        return Site.of(self.unentered if self.unentered is not None else node)

    def cut(self, node: ast.AST, kind: str, api: str, parts: list[Value]) -> Value:
        """Return the value of a cut API on ``parts``: not live, carrying the cut if it was."""
        value = join(*parts)
        if any(c.detail == "raises" for c in value.cuts):
            # an op with no gradient at all behind this cut: no gradient reaches it this way
            # (`x + stop_gradient(jpeg(x) - x)`), so it raises nothing through this path
            value = replace(value, cuts=frozenset(
                replace(c, detail="raises-after") if c.detail == "raises" else c
                for c in value.cuts))
        symbolic = any(map(_symbolic, parts))
        ghost = value.ghost | value.live
        if value.live:
            found = Cut(kind, api, Site.of(node), value.live, node)
        elif weight_roots(value.ghost) and kind in _NEXT_CUTS and not integer_parts(parts):
            # met once an earlier cut is fixed; not on values already integer (a cast of
            # decoded labels, an edit distance between them): that cut was the earlier one
            found = Cut(kind, api, Site.of(node), weight_roots(value.ghost), node, "secondary")
        else:
            return replace(value, kind="symbolic") if symbolic else value
        return Value(cuts=value.cuts | {found}, kind="symbolic" if symbolic else None,
                     ghost=ghost)

    def zeroed(self, made: ast.AST, parts: list[Value]) -> Value:
        """Return what a dropout layer made at ``made`` with rate 1.0 gives in training.

        Keras 3's TensorFlow backend returns ``tf.zeros_like(inputs)`` (random.py
        ``dropout``): no gradient reaches what came before (a ``discarded`` cut, TM104).
        """
        value = self.cut(made, "discarded", api_of(made), parts)
        return replace(value, cuts=frozenset(
            replace(c, detail="A dropout rate of 1.0 drops every unit: in training Keras "
                              "returns zeros in place of the input") if c.node is made else c
            for c in value.cuts))

    def read(self, roots: frozenset[str], node: ast.AST, symbolic: bool = False) -> Value:
        """Return what reading weights ``roots`` at ``node`` gives (live only while recording)."""
        if not roots:
            return EMPTY
        assigned = self.assigned_for(roots)
        if symbolic:
            return Value(live=roots, cuts=assigned, kind="symbolic")
        if not self.recording:
            return Value(cuts=assigned | {Cut("outside", api_of(node), self.outside_site(node),
                                              roots, node)},
                         ghost=roots)
        if self.in_focus and not self.focus_watches and self.focus_call is not None:
            # The value stays live (the path exists and a watch would record it); the cut
            # counts when the loss reaches these weights and the gradient asks for them.
            watched = self.roots.expand(frozenset(self.watched))
            failed = self.roots.expand(frozenset(self.failed_roots))
            unwatched = frozenset(r for r in roots if not self.roots.covered(r, watched)
                                  and not self.roots.covered(r, failed))  # TM108's story
            if unwatched:
                missing = Cut("not-watched", "watch_accessed_variables=False",
                              Site.of(self.focus_call), unwatched, self.focus_call)
                return Value(live=roots, cuts=assigned | {missing})
        return Value(live=roots, cuts=assigned)

    def assigned_for(self, roots: frozenset[str]) -> frozenset[Cut]:
        """Return the cuts of every value written (``assign``) into weights ``roots``."""
        out: set[Cut] = set()
        for root, cuts in self.assigned.items():
            if self.roots.overlap(frozenset({root}), self.roots.expand(roots)):
                out |= cuts
        return frozenset(out)

    def operand(self, value: Value, node: ast.AST) -> Value:
        """Return ``value`` as an op input: a variable (or weight list) is read there.

        So is a name this source never binds (another cell's variable), but not an unknown
        parameter of a method (``UNKNOWN_PARAMETER``: in arithmetic, a number far likelier).
        """
        if value.kind == "variable" or (value.kind == "model" and value.text == UNKNOWN):
            return join(self.read(value.weights, node), Value(cuts=value.cuts))
        return value

    def sequence(self, items: list[Value]) -> Value:
        """Return a list/tuple value holding ``items``."""
        joined = join(*items)
        return Value(live=joined.live, cuts=joined.cuts, kind="seq", items=tuple(items),
                     ghost=joined.ghost,
                     weights=frozenset().union(*(i.weights for i in items)) if items else
                     frozenset())

    def element(self, value: Value) -> Value:
        """Return what iterating over ``value`` yields."""
        if value.kind == "zip":
            return self.sequence([self.element(v) for v in value.items])
        if value.kind == "dataset":  # a tf.data pipeline: one element per step
            return value.items[0] if value.items else EMPTY
        if value.kind == "variable":
            return replace(value, items=())
        if value.kind == "layers" and not value.items:  # `for layer in self.layers` of a class
            return replace(value, kind="model")
        if value.items:
            out = value.items[0]
            for item in value.items[1:]:
                out = replace(out, live=out.live | item.live, cuts=out.cuts | item.cuts,
                              weights=out.weights | item.weights)
            return out
        return replace(value, kind=None, items=())

    def item(self, value: Value, index: int, node: ast.AST) -> Value:
        """Return element ``index`` of ``value`` (a top_k result's element 1 is its indices)."""
        if value.kind == "topk" and index == 1:  # the cut is where top_k made the indices
            made = value.node if value.node is not None else node
            return self.cut(made, "integer", api_of(getattr(made, "func", made)),
                            [replace(value, kind=None)])
        if value.kind == "topk":
            return replace(value, kind=None)
        if value.items and index < len(value.items):
            return value.items[index]
        return value



def integer_parts(parts: list[Value]) -> bool:
    """Whether every part that an earlier cut took weights from is an integer tensor."""
    carriers = [p for p in parts if weight_roots(p.ghost)]
    return bool(carriers) and all(p.text == "int" for p in carriers)


def weight_roots(roots: frozenset[str]) -> frozenset[str]:
    """Return the roots of weights in ``roots`` (without the ``t:`` roots of plain tensors)."""
    return frozenset(r for r in roots if not r.startswith("t:"))


def api_of(node: ast.AST) -> str:
    """Return a short text for what the user wrote at ``node`` (at most 60 characters)."""
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _symbolic(value: Value) -> bool:
    """Say whether ``value`` is a Keras symbolic tensor or a list of them (concatenate)."""
    return value.kind == "symbolic" or (value.kind == "seq" and any(map(_symbolic, value.items)))
