"""Kernel side of ``python -m tapemagic run NOTEBOOK.ipynb``: check every cell the kernel runs.

Imported in the notebook's kernel by :mod:`tapemagic.cli.notebook` (never in the CLI process).
:func:`install` registers two IPython event hooks: ``pre_run_cell`` starts a
:func:`tapemagic.gradcheck` block and ``post_run_cell`` ends it and displays the report bundle
(:func:`tapemagic.report.mime.mimebundle`) in the cell's outputs, tagged with
:data:`OUTPUT_TAG` in the output metadata. The cell itself runs through IPython's own
``run_cell``, untouched: its magics, display hook, ``;``, ``await`` and errors behave as in a
plain kernel, and its lines are its own (no magic line in front). A cell that starts with
``%%gradcheck`` is left to that magic (checked once, with its own options); a cell run from
inside a cell (``%%capture`` runs its body with ``run_cell``) is part of that cell's check.
TensorFlow is imported when a cell imports it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import warnings
from typing import Any

__all__ = ["OUTPUT_TAG", "CellChecks", "install"]

#: Output-metadata key marking a report displayed by a notebook run (not by the notebook).
OUTPUT_TAG = "tapemagic_notebook_run"


def has_own_check(raw: str) -> bool:
    """Return True when the cell starts with ``%%gradcheck`` (IPython reads the first line)."""
    first = raw.lstrip("\n").split("\n", 1)[0].strip()
    return first == "%%gradcheck" or first.startswith("%%gradcheck ")


class CellChecks:
    """The two hooks; one :func:`tapemagic.gradcheck` block open from pre to post."""

    def __init__(self, shell: Any, force_eager: bool, steps: int) -> None:
        self.shell = shell
        self.force_eager = force_eager
        self.steps = steps
        self._stack: contextlib.ExitStack | None = None
        self._check: Any = None
        self._cells: Any = None
        self._raw = ""
        self._cell_id: str | None = None
        self._running: Any = None  # the ExecutionInfo of the notebook's cell now running

    def pre(self, info: Any) -> None:
        """Start checking the cell about to run (``pre_run_cell``)."""
        from tapemagic.api import gradcheck
        from tapemagic.locations import CellMap

        if self._running is not None:
            # a cell run from inside the cell (`%%capture` runs its body with run_cell): the
            # cell's own check covers it, and its report belongs to the cell, not to what
            # `%%capture` captures (the captured outputs stay the cell's own)
            return
        self._running = info
        self._close()
        raw = getattr(info, "raw_cell", "") or ""
        if has_own_check(raw):
            return
        self._raw, self._cell_id = raw, getattr(info, "cell_id", None)
        self._cells = CellMap()  # filled in post: the cell's compiled name is known then
        stack = contextlib.ExitStack()
        try:
            self._check = stack.enter_context(gradcheck(
                force_eager=self.force_eager, max_steps=self.steps, cells=self._cells))
        except ImportError as error:  # no TensorFlow in this kernel: say it once, check nothing
            self.shell.events.unregister("pre_run_cell", self.pre)
            warnings.warn(f"tapemagic: cells are not checked: {error}", RuntimeWarning,
                          stacklevel=1)
            return
        self._stack = stack

    def post(self, result: Any) -> None:
        """End the cell's check and display its report (``post_run_cell``)."""
        if result is not None and getattr(result, "info", None) is not self._running:
            return  # the end of a cell run from inside the cell
        self._running = None
        if self._stack is None:
            return
        from IPython.display import display

        from tapemagic.report.mime import mimebundle
        from tapemagic.report.model import CellInfo

        check = self._check
        check.error = getattr(result, "error_before_exec", None) or getattr(
            result, "error_in_exec", None)
        count = getattr(result, "execution_count", None)
        filename = "<cell>"
        for name, number in getattr(self.shell.compile, "_filename_map", {}).items():
            self._cells.add(name, number, self._cell_id if number == count else None)
            if number == count:
                filename = name
        try:
            self._close()
        except Exception as error:  # noqa: BLE001 - the notebook's run goes on
            warnings.warn(f"tapemagic: the check of this cell failed: {error!r}",
                          RuntimeWarning, stacklevel=1)
            return
        if check.report is None:
            return
        report = dataclasses.replace(check.report, cell=CellInfo(
            source=self._raw, filename=filename, execution_count=count,
            cell_id=self._cell_id))
        display(mimebundle(report), raw=True, metadata={OUTPUT_TAG: True})

    def _close(self) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            stack.close()


def install(shell: Any, force_eager: bool, steps: int) -> CellChecks:
    """Load the extension (``%%gradcheck`` cells keep working) and check every later cell."""
    shell.extension_manager.load_extension("tapemagic")
    # the notebook's own `%load_ext tapemagic` must print nothing, as in a plain kernel, not
    # IPython's "already loaded" (the load above is the runner's, not the notebook's)
    shell.extension_manager.loaded.discard("tapemagic")
    magics = shell.magics_manager.registry.get("GradcheckMagics")
    auto = getattr(magics, "auto_mode", None)
    if auto is not None:  # c.Gradcheck.auto in the kernel's config: this run checks every cell
        auto.auto = False
    checks = CellChecks(shell, force_eager, steps)
    shell.events.register("pre_run_cell", checks.pre)
    shell.events.register("post_run_cell", checks.post)
    return checks
