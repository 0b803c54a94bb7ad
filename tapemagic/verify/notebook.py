"""Re-running a notebook cell, fixed, in a fresh process: the cells before it, replayed.

TF-free here; the replay (:mod:`tapemagic.verify.replay`) imports IPython and, through the
cells, TensorFlow in its own process. The user's kernel is never touched: the cell's
prerequisites are re-created by re-running the notebook's input history (IPython's raw ``In``
list, in execution order, re-runs included, so Keras' automatic layer names come out the
same), in a kernel-less ``InteractiveShell``, in the kernel's working directory; then the fixed
cell runs under ``%%gradcheck`` and its report comes back as JSON. Cells that read files keep
working; cells that depend on state from outside the history (a widget, another process) or
are slow (a long training run) make the re-run slow or wrong, which the fix's
``verification`` text then says (no report, a timeout, or the new error).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from tapemagic.report.model import Edit, Location
from tapemagic.verify import Unverifiable, apply_edits, child_env, run_child


@dataclasses.dataclass
class HistoryRunner:
    """Re-runs history cells ``1..count-1`` then the checked cell ``count``, one of them fixed.

    ``cells[i]`` is the raw source of ``In[i + 1]``; the last one is the checked cell as the
    editor shows it (its ``%%gradcheck`` line first), the coordinates of its findings.
    """

    cells: Sequence[str]
    force_eager: bool = False
    steps: int = 1
    cwd: str = dataclasses.field(default_factory=os.getcwd)

    def run(self, location: Location, edits: Sequence[Edit], eager: bool | None = None
            ) -> tuple[dict[str, Any] | None, str | None]:
        """Replay the history with ``edits`` applied to their cell; see ``Runner.run``."""
        number = location.execution_count
        if number is None:
            raise Unverifiable(f"the fix edits {location.file}, not a notebook cell")
        if not 1 <= number <= len(self.cells):
            raise Unverifiable(f"cell In[{number}] is not in this session's history")
        cells = list(self.cells)
        try:
            cells[number - 1] = apply_edits(cells[number - 1], edits)
        except ValueError as error:
            return None, str(error)
        with tempfile.TemporaryDirectory(prefix="tapemagic-verify-") as tmp:
            payload, out = os.path.join(tmp, "cells.json"), os.path.join(tmp, "report.json")
            with open(payload, "w", encoding="utf-8") as handle:
                json.dump({"cells": cells, "out": out,
                           "force_eager": self.force_eager if eager is None else eager,
                           "steps": self.steps, "cwd": self.cwd}, handle)
            argv = [sys.executable, "-m", "tapemagic.verify.replay", payload]
            return run_child(argv, out, child_env())


def history_cells(shell: Any, count: int, checked: str) -> list[str]:
    """Return the raw sources of ``In[1..count-1]`` followed by the checked cell's."""
    raw: list[str] = list(getattr(shell.history_manager, "input_hist_raw", [""]))
    return [*(raw[1:count] + [""] * max(0, count - len(raw)))[:count - 1], checked]
