"""Auto mode: ``%gradcheck on`` checks every cell as ``%%gradcheck`` does, until ``%gradcheck off``.

No TensorFlow import here. The check rides on IPython's own cell events, so the cell itself runs
through IPython's unchanged ``run_cell`` path (history, ``In``/``Out``, display hook, traceback
and syntax-error display are IPython's): ``pre_run_cell`` opens a :func:`tapemagic.gradcheck`
block and ``post_run_cell`` closes it, with the cell's exception recorded as ``%%gradcheck``
records it, and every patch is undone there. A cell that starts with a cell magic (``%%time``,
``%%bash``, ``%%gradcheck`` with its own options ...) runs plain: no second check, and a body
the magic runs as a cell of its own (``%%capture``'s ``run_cell``) runs plain with it. A cell
that ran no gradient call shows nothing and builds no report; a cell whose weights all get a
gradient shows nothing (one status line with ``--verbose``); a cell with a cut shows the full
report.

Set it once for every session with the configurable :class:`Gradcheck` (``ipython_config.py``
or ``ipython_kernel_config.py``)::

    c.InteractiveShellApp.extensions = ["tapemagic"]
    c.Gradcheck.auto = True
"""

from __future__ import annotations

from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from traitlets import Bool
from traitlets.config import Configurable

from tapemagic.cell_runner import CellRunner, cell_magic, compiled_cells
from tapemagic.locations import leading_blank_lines
from tapemagic.report.model import CellInfo, Report


@magic_arguments()
@argument("state", choices=("on", "off"),
          help="on: check every cell from now on; off: stop.")
@argument("--verbose", action="store_true",
          help="Also print one status line for a cell whose weights all get a gradient.")
def gradcheck(line: str) -> None:
    """%gradcheck on [--verbose] / %gradcheck off: check every cell (auto mode)."""


def parse_auto_line(line: str) -> Any:
    """Parse ``on [--verbose]`` / ``off``; raise ``UsageError`` on anything else."""
    try:
        return parse_argstring(gradcheck, line)
    except ValueError as error:  # shlex: "No closing quotation"
        raise UsageError(f"cannot read the %gradcheck line {line.strip()!r}: {error}") from None


class Gradcheck(Configurable):  # type: ignore[misc]  # traitlets is untyped
    """Auto mode of the tapemagic extension (``c.Gradcheck.auto``, ``%gradcheck on``)."""

    auto = Bool(False, help="Check every cell as %%gradcheck does (%gradcheck on / off)."
                ).tag(config=True)
    verbose = Bool(False, help="In auto mode, print one status line for a cell whose "
                               "weights all get a gradient (otherwise it shows nothing)."
                   ).tag(config=True)

    def __init__(self, shell: Any, magics: Any, **kwargs: Any) -> None:
        super().__init__(parent=shell, **kwargs)
        self.shell = shell
        self.magics = magics
        #: the report of the last checked cell that ran a gradient call (no graph or DOT
        #: when it showed nothing: auto mode builds the picture only for a report with a cut)
        self.last_report: Report | None = None
        self.runner = CellRunner(shell, options=_options, refused=_refused, show=self._show,
                                 cell_ids=lambda: magics.cell_ids,
                                 current_id=lambda: magics.current_cell_id)
        shell.events.register("pre_run_cell", self.pre_run_cell)
        shell.events.register("post_run_cell", self.post_run_cell)

    def close(self) -> None:
        """Close an open check and remove the event hooks (``%unload_ext tapemagic``)."""
        self.runner.finish(None)
        self.runner.running = None
        for event, hook in (("pre_run_cell", self.pre_run_cell),
                            ("post_run_cell", self.post_run_cell)):
            try:
                self.shell.events.unregister(event, hook)
            except ValueError:
                pass

    def switch(self, line: str) -> None:
        """Run ``%gradcheck on [--verbose]`` / ``%gradcheck off``."""
        args = parse_auto_line(line)
        self.verbose = bool(args.verbose)
        self.auto = args.state == "on"
        if self.auto:
            from tapemagic.tracing.lazy import tensorflow_available

            if not tensorflow_available():  # every cell would run unchecked: say it now
                print("gradcheck: auto mode on, but TensorFlow 2.16-2.21 is not installed, so "
                      "no cell is checked: pip install 'tapemagic[cpu]' (or tensorflow)")
                return
            print("gradcheck: auto mode on: every cell is checked; a cell with a cut shows "
                  "its report (%gradcheck off to stop)")
        else:
            print("gradcheck: auto mode off")

    # -- the two cell events --------------------------------------------------------------
    def pre_run_cell(self, info: Any) -> None:
        """Open a check around the cell about to run (auto mode on, not a cell magic)."""
        _place_cell(self.shell, info)
        if self.auto:  # off: nothing (the cell that turns it on is not checked either)
            self.runner.pre(info)

    def post_run_cell(self, result: Any) -> None:
        """Close the cell's check (every patch undone) and show its report when it has a cut."""
        self.runner.post(result)

    def _show(self, report: Report, info: Any) -> None:
        self.last_report = report  # not in the user's namespace: the cell's names stay its own
        if has_cut(report):
            from IPython.display import display

            from tapemagic.report.mime import mimebundle

            display(mimebundle(report), raw=True)
        elif self.verbose and report.gradient_calls:
            print(f"gradcheck: {report.headline}")


