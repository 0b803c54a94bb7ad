"""Loss terms computed in the tape from the weights asked for and left out of the target.

TF-free. A value bound to a name inside the tape's block depends, through recorded ops, on
weights the gradient call asks for and the target does not reach at all, and nothing in the
block reads it afterwards: a term computed for the loss and never added (an actor-critic's
value loss left out of the total). The line to change is where the target is made. Left
alone: a value another gradient call takes as its target (one loss per tape), one the block
reads later (accumulated, or stacked into the loss), a statement that is itself a forward pass
(an output that dangles is the other-pass story), and calls whose sources are unknown. When
the target is also another gradient call's target (a generator's tape given the discriminator's
loss), the term may be the loss this call meant: the line to change is the call (``shared``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from tapemagic.lint.interp import GradientCall, Interpreter


@dataclass(frozen=True)
class Dropped:
    """A term ``name`` (bound at ``stmt``) that reaches weights ``roots`` the target does not."""

    call: GradientCall
    name: str
    stmt: ast.Assign
    target: ast.Assign
    roots: frozenset[str]
    #: the target is also another gradient call's: the term may be the one this call meant
    shared: bool = False


def dropped_terms(tree: ast.Module, calls: list[tuple[GradientCall, Interpreter]]
                  ) -> Iterator[Dropped]:
    """Yield each term left out of a gradient call's target (see the module docstring)."""
    named = _gradient_target_names(tree)
    targets = set(named)
    for call, run in calls:
        block = run.focus
        if block is None or not call.sources or not isinstance(call.node, ast.Call) \
                or not call.node.args or not isinstance(call.node.args[0], ast.Name):
            continue
        name = call.node.args[0].id
        made = _last_binding(block, name)
        if made is None:
            continue
        sources = run.roots.expand(call.sources)
        inside = {id(n) for n in ast.walk(block)}
        for stmt, value in run.tape_bindings:
            if id(stmt) not in inside:
                continue  # a helper's local the tape ran: not a term of this block
            if any(g.startswith(f"t:call@{stmt.lineno}:") for g in value.ghost):
                continue  # a forward pass whose output dangles: TM104's other-pass story
            term = _single_name(stmt)
            if term is None or term == name or term in targets or _read_after(block, stmt, term):
                continue
            roots = frozenset(r for r in value.live if not r.startswith(("t:", "?"))
                              and r in sources and not run.roots.covered(r, call.target.live))
            if roots:
                yield Dropped(call, term, stmt, made, roots, named.count(name) > 1)


def _gradient_target_names(tree: ast.Module) -> list[str]:
    """Return the name each ``.gradient(target, ...)`` call of the source takes as target."""
    return [node.args[0].id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("gradient", "jacobian") and node.args
            and isinstance(node.args[0], ast.Name)]


def _single_name(stmt: ast.Assign) -> str | None:
    if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def _last_binding(block: ast.AST, name: str) -> ast.Assign | None:
    found = [n for n in ast.walk(block) if isinstance(n, ast.Assign) and _single_name(n) == name]
    return max(found, key=lambda n: n.lineno) if found else None


def _read_after(block: ast.AST, stmt: ast.Assign, name: str) -> bool:
    """Whether ``name`` is read in ``block`` after ``stmt`` (or inside a loop holding both)."""
    end = stmt.end_lineno or stmt.lineno
    loops = [n for n in ast.walk(block) if isinstance(n, (ast.For, ast.While))
             and n.lineno <= stmt.lineno <= (n.end_lineno or n.lineno)]
    for node in ast.walk(block):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            if node.lineno > end or any(
                    loop.lineno <= node.lineno <= (loop.end_lineno or loop.lineno)
                    for loop in loops):
                return True
    return False


def unadded_losses(calls: list[tuple[GradientCall, Interpreter]]
                   ) -> Iterator[tuple[GradientCall, ast.Assign, frozenset[str]]]:
    """Yield each tape's target that leaves out what the layers it ran added with add_loss.

    Keras collects a layer's ``self.add_loss(...)`` in the model's ``losses``; its own train
    step (``compute_loss``) adds them, a train step written by hand must add ``self.losses``
    itself. Weights the gradient call asks for that only such a loss reaches get none: the
    line to change is where the target is made.
    """
    for call, run in calls:
        block = run.focus
        if block is None or not call.sources or not isinstance(call.node, ast.Call) \
                or not call.node.args or not isinstance(call.node.args[0], ast.Name):
            continue
        made = _last_binding(block, call.node.args[0].id)
        if made is None:
            continue
        sources = run.roots.expand(call.sources)
        lost = frozenset(r for state, value in run.added_losses.values() if state is True
                         for r in value.live if not r.startswith(("t:", "?"))
                         and r in sources and not run.roots.covered(r, call.target.live))
        if lost:
            yield call, made, lost
