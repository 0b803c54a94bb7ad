"""Building blocks for the rules' static matchers (their ``lint`` hooks).

TF-free. :func:`cut_matches` turns the counted cuts of one kind into :class:`LintMatch` objects
for a rule; :func:`edit` runs one of the LibCST transforms of :mod:`tapemagic.fixes` on a
one-line expression of the source and returns its quick-fix edit (None when the code does not
have the expected shape, so a fix is never a guess).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from tapemagic import fixes
from tapemagic._lazy import lazy_import
from tapemagic.fixes import Transform
from tapemagic.lint.context import Counted, LintContext, LintMatch
from tapemagic.lint.values import Site
from tapemagic.report.model import Edit

if TYPE_CHECKING:
    import libcst as cst
else:  # LibCST loads when the first quick-fix edit is computed
    cst = lazy_import("libcst")

Params = Callable[[Counted], dict[str, str]]


def api_param(found: Counted) -> dict[str, str]:
    """Return ``{"api": ...}``: what the user wrote at the cut."""
    return {"api": found.cut.api}


def cut_matches(ctx: LintContext, code: str, kind: str, params: Params = api_param,
                transform: Transform | None = None,
                select: Callable[[Counted], bool] | None = None) -> Iterator[LintMatch]:
    """Yield one match per counted cut of ``kind`` (each place once), with its quick edit.

    ``select`` keeps only some of them (a rule that points elsewhere for the others).
    """
    seen: set[Site] = set()
    for found in ctx.cuts(kind):
        if select is not None and not select(found):
            continue
        if found.cut.site in seen:
            continue
        seen.add(found.cut.site)
        node = found.cut.node
        edits: tuple[Edit, ...] = ()
        if transform is not None and node is not None:
            made = edit(ctx, node, transform)
            edits = (made,) if made is not None else ()
        yield LintMatch(code, found.cut.site, params(found), edits)


def edit(ctx: LintContext, node: ast.AST, transform: Transform) -> Edit | None:
    """Return the edit replacing the one-line expression ``node`` by ``transform``'s result."""
    site = Site.of(node)
    if site.line != site.end_line:
        return None
    text = ctx.text(node)
    try:
        parsed = cst.parse_expression(text)
    except cst.ParserSyntaxError:
        return None
    new = transform(parsed)
    if new is None or cst.Module([]).code_for_node(new) == text:
        return None
    # in parentheses where the code around it would bind its parts otherwise
    code = fixes.precedence.fitted(new, "\n".join(ctx.lines) + "\n", site.line, site.col,
                                   site.end_col)
    return Edit(site.line, site.col, site.line, site.end_col, code)


def no_params(found: Counted) -> dict[str, str]:
    """Return no parameters (the rule's hint template has none)."""
    return {}


def copied_variables(ctx: LintContext, code: str) -> Iterator[LintMatch]:
    """Yield a match per variable copied into a constant (``tf.constant(temperature)``).

    The ``copied`` cuts of :mod:`tapemagic.lint.effects`, with the hint's ``detail`` and
    ``source`` (the variable as written).
    """
    for found in cut_matches(ctx, code, "copied"):
        node = next((c.cut.node for c in ctx.cuts("copied") if c.cut.site == found.site), None)
        if not isinstance(node, ast.Call) or not node.args:
            continue
        yield LintMatch(code, found.site, {
            "detail": f"`{ctx.text(node)}` copies the variable's current value into a new "
                      "constant, a value the tape never saw read",
            "source": ctx.text(node.args[0])})