def _options(raw: str) -> dict[str, Any] | None:
    """Return the check options of a cell in auto mode; None for a cell magic or no TensorFlow.

    A cell magic's cell (``%%time``, ``%%bash``, ``%%gradcheck`` with its own options) runs
    plain: no second check. The cell's report is shown only with a cut, so the picture
    (collapsed graph, DOT) is built only then.
    """
    from tapemagic.tracing.lazy import tensorflow_available

    if cell_magic(raw) is not None or not tensorflow_available():
        return None
    return {"cell": CellInfo(raw, "<cell>"), "skip_empty": True, "picture_when": has_cut}


def _refused(error: Exception) -> None:
    import sys

    print(f"gradcheck: this cell is not checked: {type(error).__name__}: {error}",
          file=sys.stderr)


def has_cut(report: Report) -> bool:
    """Tell whether a report shows a cut (auto mode shows the report only then).

    A cut is a warning/error finding, a weight that gets no gradient, or a gradient call that
    raised; info findings alone are not one, and neither is an all-zero gradient no rule
    explains (a ReZero gate that starts at 0, a bias the loss cancels, an integrated-gradients
    baseline): correct code, whose values happen to give zeros.
    """
    if any(f.severity in ("warning", "error") for f in report.findings):
        return True
    return any(call.error is not None or any(s.verdict in ("severed", "unexplained")
                                             for s in call.sources)
               for call in report.gradient_calls)


def _place_cell(shell: Any, info: Any) -> None:
    """Have every check read the cell about to run at the editor's lines.

    IPython compiles ``info.transformed_cell``, which has lost the cell's leading blank lines,
    under ``shell.compile.get_code_name(raw, transformed, execution_count)``
    (IPython/core/interactiveshell.py, ``run_cell_async``; ipykernel names it by the raw
    cell): its code is read that many lines down (``magic_bodies.shift_cell``). Done for every
    cell while the extension is loaded, checked or not: a ``gradcheck()`` block or a Keras
    ``GradientCheck`` in the cell reports its lines too. Only a cell the user ran (one IPython
    keeps in its history): a body a cell magic runs as a cell is placed in its cell already.
    An IPython without ``transformed_cell`` on the cell's info keeps the compiled lines.
    """
    raw = getattr(info, "raw_cell", "") or ""
    transformed = getattr(info, "transformed_cell", None)
    if not isinstance(transformed, str) or not getattr(info, "store_history", False):
        return  # a cell run from code (``%%capture``'s body): magic_bodies places it
    from tapemagic.magic_bodies import shift_cell, shifted_cells

    blank = leading_blank_lines(raw)
    if not blank and not shifted_cells():
        return  # nothing to place, nothing placed earlier to take back
    try:
        # the cell's number is the count now, or one less where IPython counts the cell
        # before its pre_run_cell event (ipython/ipython#15088); a name an earlier cell of
        # the same text has is that cell's (the other one is named again with its own cell)
        count = int(shell.execution_count)
        names = {str(shell.compile.get_code_name(raw, transformed, n)) for n in (count - 1, count)}
    except Exception:  # noqa: BLE001 - another compiler: the compiled lines stay
        return
    earlier = compiled_cells(shell)
    lines = transformed.splitlines(keepends=True) if blank else []
    for name in names:
        if len(names) == 1 or name not in earlier:
            shift_cell(name, blank, lines)
