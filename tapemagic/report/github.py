"""Write findings and lint hints as GitHub Actions workflow-command annotations.

TF-free. This module's single job is :func:`render_github`: one line per annotation,
``::error file=train.py,line=23,col=12,endLine=23,endColumn=20,title=TM301::message``, which a
workflow step prints to get the finding shown on the file and line of the pull request.
Command levels follow the severity: ``error`` for error findings, ``warning`` for warning
findings and for lint hints (they fail ``tapemagic lint``), ``notice`` for info findings.
Escaping follows the workflow-command format: in the message ``%``, CR and LF become ``%25``,
``%0D`` and ``%0A``; in a property value ``:`` and ``,`` also become ``%3A`` and ``%2C``.
A notebook cell has no line of the ``.ipynb`` file, so its annotation names the file alone and
the message starts with the place, named as every output names it (``cell 5 (In[4]), line
14:``, :mod:`tapemagic.report.places`).
"""

from __future__ import annotations

from collections.abc import Iterable

from tapemagic.report.annotation import Annotation

__all__ = ["render_github"]

_LEVEL = {"error": "error", "warning": "warning", "hint": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """Escape a workflow command's message (``%``, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value (``%``, CR, LF, ``:`` and ``,``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(annotation: Annotation) -> str:
    """Return the one workflow-command line of ``annotation``."""
    place = annotation.place
    props = [("file", place.path)]
    message = annotation.message
    if place.cell is not None:
        message = f"{place.where}: {message}"
    elif place.line is not None:
        props.append(("line", str(place.line)))
        if place.col is not None:
            props.append(("col", str(place.col + 1)))
        if place.end_line is not None:
            props.append(("endLine", str(place.end_line)))
            if place.end_col is not None:
                # 0-based exclusive end column == 1-based inclusive end column
                props.append(("endColumn", str(max(place.end_col, 1))))
    props.append(("title", f"{annotation.code} {annotation.name}".strip()))
    if annotation.fix:
        message += f"\nfix: {annotation.fix}"
    level = _LEVEL[annotation.severity]
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in props)
    return f"::{level} {joined}::{escape_data(message)}"


def render_github(annotations: Iterable[Annotation]) -> str:
    """Return the annotations as workflow-command lines (one per annotation, no trailing LF)."""
    return "\n".join(command(a) for a in annotations)
