"""The static checker: hints of where a source may cut its gradients, without running it.

TF-free: no TensorFlow import, no execution; the source is parsed with :mod:`ast` and
interpreted abstractly (:mod:`tapemagic.lint.interp`). Each rule module's ``lint`` hook turns
what the interpretation found into :class:`Hint` objects worded from the rule's ``hint``
template in the catalog. ``check_source`` is the API the JupyterLab extension calls through
``POST {base_url}tapemagic/lint`` (:mod:`tapemagic.serverext`); ``python -m tapemagic lint``
runs it over files and notebooks (:mod:`tapemagic.lint.files`).

Examples
--------
>>> from tapemagic.lint import check_source
>>> [h.code for h in check_source('''
... import tensorflow as tf
... model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
... with tf.GradientTape() as tape:
...     loss = float(tf.reduce_sum(model(tf.ones((1, 2)))))
... grads = tape.gradient(loss, model.trainable_variables)
... ''')]
['TM301']
"""

from __future__ import annotations

import ast
import warnings

from tapemagic.lint.cells import blank_magics
from tapemagic.lint.context import LintContext, LintMatch, analyse
from tapemagic.lint.model import Hint, HintFix
from tapemagic.report.model import Edit

__all__ = ["Hint", "HintFix", "LintContext", "LintMatch", "check_source"]


def check_source(source: str, path: str = "<cell>") -> list[Hint]:
    """Return the hints for one Python source or notebook cell, sorted by position.

    Parameters
    ----------
    source : str
        A Python file's text or one notebook cell (``%%gradcheck``, ``%magic`` and ``!shell``
        lines are blanked first, keeping line numbers).
    path : str
        Where the source comes from; copied into each hint.

    Returns
    -------
    list of Hint
        Lines 1-based, columns 0-based in characters, in the coordinates of ``source``.
        Empty when the source is not valid Python. Never raises: an internal failure is a
        ``RuntimeWarning`` and no hints.
    """
    try:
        tree = ast.parse(blank_magics(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    lines = source.split("\n")
    try:
        ctx = analyse(tree, lines)
        matches = _matches(ctx)
    except RecursionError:
        return []
    except Exception as error:  # noqa: BLE001 - a bug of the checker must not break an editor
        warnings.warn(f"tapemagic lint failed on {path}: {error!r}", RuntimeWarning,
                      stacklevel=2)
        return []
    return _hints(matches, lines, path)


def _matches(ctx: LintContext) -> list[LintMatch]:
    from tapemagic.rules.base import registry

    found: list[LintMatch] = []
    for rule in registry().values():
        found.extend(rule.lint(ctx))
    return found


def _hints(matches: list[LintMatch], lines: list[str], path: str) -> list[Hint]:
    from tapemagic.rules import get_rule

    seen: set[tuple[str, int, int]] = set()
    out: list[Hint] = []
    for match in sorted(matches, key=lambda m: (m.site.line, m.site.col, m.code)):
        key = (match.code, match.site.line, match.site.col)
        if key in seen:
            continue
        seen.add(key)
        rule = get_rule(match.code)
        template = rule.hint or rule.message
        site = match.site
        fix = HintFix(rule.fix_title, rule.fix_applicability,
                      tuple(_chars(e, lines) for e in match.edits))
        out.append(Hint(
            path=path, code=rule.code, cause=rule.cause, name=rule.name,
            message=template.format_map(match.params),
            line=site.line, col=_char(lines, site.line, site.col),
            end_line=site.end_line, end_col=_char(lines, site.end_line, site.end_col), fix=fix))
    return out


def _char(lines: list[str], line: int, byte_col: int) -> int:
    """Convert ``ast``'s UTF-8 byte column on ``line`` to a character column."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def _chars(edit: Edit, lines: list[str]) -> Edit:
    return Edit(edit.line, _char(lines, edit.line, edit.col), edit.end_line,
                _char(lines, edit.end_line, edit.end_col), edit.text)
