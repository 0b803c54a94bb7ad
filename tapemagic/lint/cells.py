"""Turn a notebook cell (or a script) into plain Python with the same line numbers.

TF-free. A cell may start with a cell magic (``%%gradcheck``) and contain line magics
(``%time``), shell escapes (``!pip``) or help lines (``obj?``): they are blanked, line by line,
so every line and column of the remaining code is where the editor shows it. A cell magic other
than ``%%gradcheck`` (``%%bash``, ``%%html``) means the body is not Python: the cell is empty.
"""

from __future__ import annotations

import re

#: Cell magics whose body is Python run as is (the body is linted; the magic line is blanked).
PYTHON_CELL_MAGICS = frozenset({"gradcheck", "time", "timeit", "capture", "prun", "debug"})
_ESCAPES = ("%", "!", "?")
_HELP = re.compile(r"^\s*[\w.]+\?{1,2}\s*$")


def blank_magics(source: str) -> str:
    """Return ``source`` with IPython-only lines replaced by empty lines.

    Parameters
    ----------
    source : str
        A notebook cell or a Python file.

    Returns
    -------
    str
        Text with as many lines as ``source``: magic, shell and help lines are empty; a cell
        whose cell magic is not known to run Python becomes all empty lines.
    """
    lines = source.split("\n")
    first = next((i for i, text in enumerate(lines) if text.strip()), None)
    if first is not None and lines[first].lstrip().startswith("%%"):
        name = lines[first].lstrip()[2:].split(None, 1)[0] if lines[first].strip() != "%%" else ""
        if name not in PYTHON_CELL_MAGICS:
            return "\n" * (len(lines) - 1)
    out = []
    continued = False  # a magic line ending in a backslash continues on the next line
    for text in lines:
        stripped = text.lstrip()
        if continued or stripped.startswith(_ESCAPES) or _HELP.match(text):
            continued = text.rstrip().endswith("\\")
            out.append("")
        else:
            out.append(text)
    return "\n".join(out)
