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

import dataclasses
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from traitlets import Bool
from traitlets.config import Configurable

from tapemagic.locations import CellMap, leading_blank_lines
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
        # (the cell's ExecutionInfo, the open context manager, its Check, its CellMap)
        self._open: tuple[Any, Any, Any, CellMap] | None = None
        #: the ExecutionInfo of the cell now running (checked or not), while auto mode is on
        self._running: Any = None
        #: the report of the last checked cell that ran a gradient call (no graph or DOT
        #: when it showed nothing: auto mode builds the picture only for a report with a cut)
        self.last_report: Report | None = None
        shell.events.register("pre_run_cell", self.pre_run_cell)
        shell.events.register("post_run_cell", self.post_run_cell)

    def close(self) -> None:
        """Close an open check and remove the event hooks (``%unload_ext tapemagic``)."""
        self._finish(None)
        self._running = None
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
        if not self.auto or self._running is not None:  # off, or a cell run from inside a cell
            return
        # remembered for a cell that runs plain too: `%%capture` runs its body with run_cell,
        # and that body is the cell's, not a cell to check (its report would be captured)
        self._running = info
        raw = getattr(info, "raw_cell", "") or ""
        if _starts_with_cell_magic(raw):
            return
        from tapemagic.api import gradcheck as check_block
        from tapemagic.tracing.lazy import tensorflow_available

        if not tensorflow_available():
            return
        cells = CellMap()
        # a report is shown only with a cut: the picture (collapsed graph, DOT) only then
        block = check_block(cells=cells, cell=CellInfo(raw, "<cell>"), skip_empty=True,
                            picture_when=has_cut)
        try:
            check = block.__enter__()
        except Exception as error:  # noqa: BLE001 - the cell runs plain; say why, once a cell
            import sys

            print(f"gradcheck: this cell is not checked: {type(error).__name__}: {error}",
                  file=sys.stderr)
            return
        self._open = (info, block, check, cells)

    def post_run_cell(self, result: Any) -> None:
        """Close the cell's check (every patch undone) and show its report when it has a cut."""
        if result is not None and getattr(result, "info", None) is not self._running:
            return  # the end of a cell run from inside the cell (or of `%gradcheck on`)
        self._running = None
        self._finish(result)

    def _finish(self, result: Any) -> None:
        if self._open is None:
            return
        info, block, check, cells = self._open
        self._open = None
        if result is not None:
            # as %%gradcheck does: IPython showed the cell's exception; the report names it
            check.error = result.error_before_exec or result.error_in_exec
            self._fill(cells, result.execution_count)
        block.__exit__(None, None, None)  # every patch undone; the report built (or skipped)
        report: Report | None = check.report
        if report is None or result is None:
            return
        raw = getattr(info, "raw_cell", "") or ""
        filename = next((name for name, number in _filename_map(self.shell).items()
                         if number == result.execution_count), "<cell>")
        report = dataclasses.replace(report, cell=CellInfo(
            raw, filename, execution_count=result.execution_count,
            cell_id=getattr(info, "cell_id", None) or self.magics.current_cell_id))
        check.report = report
        self.last_report = report  # not in the user's namespace: the cell's names stay its own
        if has_cut(report):
            from IPython.display import display

            from tapemagic.report.mime import mimebundle

            display(mimebundle(report), raw=True)
        elif self.verbose and report.gradient_calls:
            print(f"gradcheck: {report.headline}")

    def _fill(self, cells: CellMap, count: int | None) -> None:
        for name, number in _filename_map(self.shell).items():
            cell_id = self.magics.cell_ids.get(number)
            if number == count and cell_id is None:
                cell_id = self.magics.current_cell_id
            cells.add(name, number, cell_id)


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
    earlier = getattr(shell.compile, "_filename_map", {})
    lines = transformed.splitlines(keepends=True) if blank else []
    for name in names:
        if len(names) == 1 or name not in earlier:
            shift_cell(name, blank, lines)


def _starts_with_cell_magic(raw: str) -> bool:
    """Return True when IPython runs ``raw`` as a cell magic (``%%name`` on its first line)."""
    for line in raw.splitlines():
        if line.strip():
            return line.startswith("%%")
    return False


def _filename_map(shell: Any) -> dict[str, int]:
    found: dict[str, int] = getattr(shell.compile, "_filename_map", {})
    return found
