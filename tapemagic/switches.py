"""What the user's code switched off while it ran: tape pauses and weights frozen. TF-free.

``tracing/tapes.py`` notes each ``with tape.stop_recording():`` block, each ``tape.reset()``
(what the tape recorded before it is discarded: a cut whose line is the reset's) and
``tracing/tracking.py`` each ``trainable = False`` that froze trainable weights
(``Trace.switches``). The rules read them to name the line that made a cut: the block that
took the forward pass off the tape or the reset that discarded it (TM103), the freeze that
emptied a source list (TM109).
Apart from ``trace.py`` to keep that module within the size limit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tapemagic.trace import RawLocation


@dataclass(frozen=True, slots=True)
class Freeze:
    """A ``trainable = False`` (``loc``) on layer ``layer`` that froze trainable ``handles``."""

    seq: int
    loc: RawLocation | None
    layer: str
    handles: tuple[int, ...]


@dataclass(slots=True)
class Switches:
    """The pauses of each tape (by tape id) and the freezes of one run, in order."""

    #: tape id -> each ``stop_recording`` block: (first seq, end seq, its ``with`` line)
    pauses: dict[str, list[tuple[int, int, RawLocation | None]]] = field(default_factory=dict)
    freezes: list[Freeze] = field(default_factory=list)
    #: tape id -> each ``tape.reset()``: the spans it discarded (first seq, end seq) and its line
    resets: dict[str, list[tuple[int, int, RawLocation | None]]] = field(default_factory=dict)

    def paused_at(self, tape: str, seq: int) -> RawLocation | None:
        """Return the ``stop_recording`` line of ``tape``'s block open at ``seq``, else None."""
        return _line_over(self.pauses.get(tape, ()), seq)

    def discarded_at(self, tape: str, seq: int) -> RawLocation | None:
        """Return the line of the ``tape.reset()`` that discarded ``tape``'s record at ``seq``."""
        return _line_over(self.resets.get(tape, ()), seq)

    def frozen_before(self, handles: set[int], seq: int) -> list[Freeze]:
        """Return the freezes before ``seq`` of any of ``handles``, each handle's last one."""
        last: dict[int, Freeze] = {}
        for freeze in self.freezes:
            if freeze.seq < seq:
                last.update((h, freeze) for h in freeze.handles if h in handles)
        return sorted(set(last.values()), key=lambda f: f.seq)


def _line_over(spans: Iterable[tuple[int, int, RawLocation | None]],
               seq: int) -> RawLocation | None:
    """Return the line of the first span (first seq, end seq, line) that holds ``seq``."""
    return next((loc for start, end, loc in spans if start <= seq < end), None)
