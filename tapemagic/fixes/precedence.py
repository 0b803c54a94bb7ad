"""Operator precedence of LibCST expressions: replacement nodes built and placed with it.

TF-free. A quick fix replaces one expression of the user's code by a new one. Written as text
into its place, the new expression can bind differently: ``tf.round(x) / 2`` with the call
replaced by ``x + tf.stop_gradient(tf.round(x) - x)`` reads as ``x + (... / 2)``. So every
replacement is built from LibCST nodes with the builders below (each operand parenthesised
where its precedence is below what its slot needs), and :func:`fitted` parenthesises the
whole where the slot it goes into needs it (Python's grammar, as in the language reference's
precedence table). :func:`fitted` also checks the result with Python's own parser: the edited
source must parse to the same tree as the source with the replacement in parentheses;
otherwise the parenthesised text is used.
"""

from __future__ import annotations

import ast
import functools

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

#: The level of an atom, call, subscript or attribute (and of anything in parentheses).
ATOM = 16
#: A primary (``x.a``, ``x[i]``, ``f(x)``): what ``.``, ``[``, ``(`` and ``await`` take.
PRIMARY = 15
_ANYTHING = -1
_POWER = 13
_UNARY = 12
_AWAIT = 14
_BINARY: dict[type[cst.CSTNode], int] = {
    cst.BitOr: 6, cst.BitXor: 7, cst.BitAnd: 8, cst.LeftShift: 9, cst.RightShift: 9,
    cst.Add: 10, cst.Subtract: 10, cst.Multiply: 11, cst.Divide: 11, cst.FloorDivide: 11,
    cst.Modulo: 11, cst.MatrixMultiply: 11, cst.Power: _POWER}
_NO_SPACE = cst.SimpleWhitespace("")


def level(node: cst.BaseExpression) -> int:
    """Return how tightly ``node`` binds (higher binds tighter).

    -1: only where any expression list may stand (a bare tuple, a walrus without parentheses).
    """
    if getattr(node, "lpar", None):
        return ATOM
    if isinstance(node, (cst.Tuple, cst.NamedExpr, cst.Yield)):
        return _ANYTHING
    if isinstance(node, cst.Lambda):
        return 0
    if isinstance(node, cst.IfExp):
        return 1
    if isinstance(node, cst.BooleanOperation):
        return 2 if isinstance(node.operator, cst.Or) else 3
    if isinstance(node, cst.UnaryOperation):
        return 4 if isinstance(node.operator, cst.Not) else _UNARY
    if isinstance(node, cst.Comparison):
        return 5
    if isinstance(node, cst.BinaryOperation):
        return _BINARY[type(node.operator)]
    if isinstance(node, cst.Await):
        return _AWAIT
    return ATOM


def required(parent: cst.CSTNode, child: cst.CSTNode) -> int:
    """Return the lowest :func:`level` ``child`` may have in its slot of ``parent``."""
    if isinstance(parent, cst.BinaryOperation):
        op = _BINARY[type(parent.operator)]
        if op == _POWER:  # right-associative; `2 ** -x` is fine, `(-x) ** 2` is not
            return _UNARY if child is parent.right else _AWAIT
        return op if child is parent.left else op + 1
    if isinstance(parent, cst.BooleanOperation):  # `(a and b) and c`: kept as one operand
        return 3 if isinstance(parent.operator, cst.Or) else 4
    if isinstance(parent, cst.UnaryOperation):
        return 4 if isinstance(parent.operator, cst.Not) else _UNARY
    if isinstance(parent, (cst.Comparison, cst.ComparisonTarget)):
        return 6
    if isinstance(parent, cst.IfExp):
        return 0 if child is parent.orelse else 2
    if isinstance(parent, (cst.Lambda, cst.Arg, cst.BaseElement, cst.BaseDictElement,
                           cst.Index, cst.ListComp, cst.SetComp, cst.GeneratorExp,
                           cst.DictComp, cst.Return, cst.Slice)):
        return 0
    if isinstance(parent, (cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Expr)):
        return _ANYTHING
    if isinstance(parent, (cst.CompFor, cst.CompIf)):
        return 2
    # `.`, `[`, `(` and `await` take a primary; anything unknown gets parentheses
    return PRIMARY if isinstance(parent, (cst.Attribute, cst.Subscript, cst.Call,
                                          cst.Await)) else ATOM


def parenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    """Return ``node`` in one more pair of parentheses."""
    return node.with_changes(lpar=[cst.LeftParen(), *node.lpar],
                             rpar=[*node.rpar, cst.RightParen()])


def wrap(node: cst.BaseExpression, need: int) -> cst.BaseExpression:
    """Return ``node``, parenthesised when it binds less tightly than ``need``."""
    return node if level(node) >= need else parenthesized(node)


