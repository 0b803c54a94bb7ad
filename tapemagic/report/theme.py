"""The HTML report's style sheet: one scoped ``<style>``, light and dark, host colours first.

TF-free. This module's single job is :data:`STYLE`, used by :mod:`tapemagic.report.html` (the
report in every front end) and :mod:`tapemagic.report.standalone` (``run --html``). Every rule
is scoped under ``.tapemagic-report``, so the sheet can sit in a notebook page next to others.

Colours come from custom properties. Foreground and background are the host's when it gives
them (JupyterLab's ``--jp-*``, VS Code's ``--vscode-*``), else the palette's. The palette
(accents, borders, the diff's line colours) is light by default, dark under
``prefers-color-scheme: dark``, and follows the host's own switch where there is one:
JupyterLab and nbconvert mark ``<body data-jp-theme-light>``, VS Code's webviews mark
``<body class="vscode-dark">``. Each accent is chosen for text contrast >= 4.5 (WCAG AA) on its
palette's background; tests/ui/test_html_frontends.py measures it in Chromium.
"""

from __future__ import annotations

__all__ = ["STYLE"]

_LIGHT = """
--tm-bg0:#ffffff;--tm-fg0:#1f2937;--tm-muted:#4b5563;--tm-line:#d1d5db;--tm-soft:#f3f4f6;
--tm-red:#b91c1c;--tm-amber:#92400e;--tm-blue:#1d4ed8;--tm-grey:#4b5563;
--tm-badge-error:#b91c1c;--tm-badge-warning:#92400e;--tm-badge-info:#1d4ed8;
--tm-del:#fde2e2;--tm-add:#dcfce7;--tm-fix:#f0fdf4;--tm-exc:#fef2f2;
--tm-n-loss:#fde68a;--tm-n-variable:#dbeafe;--tm-n-op:#f3f4f6;--tm-n-host:#fce7f3;
--tm-n-group:#e0e7ff;--tm-n-fg:#111827;--tm-n-sub:#374151;--tm-n-stroke:#4b5563;
""".strip()

_DARK = """
--tm-bg0:#1e1e1e;--tm-fg0:#e5e7eb;--tm-muted:#b4b9c2;--tm-line:#4b5563;--tm-soft:#2b2f36;
--tm-red:#fca5a5;--tm-amber:#fcd34d;--tm-blue:#93c5fd;--tm-grey:#b4b9c2;
--tm-badge-error:#b91c1c;--tm-badge-warning:#92400e;--tm-badge-info:#1d4ed8;
--tm-del:#4a1f24;--tm-add:#16382a;--tm-fix:#1a2e24;--tm-exc:#3a1d1f;
--tm-n-loss:#5b4a12;--tm-n-variable:#1e3a5f;--tm-n-op:#33373e;--tm-n-host:#522544;
--tm-n-group:#312e5e;--tm-n-fg:#f3f4f6;--tm-n-sub:#d1d5db;--tm-n-stroke:#9ca3af;
""".strip()

_DARK_HOSTS = ('body[data-jp-theme-light="false"] .tapemagic-report,'
               "body.vscode-dark .tapemagic-report,body.vscode-high-contrast .tapemagic-report")
_LIGHT_HOSTS = ('body[data-jp-theme-light="true"] .tapemagic-report,'
                "body.vscode-light .tapemagic-report,"
                "body.vscode-high-contrast-light .tapemagic-report")

