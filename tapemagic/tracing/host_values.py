"""Host round-trips: the events, their values, and the leaves they flow back into.

Imports TensorFlow objects only through the tensors it is handed. A mixin of
:class:`~tapemagic.tracing.recorder.Recorder` (its serials, sequence and trace): the hooks in
``hooks`` report each conversion of a tensor to a host value here, and a leaf the recorder sees
for the first time is matched against the values kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tapemagic.trace import HostEvent, HostLink, RawLocation, Trace
from tapemagic.tracing import py_bodies
from tapemagic.tracing.backward import flush as flush_backward
from tapemagic.tracing.values import host_value, same_value

if TYPE_CHECKING:
    from tapemagic.tracing._tf_private.ids import TensorIds
    from tapemagic.tracing.backward import BackwardState

#: Host values larger than this (bytes) are not kept for value matching, nor any once all the
#: kept values reach the second bound: a training loop's metrics must not pin its memory.
_MAX_HOST_VALUE_BYTES = 8 << 20
_MAX_HOST_TOTAL_BYTES = 256 << 20


class HostRoundTrips:
    """The host-value half of the recorder (see the module)."""

    trace: Trace
    function_depth: int
    ids: TensorIds
    backward: BackwardState
    host_values: list[tuple[int, np.ndarray]]  # (event id, value), oldest first
    _host_bytes: int

    if TYPE_CHECKING:
        def next_seq(self) -> int: ...  # noqa: D102

    def add_host_event(
        self,
        kind: str,
        api: str,
        sources: tuple[int, ...],
        parents: tuple[int, ...],
        loc: RawLocation | None,
        value: Any = None,
    ) -> int:
        """Record a host round-trip and remember its value for linking it back into TensorFlow."""
        if self.backward.deferred:  # a backward pass's ops come first (backward.flush)
            flush_backward(self)  # type: ignore[arg-type]
        event_id = len(self.trace.host_events) + 1
        body = py_bodies.current()  # a tf.py_function's body runs eagerly, in graph mode too
        self.trace.host_events.append(
            HostEvent(event_id, self.next_seq(), kind, api, sources, parents, loc,
                      self.function_depth > 0 and body is None)
        )
        if body is not None:
            py_bodies.note_argument(self, event_id, sources)  # type: ignore[arg-type]
        if value is not None and kind != "bool":
            array = np.asarray(value)
            if (array.dtype != object and array.nbytes <= _MAX_HOST_VALUE_BYTES
                    and self._host_bytes + array.nbytes <= _MAX_HOST_TOTAL_BYTES):
                self.host_values.append((event_id, array.view(np.ndarray).copy()))
                self._host_bytes += array.nbytes
        return event_id

    def link_leaf(self, tensor: Any, event_id: int) -> None:
        """Mark ``tensor`` as produced on the host by event ``event_id`` (an exact link)."""
        serial = self.ids.serial_of(tensor)
        if serial is None:
            serial = self.ids.register(tensor, None, "constant")
        self.trace.host_links[serial] = HostLink(serial, event_id, probable=False)

    def _link_host_value(self, tensor: Any, serial: int) -> None:
        # tf.constant(ndarray) copies, so a NumPy result re-enters TensorFlow only by value:
        # the newest recorded host value equal to this leaf is its probable origin.
        value = host_value(tensor)
        if value is None:
            return
        for event_id, host in reversed(self.host_values):
            if host.shape != value.shape:
                continue
            if same_value(host, value):
                trivial = bool(value.size <= 1 or not np.any(value) or np.all(value == 1))
                self.trace.host_links[serial] = HostLink(serial, event_id, probable=trivial)
                return
