"""Write reports as one self-contained HTML page, readable offline in any browser.

TF-free. This module's single job is :func:`render_standalone`, behind ``python -m tapemagic
run --html FILE`` (a script: one report; a notebook: one per checked cell). Each report is the
HTML every notebook front end shows (:func:`tapemagic.report.html.render_html`), under a
header that counts reports and findings. No JavaScript and no external resource: the style
sheet is inline and a Content-Security-Policy forbids scripts, so nothing from the report can
run even if it were markup; and every report string is escaped, so it never becomes markup in
the first place.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from tapemagic.report.html import Place, render_html
from tapemagic.report.model import Report
from tapemagic.report.theme import STYLE

__all__ = ["CSP", "render_standalone"]

#: The page's Content-Security-Policy: no script, no request, only its own inline styles.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
_PAGE = """
body{margin:0;font-family:system-ui,sans-serif}
header{padding:12px 24px}
header h1{font-size:18px;margin:0}
main{padding:0 24px 12px;max-width:1400px}
main .tapemagic-report{margin:0 0 16px}
body{color:#1f2937;background:#ffffff}
header .tm-meta{color:#4b5563;margin:4px 0 0}
@media (prefers-color-scheme:dark){body{color:#e5e7eb;background:#1e1e1e}
 header .tm-meta{color:#b4b9c2}}
""".strip()


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def render_standalone(items: Sequence[tuple[str, Report] | tuple[str, Report, Place]],
                      source: str) -> str:
    """Return one HTML document (UTF-8 text) with every report of ``items``.

    Parameters
    ----------
    items : sequence of (title, report) or (title, report, place)
        One section each, in order; ``place`` turns a finding's location into the label the
        user knows; without it, the location's own ``where`` (``cell 4 (In[3]), line 7``).
    source : str
        The script or notebook that was run, for the page title.

    Raises
    ------
    AttributeError
        If an item's report is not a :class:`~tapemagic.report.model.Report`.
    """
    from tapemagic._version import __version__

    sections = [_section(k, item) for k, item in enumerate(items)]
    errors = sum(f.severity == "error" for item in items for f in item[1].findings)
    findings = sum(len(item[1].findings) for item in items)
    summary = (f"{len(items)} report{'s' * (len(items) != 1)}, {findings} finding"
               f"{'s' * (findings != 1)} ({errors} error{'s' * (errors != 1)})")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>tapemagic report: {_e(source)}</title>",
        f"<style>{_PAGE}\n{STYLE}</style></head><body>",
        f'<header><h1>tapemagic report: <code>{_e(source)}</code></h1>'
        f'<p class="tm-meta">{_e(summary)} · tapemagic {_e(__version__)}</p></header>',
        "<main>", *sections,
        "" if items else "<p>No cell computed a gradient.</p>",
        "</main></body></html>", ""])


def _section(k: int, item: tuple[str, Report] | tuple[str, Report, Place]) -> str:
    title, report = item[0], item[1]
    place: Place | None = item[2] if len(item) > 2 else None  # type: ignore[misc]
    body = render_html(report, title=title, place=place, style=False)
    return f'<section class="tm-report" id="report-{k + 1}">{body}</section>'
