"""The report of a ``%%gradcheck`` cell while its ``fit`` trains on; the final one in its place.

TF-free; needs IPython. A 50-epoch ``fit`` has its checked steps analysed in its first seconds:
:class:`Preview` shows the report then (``display`` with a ``display_id``), says that training
goes on and how to stop it, and when the cell ends puts the final report in the same output
(``update_display``), so the notebook holds one report, not two. The user's own outputs are
untouched: the kernel's display publisher flushes the cell's pending prints before the
report, so their order stays the order they were printed in.

In a terminal IPython, which prints every display and cannot replace one, the final report is
printed again at the end.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from IPython.display import DisplayHandle, display

from tapemagic.report.mime import mimebundle
from tapemagic.report.model import Report

__all__ = ["Preview", "stop_hint"]


def stop_hint(shell: Any) -> str:
    """Return how to stop the cell in this front end: the kernel's ■, or Ctrl-C in a terminal."""
    if getattr(shell, "kernel", None) is not None:  # ipykernel's shell: a notebook front end
        return "interrupt the kernel (\u25a0) to stop"
    return "press Ctrl-C to stop"


def early(report: Report, hint: str) -> Report:
    """Return ``report`` as shown while training goes on: the headline says so, and how to stop."""
    if report.fit_stops:  # Keras raises "No gradients provided": nothing trains on
        return dataclasses.replace(report, headline=f"{report.headline}; Keras stops this fit "
                                   "(no weight gets a gradient), this report stays")
    return dataclasses.replace(
        report, headline=f"{report.headline}; training continues: {hint}, this report stays")


class Preview:
    """One report output of a cell: shown early (:meth:`show`), replaced at the end (:meth:`final`).

    ``shown`` is the early report's bundle, None until :meth:`show` ran.
    """

    def __init__(self, hint: str) -> None:
        self.hint = hint
        self.handle: DisplayHandle | None = None
        self.shown: dict[str, Any] | None = None

    def show(self, report: Report) -> None:
        """Display the report so far (``gradcheck(preview=...)`` calls this once, mid-``fit``)."""
        bundle = mimebundle(early(report, self.hint))
        handle = display(bundle, raw=True, display_id=True)
        self.handle = handle if isinstance(handle, DisplayHandle) else None
        self.shown = bundle

    def final(self, report: Report) -> bool:
        """Put the final report in the early one's place; False when none was shown."""
        if self.handle is None:
            return False
        self.handle.update(mimebundle(report), raw=True)
        return True
