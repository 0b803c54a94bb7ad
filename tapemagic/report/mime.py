"""Build the IPython display bundle of a report.

TF-free. This module's single job is :func:`mimebundle`: the report's JSON under the tapemagic
MIME type (rendered by the JupyterLab extension), plus ``text/html`` (the whole report, as
``run --html`` shows it: :func:`tapemagic.report.html.render_html`) for VS Code, Colab,
nbconvert, GitHub and a JupyterLab without the extension, and ``text/plain`` for terminals.
Python never emits JavaScript.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tapemagic.report.model import Report

__all__ = ["MIME_TYPE", "mimebundle"]

#: The MIME type of the report JSON in a display bundle (the lab extension renders it).
MIME_TYPE = "application/vnd.tapemagic.report.v1+json"


def mimebundle(report: Report) -> dict[str, Any]:
    """Return ``{MIME_TYPE: report.to_json(), "text/html": ..., "text/plain": ...}``.

    Pass it to ``IPython.display.display(bundle, raw=True)``; :class:`Report` also returns it
    from ``_repr_mimebundle_``.

    Raises
    ------
    AttributeError
        If ``report`` is not a :class:`Report`.
    """
    # here, not at the top: the model names MIME_TYPE, and importing it stays cheap
    from tapemagic.report.html import render_html
    from tapemagic.report.text import render_text

    return {
        MIME_TYPE: report.to_json(),
        "text/html": render_html(report),
        "text/plain": render_text(report),
    }