# -- builders: each operand parenthesised as its slot needs -------------------------------------
def name(dotted: str) -> cst.BaseExpression:
    """``"tf.nn.softmax"`` → its Name/Attribute chain."""
    head, *rest = dotted.split(".")
    node: cst.BaseExpression = cst.Name(head)
    for part in rest:
        node = cst.Attribute(node, cst.Name(part))
    return node


def binop(left: cst.BaseExpression, operator: cst.BaseBinaryOp,
          right: cst.BaseExpression) -> cst.BinaryOperation:
    """``left OP right``, each side in parentheses where precedence needs them."""
    shell = cst.BinaryOperation(left, operator, right)
    return shell.with_changes(left=wrap(left, required(shell, left)),
                              right=wrap(right, required(shell, right)))


def attr(value: cst.BaseExpression, attribute: str) -> cst.Attribute:
    """``value.attribute``."""
    return cst.Attribute(wrap(value, PRIMARY), cst.Name(attribute))


def subscript(value: cst.BaseExpression, index: cst.BaseExpression) -> cst.Subscript:
    """``value[index]``."""
    return cst.Subscript(wrap(value, PRIMARY), [cst.SubscriptElement(cst.Index(index))])


def call(func: str | cst.BaseExpression, *args: cst.BaseExpression,
         **keywords: cst.BaseExpression) -> cst.Call:
    """``func(arg, ..., key=value, ...)`` (a bare tuple argument is parenthesised)."""
    made = [cst.Arg(wrap(a, 0)) for a in args]
    made += [cst.Arg(wrap(v, 0), keyword=cst.Name(k),
                     equal=cst.AssignEqual(whitespace_before=_NO_SPACE,
                                           whitespace_after=_NO_SPACE))
             for k, v in keywords.items()]
    return cst.Call(name(func) if isinstance(func, str) else wrap(func, PRIMARY), made)


def code(node: cst.CSTNode) -> str:
    """Return the source text of ``node``."""
    return cst.Module([]).code_for_node(node)


# -- placing a replacement into the source ------------------------------------------------------
def fitted(new: cst.BaseExpression, source: str | None, line: int, col: int,
           end_col: int) -> str:
    """Return the text replacing the one-line range ``line:col-end_col`` of ``source`` by ``new``.

    It is in parentheses when the slot it goes into needs them. ``source`` is the whole
    file or cell (None or unparsable: parenthesised unless an atom).
    """
    need = ATOM
    found = _slot(source, line, col, end_col) if source is not None else None
    if found is not None:
        need = found
    placed = wrap(new, need)
    text = code(placed)
    if source is None or level(placed) >= ATOM:
        return text
    safe = code(parenthesized(new))
    if _tree(_spliced(source, line, col, end_col, text)) != \
            _tree(_spliced(source, line, col, end_col, safe)):
        return safe  # Python's parser groups it otherwise: the table above missed a case
    return text


def _slot(source: str, line: int, col: int, end_col: int) -> int | None:
    """Return the level the expression spanning the range needs where it stands.

    None when no expression spans exactly that range.
    """
    parsed = _parsed(source)
    if parsed is None:
        return None
    positions, parents = parsed
    for node, pos in positions.items():
        if (isinstance(node, cst.BaseExpression) and pos.start.line == line == pos.end.line
                and (pos.start.column, pos.end.column) == (col, end_col)):
            parent = parents.get(node)
            if isinstance(parent, cst.BaseExpression) and positions[parent] == pos:
                continue  # an outer expression over the same text (not the one replaced)
            if node.lpar:  # the replacement goes inside the node's own parentheses
                return _ANYTHING
            return required(parent, node) if parent is not None else ATOM
    return None


@functools.lru_cache(maxsize=8)
def _parsed(source: str) -> tuple[dict, dict] | None:  # type: ignore[type-arg]
    try:
        wrapper = MetadataWrapper(cst.parse_module(_without_magics(source)),
                                  unsafe_skip_copy=True)
    except cst.ParserSyntaxError:
        return None
    return dict(wrapper.resolve(PositionProvider)), dict(wrapper.resolve(ParentNodeProvider))


def _without_magics(source: str) -> str:
    """``source`` with IPython's ``%magic`` and ``!shell`` lines made comments (same columns)."""
    lines = source.splitlines(keepends=True)
    for i, text in enumerate(lines):
        stripped = text.lstrip()
        if stripped[:1] in ("%", "!"):
            at = len(text) - len(stripped)
            lines[i] = text[:at] + "#" + text[at + 1:]
    return "".join(lines)


def _spliced(source: str, line: int, col: int, end_col: int, text: str) -> str:
    lines = source.splitlines(keepends=True)
    if 0 < line <= len(lines):
        old = lines[line - 1]
        lines[line - 1] = old[:col] + text + old[end_col:]
    return "".join(lines)


def _tree(source: str) -> str | None:
    try:
        return ast.dump(ast.parse(_without_magics(source)))
    except SyntaxError:
        return None
