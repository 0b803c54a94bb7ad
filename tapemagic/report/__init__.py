"""The report: the v1 model, its JSON Schema check, and its renderers (text, HTML, DOT, MIME).

TF-free: nothing in this package imports TensorFlow. The names below load on first use
(PEP 562 ``__getattr__``), so importing :mod:`tapemagic.report.model` (which ``import tapemagic``
does) does not import the renderers, graphviz or jsonschema: jsonschema alone costs seconds
where JupyterLab's dependencies are installed (its format checkers compile a grammar).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as type checkers see them; at run time __getattr__ loads them
    from tapemagic.report.dot import build_dot
    from tapemagic.report.html import render_html
    from tapemagic.report.mime import mimebundle
    from tapemagic.report.model import MIME_TYPE, SCHEMA_ID, Report
    from tapemagic.report.text import render_text
    from tapemagic.report.validate import validate_report

__all__ = [
    "MIME_TYPE",
    "SCHEMA_ID",
    "Report",
    "build_dot",
    "mimebundle",
    "render_html",
    "render_text",
    "validate_report",
]

#: Where each public name lives (submodule of this package).
_HOMES = {
    "MIME_TYPE": "model",
    "SCHEMA_ID": "model",
    "Report": "model",
    "build_dot": "dot",
    "mimebundle": "mime",
    "render_html": "html",
    "render_text": "text",
    "validate_report": "validate",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
