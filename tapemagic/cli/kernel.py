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

import warnings
from typing import Any

from tapemagic.cell_runner import CellRunner, cell_magic

__all__ = ["OUTPUT_TAG", "CellChecks", "install"]

#: Output-metadata key marking a report displayed by a notebook run (not by the notebook).
OUTPUT_TAG = "tapemagic_notebook_run"


def has_own_check(raw: str) -> bool:
    """Return True when IPython runs the cell as ``%%gradcheck`` (its own check)."""
    return cell_magic(raw) == "gradcheck"


class CellChecks:
    """The two hooks: the one cell runner, every cell checked and its report displayed."""

    def __init__(self, shell: Any, force_eager: bool, steps: int) -> None:
        self.shell = shell
        self.force_eager = force_eager
        self.steps = steps
        self.runner = CellRunner(shell, options=self._options, refused=self._refused,
                                 show=_show)

    def pre(self, info: Any) -> None:
        """Start checking the cell about to run (``pre_run_cell``)."""
        self.runner.pre(info)

    def post(self, result: Any) -> None:
        """End the cell's check and display its report (``post_run_cell``)."""
        try:
            self.runner.post(result)
        except Exception as error:  # noqa: BLE001 - the notebook's run goes on
            warnings.warn(f"tapemagic: the check of this cell failed: {error!r}",
                          RuntimeWarning, stacklevel=1)

    def _options(self, raw: str) -> dict[str, Any] | None:
        if has_own_check(raw):
            return None  # left to the magic: checked once, with its own options
        return {"force_eager": self.force_eager, "max_steps": self.steps}

    def _refused(self, error: Exception) -> None:
        if not isinstance(error, ImportError):
            raise error
        # no TensorFlow in this kernel: say it once, check nothing
        self.shell.events.unregister("pre_run_cell", self.pre)
        warnings.warn(f"tapemagic: cells are not checked: {error}", RuntimeWarning,
                      stacklevel=1)


def _show(report: Any, info: Any) -> None:
    from IPython.display import display

    from tapemagic.report.mime import mimebundle

    display(mimebundle(report), raw=True, metadata={OUTPUT_TAG: True})


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
