"""The one cell runner: a check open from IPython's ``pre_run_cell`` to its ``post_run_cell``.

No TensorFlow or IPython import here. Auto mode (``%gradcheck on``, :mod:`tapemagic.auto`) and
the notebook runner's kernel side (:mod:`tapemagic.cli.kernel`) check every cell the same way:
the cell runs through IPython's own ``run_cell``, untouched (history, ``In``/``Out``, display
hook, traceback display), while ``pre_run_cell`` opens a :func:`tapemagic.gradcheck` block and
``post_run_cell`` records the cell's exception, as ``%%gradcheck`` does, fills the cell map,
closes the block (every patch undone) and hands the report, named after its cell, to the door.
A cell run from inside the running cell (``%%capture`` runs its body with ``run_cell``) is part
of that cell. The ``%%gradcheck`` magic runs its body itself, but reads cells the same way:
:func:`cell_magic` and :func:`cell_map` are its too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from tapemagic.locations import CellMap
from tapemagic.report.model import CellInfo, Report

__all__ = ["CellRunner", "cell_magic", "cell_map", "compiled_cells"]


def cell_magic(raw: str) -> str | None:
    """Return the name of the cell magic IPython runs ``raw`` with (``%%time`` → ``time``).

    IPython drops the cell's leading blank (or whitespace-only) lines and runs a cell whose
    first line starts with ``%%`` as that cell magic (``inputtransformer2.cell_magic``). None
    for any other cell.
    """
    for line in raw.splitlines():
        if line.strip():
            if not line.startswith("%%"):
                return None
            return line[2:].split(None, 1)[0] if line[2:].strip() else ""
    return None


def compiled_cells(shell: Any) -> Mapping[str, int]:
    """Return IPython's map of each cell's compiled filename to its ``In[N]`` number.

    ``CachingCompiler._filename_map`` (IPython/core/compilerop.py); empty for a shell whose
    compiler has none.
    """
    found: Mapping[str, int] = getattr(getattr(shell, "compile", None), "_filename_map", {})
    return found


def cell_map(shell: Any, cell_ids: Mapping[int, str], count: int | None,
             cell_id: str | None, cells: CellMap | None = None) -> CellMap:
    """Fill (or make) the map of every cell IPython compiled so far to its number and id.

    ``cell_ids`` gives the ids the front end sent with earlier cells; the running cell, number
    ``count``, gets ``cell_id`` where ``cell_ids`` has none for it.
    """
    cells = CellMap() if cells is None else cells
    for name, number in compiled_cells(shell).items():
        known = cell_ids.get(number)
        cells.add(name, number, cell_id if number == count and known is None else known)
    return cells


class CellRunner:
    """One :func:`tapemagic.gradcheck` block open from ``pre_run_cell`` to ``post_run_cell``.

    ``options(raw)`` returns the block's options for a cell to check, or None to run it plain;
    ``refused(error)`` is told when the block cannot open (the cell then runs plain);
    ``show(report, info)`` gets the finished report, its ``cell`` named after the cell;
    ``cell_ids()`` gives the ids of earlier cells and ``current_id()`` the running cell's when
    its ``ExecutionInfo`` has none.
    """

    def __init__(self, shell: Any, *, options: Callable[[str], dict[str, Any] | None],
                 refused: Callable[[Exception], None], show: Callable[[Report, Any], None],
                 cell_ids: Callable[[], Mapping[int, str]] = dict,
                 current_id: Callable[[], str | None] = lambda: None) -> None:
        self.shell = shell
        self.options = options
        self.refused = refused
        self.show = show
        self.cell_ids = cell_ids
        self.current_id = current_id
        #: the ExecutionInfo of the cell now running (checked or not)
        self.running: Any = None
        # (the cell's ExecutionInfo, the open context manager, its Check, its CellMap)
        self._open: tuple[Any, Any, Any, CellMap] | None = None

    def pre(self, info: Any) -> None:
        """Open a check around the cell about to run (``pre_run_cell``)."""
        if self.running is not None:
            # a cell run from inside the cell (`%%capture` runs its body with run_cell): the
            # cell's own check covers it, and its report belongs to the cell, not to what
            # `%%capture` captures (the captured outputs stay the cell's own)
            return
        self.running = info
        self.finish(None)  # a check a cell left open (no post_run_cell came): closed, unshown
        options = self.options(getattr(info, "raw_cell", "") or "")
        if options is None:
            return
        from tapemagic.api import gradcheck

        cells = CellMap()  # filled in post: the cell's compiled name is known then
        block = gradcheck(cells=cells, **options)
        try:
            check = block.__enter__()
        except Exception as error:  # noqa: BLE001 - the cell runs plain; the door says why
            self.refused(error)
            return
        self._open = (info, block, check, cells)

    def post(self, result: Any) -> None:
        """Close the cell's check and show its report (``post_run_cell``)."""
        if result is not None and getattr(result, "info", None) is not self.running:
            return  # the end of a cell run from inside the cell (or of the switch's own cell)
        self.running = None
        self.finish(result)

    def finish(self, result: Any) -> None:
        """Close an open check (every patch undone); with the cell's result, show its report."""
        if self._open is None:
            return
        info, block, check, cells = self._open
        self._open = None
        count = getattr(result, "execution_count", None)
        cell_id = getattr(info, "cell_id", None) or self.current_id()
        if result is not None:
            # as %%gradcheck does: IPython showed the cell's exception; the report names it
            check.error = (getattr(result, "error_before_exec", None)
                           or getattr(result, "error_in_exec", None))
            cell_map(self.shell, self.cell_ids(), count, cell_id, cells)
        block.__exit__(None, None, None)  # every patch undone; the report built (or skipped)
        report: Report | None = check.report
        if report is None or result is None:
            return
        filename = next((name for name, number in compiled_cells(self.shell).items()
                         if number == count), "<cell>")
        check.report = dataclasses.replace(report, cell=CellInfo(
            getattr(info, "raw_cell", "") or "", filename, execution_count=count,
            cell_id=cell_id))
        self.show(check.report, info)
