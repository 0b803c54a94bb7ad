"""The report: the v1 model, its JSON Schema check, and its renderers (text, HTML, DOT, MIME).

TF-free: nothing in this package imports TensorFlow.
"""

from __future__ import annotations

from tapemagic.report.dot import build_dot
from tapemagic.report.html import render_html
from tapemagic.report.mime import MIME_TYPE, mimebundle
from tapemagic.report.model import SCHEMA_ID, Report
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
