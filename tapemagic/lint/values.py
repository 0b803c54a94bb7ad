"""The abstract values the checker tracks through a program, and the cuts they carry.

TF-free. A :class:`Value` stands for whatever a Python name or expression holds: which weight
*roots* it depends on through ops the tape under analysis records (``live``), which weight
containers it is (``weights``: a model, a layer, a variable, a list of them), and the
:class:`Cut` sites on the way where a dependency on weights was lost. A root names a weight
container by where the source made it (``model``, ``self.dense``, ``@12:4``); ``Roots`` knows
which root contains which (a Sequential model contains its layers).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class Site:
    """A span of the parsed source: 1-based lines, 0-based UTF-8 byte columns (``ast``'s)."""

    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def of(cls, node: ast.AST) -> Site:
        """Return the span of an ``ast`` node."""
        line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        return cls(line, col, getattr(node, "end_lineno", None) or line,
                   getattr(node, "end_col_offset", None) or col)


@dataclass(frozen=True, slots=True)
class Cut:
    """A place where a value stopped depending on weights ``roots`` for the tape.

    ``kind`` is the static cause (``host``, ``numpy-function``, ``non-differentiable``,
    ``integer``, ``stop-gradient``, ``assign``, ``outside``, ``not-watched``, ``control``);
    ``api`` what the user wrote there (``.numpy()``, ``tf.argmax``); ``node`` the expression.
    """

    kind: str
    api: str
    site: Site
    roots: frozenset[str]
    node: ast.AST | None = field(default=None, compare=False, hash=False)
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Value:
    """What the checker knows about one Python value (see the module docstring).

    ``kind`` marks objects with behaviour: ``model`` (calling it runs weights ``weights``),
    ``variable``, ``tape``, ``function`` / ``class`` (with ``node`` and defining ``env``),
    ``instance`` (of a user class ``node``), ``topk`` (a ``top_k`` result), ``layers`` (the
    layer values of a Sequential, in ``items``).
    """

    live: frozenset[str] = frozenset()
    weights: frozenset[str] = frozenset()
    cuts: frozenset[Cut] = frozenset()
    kind: str | None = None
    #: Roots the value would depend on if the cuts it carries were fixed (the next cut is
    #: found on this path: ``tf.equal`` after ``tf.round``).
    ghost: frozenset[str] = frozenset()
    node: ast.AST | None = field(default=None, compare=False)
    env: Env | None = field(default=None, compare=False, hash=False)
    items: tuple[Value, ...] = ()
    text: str = ""  # a constant string (dtype names), else ""
    #: The string keys of a dict literal, one per item (``out["loss"]`` picks its item).
    keys: tuple[str, ...] = ()


EMPTY = Value()
#: ``text`` of an unknown value: a name this source never binds (``?``), read as weights when
#: used in an op; a method's parameter nothing resolves (``?param``), read only when called.
UNKNOWN = "?"
UNKNOWN_PARAMETER = "?param"


def holds_variables(value: Value) -> bool:
    """Whether ``value`` holds only weights: a variable, a weight list, or a list/dict of them.

    ``{v.path: v for v in model.trainable_variables}`` is one (a comprehension over weights
    gives the variable itself); ``w - lr * g`` is a plain tensor, and so is an unknown value.
    """
    if value.kind == "variable":
        return True
    return value.kind == "seq" and bool(value.items) and all(holds_variables(i)
                                                            for i in value.items)


def join(*values: Value) -> Value:
    """Return a plain value that depends on everything ``values`` depend on."""
    live: set[str] = set()
    cuts: set[Cut] = set()
    ghost: set[str] = set()
    for v in values:
        live |= v.live
        cuts |= v.cuts
        ghost |= v.ghost
    return Value(frozenset(live), frozenset(), frozenset(cuts), ghost=frozenset(ghost))


def merge(a: Value | None, b: Value) -> Value:
    """Return ``a`` or ``b`` (two branches): liveness, weights and cuts of both, a's behaviour."""
    if a is None or a is b:
        return b
    first = a if a.kind is not None else b
    return replace(first, live=a.live | b.live, weights=a.weights | b.weights,
                   cuts=a.cuts | b.cuts, ghost=a.ghost | b.ghost)


class Env:
    """One scope's bindings (name → :class:`Value`), falling back to the enclosing scope."""

    def __init__(self, parent: Env | None = None) -> None:
        self.vars: dict[str, Value] = {}
        self.parent = parent

    def get(self, name: str) -> Value | None:
        """Return the value bound to ``name`` here or in an enclosing scope, else None."""
        env: Env | None = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        return None

    def copy(self) -> Env:
        """Return a shallow copy of this scope (same parent), for a branch."""
        out = Env(self.parent)
        out.vars = dict(self.vars)
        return out

    def absorb(self, other: Env) -> None:
        """Merge the bindings of a branch ``other`` into this scope."""
        for name, value in other.vars.items():
            self.vars[name] = merge(self.vars.get(name), value)


class Roots:
    """Which weight root contains which (a model its layers, ``self`` its ``self.x``)."""

    def __init__(self) -> None:
        self.children: dict[str, set[str]] = {}
        # parts picked by a name the checker cannot resolve (`model.get_layer("head")`): their
        # parents, since any reached part of the parent may be the one picked
        self.unnamed: dict[str, set[str]] = {}

    def add(self, parent: str, child: str, unnamed: bool = False) -> None:
        """Record that ``parent``'s weights include ``child``'s (``unnamed``: which is unknown)."""
        if parent != child:
            self.children.setdefault(parent, set()).add(child)
            if unnamed:
                self.unnamed.setdefault(child, set()).add(parent)

    def expand(self, roots: frozenset[str]) -> frozenset[str]:
        """Return ``roots`` and every root they contain, transitively."""
        out, pending = set(roots), list(roots)
        while pending:
            for child in self.children.get(pending.pop(), ()):
                if child not in out:
                    out.add(child)
                    pending.append(child)
        return frozenset(out)

    def covered(self, root: str, live: frozenset[str]) -> bool:
        """Whether ``live`` still reaches ``root``: it holds it, an ancestor or a descendant.

        A descendant counts so that a model whose layers are partly still reached is not called
        severed (precision first: such a partial cut is left to the run).
        """
        if root in live or self.expand(frozenset({root})) & live:
            return True
        for part, parents in self.unnamed.items():  # root is, or is in, a part picked by name
            if (part == root or root in self.expand(frozenset({part}))) and any(
                    self.expand(frozenset({p})) & live for p in parents):
                return True  # from a model that is partly reached: it may be the reached part
        return any(root in self.expand(frozenset({r})) or root.startswith(r + ".")
                   or r.startswith(root + ".") for r in live)

    def overlap(self, a: frozenset[str], b: frozenset[str]) -> bool:
        """Whether weights ``a`` and ``b`` share a root (one may contain the other)."""
        return any(self.covered(x, b) or self.covered(y, a) for x in a for y in b) or bool(a & b)

    def severed(self, cut: Cut, live: frozenset[str]) -> frozenset[str]:
        """Return the roots of ``cut`` that ``live`` no longer reaches."""
        return frozenset(r for r in cut.roots if not self.covered(r, live))