_RULES = """
.tapemagic-report{--tm-fg:var(--jp-content-font-color1,var(--vscode-editor-foreground,
 var(--tm-fg0)));--tm-bg:var(--jp-layout-color0,var(--vscode-editor-background,var(--tm-bg0)));
 color:var(--tm-fg);background:var(--tm-bg);font-family:system-ui,-apple-system,"Segoe UI",
 sans-serif;font-size:13px;line-height:1.45;padding:8px 12px;border:1px solid var(--tm-line);
 border-radius:6px;text-align:left}
.tapemagic-report *{box-sizing:border-box}
.tapemagic-report h2{font-size:14px;margin:0 0 6px;font-family:ui-monospace,monospace}
.tapemagic-report .tm-headline{font-weight:600;margin:0 0 6px}
.tapemagic-report .tm-mode{color:var(--tm-muted);margin:0 0 6px}
.tapemagic-report code,.tapemagic-report pre{font-family:ui-monospace,SFMono-Regular,Menlo,
 Consolas,monospace;font-size:12px;color:var(--tm-fg)}
.tapemagic-report code{background:var(--tm-soft);padding:0 2px;border-radius:2px}
.tapemagic-report pre{background:var(--tm-soft);padding:4px 8px;margin:4px 0;overflow:auto;
 white-space:pre}
.tapemagic-report .tm-graph{overflow:auto;border:1px solid var(--tm-line);border-radius:4px;
 padding:4px;margin:8px 0}
.tapemagic-report .tm-graph svg.tm-fit{max-width:100%;height:auto}
.tapemagic-report .tm-scroll-hint{position:sticky;left:0;font-size:12px;color:var(--tm-muted);
 margin:2px 0}
.tapemagic-report .tm-legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;
 color:var(--tm-muted);margin:4px 0}
.tapemagic-report .tm-legend span{display:inline-flex;align-items:center;gap:4px}
.tapemagic-report .tm-swatch{display:inline-block;width:24px;border-top:2px solid}
.tapemagic-report .tm-swatch.tm-connected{border-top-color:var(--tm-grey)}
.tapemagic-report .tm-swatch.tm-severed{border-top:2px dashed var(--tm-red)}
.tapemagic-report .tm-swatch.tm-zero{border-top:2px dotted var(--tm-amber)}
.tapemagic-report .tm-swatch.tm-design{border-top:2px dashed var(--tm-grey)}
.tapemagic-report .tm-box{display:inline-block;width:12px;height:10px;border-radius:2px;
 border:1px solid var(--tm-n-stroke)}
.tapemagic-report .tm-node rect{stroke:var(--tm-n-stroke)}
.tapemagic-report .tm-node text{fill:var(--tm-n-fg)}
.tapemagic-report .tm-node text.tm-sub{fill:var(--tm-n-sub)}
.tapemagic-report .tm-loss rect,.tapemagic-report .tm-box.tm-loss{fill:var(--tm-n-loss);
 background:var(--tm-n-loss)}
.tapemagic-report .tm-variable rect,.tapemagic-report .tm-box.tm-variable{
 fill:var(--tm-n-variable);background:var(--tm-n-variable)}
.tapemagic-report .tm-op rect,.tapemagic-report .tm-box.tm-op{fill:var(--tm-n-op);
 background:var(--tm-n-op)}
.tapemagic-report .tm-host rect,.tapemagic-report .tm-box.tm-host{fill:var(--tm-n-host);
 background:var(--tm-n-host)}
.tapemagic-report .tm-group rect,.tapemagic-report .tm-box.tm-group{fill:var(--tm-n-group);
 background:var(--tm-n-group)}
.tapemagic-report .tm-edge.tm-connected path{stroke:var(--tm-grey)}
.tapemagic-report .tm-edge.tm-severed path{stroke:var(--tm-red)}
.tapemagic-report .tm-edge.tm-zero path{stroke:var(--tm-amber)}
.tapemagic-report .tm-edge.tm-design path{stroke:var(--tm-grey)}
.tapemagic-report .tm-edge.tm-connected text,.tapemagic-report .tm-edge.tm-design text{
 fill:var(--tm-grey)}
.tapemagic-report .tm-edge.tm-severed text{fill:var(--tm-red)}
.tapemagic-report .tm-edge.tm-zero text{fill:var(--tm-amber)}
.tapemagic-report marker.tm-connected path,.tapemagic-report marker.tm-design path{
 fill:var(--tm-grey)}
.tapemagic-report marker.tm-severed path{fill:var(--tm-red)}
.tapemagic-report marker.tm-zero path{fill:var(--tm-amber)}
.tapemagic-report .tm-card{border:1px solid var(--tm-line);border-left:4px solid var(--tm-grey);
 border-radius:4px;padding:6px 10px;margin:8px 0}
.tapemagic-report .tm-card.tm-error{border-left-color:var(--tm-red)}
.tapemagic-report .tm-card.tm-warning{border-left-color:var(--tm-amber)}
.tapemagic-report .tm-card.tm-info{border-left-color:var(--tm-blue)}
.tapemagic-report .tm-card-header{display:flex;flex-wrap:wrap;gap:8px;align-items:center;
 margin-bottom:4px}
.tapemagic-report .tm-severity{font-size:11px;text-transform:uppercase;font-weight:700;
 padding:1px 6px;border-radius:3px;color:#ffffff;background:#4b5563}
.tapemagic-report .tm-severity.tm-error{background:var(--tm-badge-error)}
.tapemagic-report .tm-severity.tm-warning{background:var(--tm-badge-warning)}
.tapemagic-report .tm-severity.tm-info{background:var(--tm-badge-info)}
.tapemagic-report .tm-code-badge{font-family:ui-monospace,monospace;font-weight:700}
.tapemagic-report .tm-place{color:var(--tm-muted);margin-left:auto}
.tapemagic-report .tm-secondary{font-size:11px;border:1px solid var(--tm-line);
 border-radius:3px;padding:0 4px;color:var(--tm-muted)}
.tapemagic-report .tm-lineno{color:var(--tm-muted);margin-right:10px;user-select:none}
.tapemagic-report .tm-facts{margin:4px 0}.tapemagic-report .tm-facts div{margin:2px 0}
.tapemagic-report .tm-key{color:var(--tm-muted)}
.tapemagic-report .tm-fix{background:var(--tm-fix);border-radius:3px;padding:4px 8px;
 margin:4px 0}
.tapemagic-report .tm-applicability{color:var(--tm-muted);font-size:12px;margin-left:8px}
.tapemagic-report pre.tm-diff{padding:2px 0;background:var(--tm-soft)}
.tapemagic-report .tm-diff>span{display:block;padding:0 8px}
.tapemagic-report .tm-diff .tm-del{background:var(--tm-del)}
.tapemagic-report .tm-diff .tm-add{background:var(--tm-add)}
.tapemagic-report details.tm-explain summary{cursor:pointer;color:var(--tm-blue)}
.tapemagic-report table{border-collapse:collapse;margin:4px 0 8px}
.tapemagic-report th,.tapemagic-report td{padding:2px 10px;text-align:left;
 border-bottom:1px solid var(--tm-line);color:var(--tm-fg)}
.tapemagic-report tr.tm-severed td,.tapemagic-report tr.tm-zero td,
.tapemagic-report tr.tm-unexplained td{color:var(--tm-red)}
.tapemagic-report .tm-exception{background:var(--tm-exc);border-radius:4px;padding:6px 10px;
 margin:6px 0}
.tapemagic-report .tm-notes{color:var(--tm-muted);margin:6px 0;padding-left:20px}
""".strip()

#: The report's style sheet (the text of one ``<style>`` element).
STYLE = "\n".join([
    f".tapemagic-report{{{_LIGHT}}}",
    f"@media (prefers-color-scheme:dark){{.tapemagic-report{{{_DARK}}}}}",
    f"{_LIGHT_HOSTS}{{{_LIGHT}}}",
    f"{_DARK_HOSTS}{{{_DARK}}}",
    # the class twice: a notebook's own rules for rendered HTML (JupyterLab's
    # `.jp-ThemedContainer .jp-RenderedHTMLCommon pre`, two classes) must not win over ours
    _RULES.replace(".tapemagic-report", ".tapemagic-report.tapemagic-report"),
])
