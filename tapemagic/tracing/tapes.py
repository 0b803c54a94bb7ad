"""``tf.GradientTape`` instrumentation: flags, recording spans, watches and gradient calls.

Imports TensorFlow. The methods of ``backprop.GradientTape`` are patched in place, not the class
replaced, so every alias (``tf.GradientTape``, ``tf.autodiff.GradientTape``, Keras 3's trainer)
sees them. Each wrapper calls the original first or last exactly as the original would run,
returns its result and re-raises its exception; the bookkeeping runs under the recorder's
re-entrancy guard and never runs a TensorFlow op.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Literal

from tapemagic import frames
from tapemagic.trace import GradientCallRecord, TapeRecord
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import backward, custom_errors, symbolic, watches, weight_values, witness
from tapemagic.tracing.moved import MoveWatch
from tapemagic.tracing.recorder import Recorder
from tapemagic.tracing.results import flatten, remade_sources, target_value, unconnected_mode
from tapemagic.tracing.sites import MAX_SOURCE_SETS, SiteBook, sources_key
from tapemagic.tracing.sources import source_record

_MISSING = object()
Method = Literal["gradient", "jacobian", "batch_jacobian"]
_FIT_MODULES = ("keras.src.backend.tensorflow.trainer",)


class TapeHooks:
    """Install and remove the ``GradientTape`` patches for one :class:`Recorder`."""

    def __init__(self, recorder: Recorder, max_steps: int = 1,
                 on_fit_analysed: Callable[[], None] | None = None) -> None:
        self.rec = recorder
        self.max_steps = max_steps
        self.on_fit_analysed = on_fit_analysed
        #: called after the recorder detached (every site analysed, its values read)
        self.on_detached: Callable[[], None] | None = None
        self._saved: list[tuple[str, Any]] = []
        self._tapes: weakref.WeakKeyDictionary[Any, TapeRecord] = weakref.WeakKeyDictionary()
        self.book = SiteBook(max_steps)  # which runs of each call site are analysed
        self.moved = MoveWatch(recorder)  # which sources did not change between runs
        self._saturated_tapes: weakref.WeakSet[Any] = weakref.WeakSet()
        self._site_done: dict[tuple[str, int], int] = {}
        # tapes made where the analysis was not done yet, and tapes whose forward pass (the
        # ops while they were entered) was recorded: only those can be analysed
        self._fresh: weakref.WeakSet[Any] = weakref.WeakSet()
        #: tape -> ops its traced graph had when it began recording (graphs.link_unconsumed)
        self._marks: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self._recorded: weakref.WeakSet[Any] = weakref.WeakSet()
        self._traced: dict[tuple[str, int], int] = {}  # creation site -> tapes made in traces
        self._keys: dict[str, tuple[Any, ...]] = {}  # call id -> (site, sources key)
        # tapes made where the analysis is not done yet, and not yet differentiated: while one
        # lives, the recorder stays attached (its forward ops are still to come)
        self._pending: weakref.WeakSet[Any] = weakref.WeakSet()
        #: told of gradient calls (sources, caller frame) and Keras train steps' tapes (None, frame)
        self.on_sources: Callable[[Any, Any], None] = lambda sources, frame: None
        recorder.graphs.after_values = self._maybe_detach

    def install(self) -> None:
        """Patch the tape methods."""
        cls = tfp.GradientTape
        for name in ("__init__", "__enter__", "__exit__", "watch", "stop_recording", "reset"):
            original = cls.__dict__[name]
            self._saved.append((name, original))
            setattr(cls, name, getattr(self, f"_make_{name.strip('_')}")(original))
        methods: tuple[Method, ...] = ("gradient", "jacobian", "batch_jacobian")
        for method in methods:
            self._saved.append((method, cls.__dict__[method]))
            setattr(cls, method, self._make_differentiator(cls.__dict__[method], method))

    def remove(self) -> None:
        """Restore the original methods."""
        for name, original in reversed(self._saved):
            setattr(tfp.GradientTape, name, original)
        self._saved.clear()

    # -- records --------------------------------------------------------------------------------
    def record_of(self, tape: Any) -> TapeRecord:
        """Return the record of ``tape``, creating one for a tape made before the run."""
        record = self._tapes.get(tape)
        if record is None:
            # made before the run until __init__ says it was made in it
            record = TapeRecord(f"tape{len(self.rec.trace.tapes) + 1}", None,
                                *tfp.tape_flags(tape),
                                graph=self.rec.graphs.current_graph(), made_before=True,
                                thread=self.rec.thread_number())
            self._tapes[tape] = record
            self.rec.trace.tapes.append(record)
        return record

    def _user_location(self, depth: int = 2) -> Any:
        user, _ = frames.user_frame(sys._getframe(depth))
        return (frames.location_of(user) if user is not None else None), user

    # -- wrappers -------------------------------------------------------------------------------
    def _make_init(self, original: Any) -> Any:
        hooks = self

        def __init__(tape: Any, *args: Any, **kwargs: Any) -> None:
            original(tape, *args, **kwargs)
            if not hooks.rec.mine():
                return
            record = hooks.record_of(tape)
            record.made_before = False
            loc, user = hooks._user_location()
            record.loc = loc
            chain = frames.library_chain(sys._getframe(1))
            record.creation_site = (loc.file, loc.line) if loc else None
            if any(m.startswith(_FIT_MODULES) for m, _ in chain):
                record.creation_site = ("keras-fit", 0)
                hooks.on_sources(None, sys._getframe(1))
            if not hooks._site_saturated(record, made=True):
                hooks._fresh.add(tape)
                hooks._pending.add(tape)  # a new call site is coming: record its ops
                hooks.rec.attach()

        return __init__

    def _make_enter(self, original: Any) -> Any:
        hooks = self

        def __enter__(tape: Any) -> Any:
            result = original(tape)
            if not hooks.rec.mine():
                return result
            record = hooks.record_of(tape)
            record.spans.append([hooks.rec.next_seq(), -1])
            hooks.rec.open_tapes.add(id(tape))  # other threads' ops are kept meanwhile
            if not tfp.executing_eagerly():
                hooks._marks[tape] = hooks.rec.graphs.mark()
            if tape not in hooks._fresh and hooks._site_saturated(record):
                hooks._saturated_tapes.add(tape)
                hooks.rec.saturated_depth += 1
            elif hooks.rec.attached and not hooks.rec.saturated_depth:
                hooks._recorded.add(tape)
            return result

        return __enter__

    def _make_exit(self, original: Any) -> Any:
        hooks = self

        def __exit__(tape: Any, typ: Any, value: Any, traceback: Any) -> Any:
            if not hooks.rec.mine():
                return original(tape, typ, value, traceback)
            record = hooks.record_of(tape)
            hooks.rec.open_tapes.discard(id(tape))
            failed = symbolic.failed_event(hooks.rec, value) if value is not None else None
            if record.spans and record.spans[-1][1] < 0:
                # one span only: a call made inside `stop_recording` must stay outside it
                hooks.rec.graphs.link_unconsumed(
                    hooks._marks.pop(tape, None) if len(record.spans) == 1 else None)
                record.spans[-1][1] = hooks.rec.next_seq()
            if tape in hooks._saturated_tapes:
                hooks._saturated_tapes.discard(tape)
                hooks.rec.saturated_depth -= 1
            result = original(tape, typ, value, traceback)
            if hooks.rec.attached:
                watches.note_watched(hooks.rec, tape, record)
            if failed is not None:
                symbolic.note_unreached(hooks.rec, tape, record, failed,
                                         functools.partial(source_record, hooks.rec))
            elif value is not None and hooks.rec.attached:
                custom_errors.note_failed(hooks.rec, value)
            return result

        return __exit__

    def _make_watch(self, original: Any) -> Any:
        hooks = self

        def watch(tape: Any, tensor: Any) -> Any:
            try:
                result = original(tape, tensor)  # record only a watch that succeeded
            except BaseException as error:
                if not isinstance(error, KeyboardInterrupt) and hooks.rec.recording():
                    loc, _ = hooks._user_location(2)
                    watches.note_failed_watch(hooks.rec, loc, tensor, error,
                                              lambda: hooks.record_of(tape))
                raise
            rec = hooks.rec
            if not rec.recording():
                return result
            record = hooks.record_of(tape)
            with rec.quiet():
                for item in flatten(tensor):
                    handle = getattr(item, "handle", None)
                    if handle is not None and tfp.dtype_name(handle.dtype) == "resource":
                        record.watched_handles.add(rec.handle_serial(handle))
                        rec.variables_seen.setdefault(id(item), item)
                    elif hasattr(item, "dtype"):
                        serial = rec.ids.hold(item)
                        record.watched_tensors.add(serial)
                        if serial not in record.watch_events:
                            loc, _ = hooks._user_location(2)
                            record.watch_events[serial] = (rec.next_seq(), loc)
            return result

        return watch

    def _make_stop_recording(self, original: Any) -> Any:
        hooks = self

        @contextlib.contextmanager
        def stop_recording(tape: Any) -> Iterator[None]:
            if not hooks.rec.mine():
                with original(tape):
                    yield
                return
            record = hooks.record_of(tape)
            loc, _ = hooks._user_location(2)  # the user's `with tape.stop_recording():`
            with original(tape):
                if record.spans and record.spans[-1][1] < 0:
                    record.spans[-1][1] = hooks.rec.next_seq()
                start = hooks.rec.next_seq()
                try:
                    yield
                finally:
                    end = hooks.rec.next_seq()
                    hooks.rec.trace.switches.pauses.setdefault(record.id, []).append(
                        (start, end, loc))
                    record.spans.append([end, -1])

        return stop_recording

    def _make_reset(self, original: Any) -> Any:
        hooks = self

        def reset(tape: Any) -> None:
            original(tape)
            if not hooks.rec.mine():
                return
            record = hooks.record_of(tape)
            now = hooks.rec.next_seq()
            open_span = bool(record.spans) and record.spans[-1][1] < 0
            loc, _ = hooks._user_location(2)  # the user's `tape.reset()`: the cut's line
            hooks.rec.trace.switches.resets.setdefault(record.id, []).extend(
                (start, now if end < 0 else end, loc) for start, end in record.spans)
            record.spans.clear()  # what the tape recorded before the reset is forgotten
            if open_span:
                record.spans.append([now, -1])

        return reset

    def _make_differentiator(self, original: Any, method: Method) -> Any:
        hooks = self

        def differentiate(tape: Any, target: Any, sources: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            rec = hooks.rec
            if rec.gradient_depth or rec.busy or not rec.mine():
                # jacobian calls gradient: record the outer call; other threads: not ours
                return original(tape, target, sources, *args, **kwargs)
            hooks.on_sources(sources, sys._getframe(1))
            call = hooks._begin_call(tape, method, target, sources, args, kwargs)
            if call is not None:
                rec.attach()  # a new call site, even on a tape made while detached
            rec.gradient_depth += 1
            try:
                if call is not None:  # its backward ops may take the fast path (backward.py)
                    rec.backward.current = backward.begin(rec, hooks.record_of(tape), method)
                result = original(tape, target, sources, *args, **kwargs)
            except BaseException as error:
                if call is not None:
                    witness.note_raised(rec, call, error)
                raise
            finally:
                rec.gradient_depth -= 1
                backward.flush(rec)
                rec.backward.current = None
            if not tfp.tape_flags(tape)[0]:
                hooks._pending.discard(tape)  # a non-persistent tape's ops are all used up
            if call is None:  # this site was analysed: look at the results only (cheap)
                hooks._check_later_run(tape, method, result, sources)
                hooks._maybe_detach()
            else:
                hooks._note_results(call, result, sources)
                hooks.moved.start(hooks._keys[call.id], call, sources, result)
                if (call.keras_fit and hooks.on_fit_analysed is not None
                        and hooks.book.analysed.get(hooks._keys[call.id], 0)
                        >= hooks.max_steps):
                    hooks.on_fit_analysed()
                hooks._maybe_detach()
            if not tfp.tape_flags(tape)[0] and tfp.tape_set_is_empty():
                rec.value_ops.clear()  # no tape holds those tensors any more
            return result

        differentiate.__name__ = method
        return differentiate

    def _begin_call(self, tape: Any, method: Method, target: Any, sources: Any,
                    args: tuple[Any, ...], kwargs: dict[str, Any]) -> GradientCallRecord | None:
        rec = self.rec
        record = self.record_of(tape)
        loc, user = self._user_location(3)
        chain = frames.library_chain(sys._getframe(2))
        keras_fit = any(m.startswith(_FIT_MODULES) for m, _ in chain)
        site = (loc.file if loc else "?", loc.line if loc else 0, method)
        first = self.book.first.get(site)
        if first is not None:
            first.calls += 1  # the first record counts every run of its call site
            first.threads.add(rec.thread_number())
            if first.calls == 2 and first.id in self._keys:  # the run right after it
                first.remade += [(2, i) for i in remade_sources(
                    first.sources, self._keys[first.id][1], sources, rec.trace.handle_created)]
        key = self.book.canonical(site, sources_key(sources))
        if not self.book.decide(site, key, tape in self._recorded, record.creation_site):
            return None
        mode = unconnected_mode(method, args, kwargs)
        with rec.quiet():
            targets = tuple(rec.ids.hold(t) for t in flatten(target) if hasattr(t, "dtype"))
            sources_list = [source_record(self.rec, s) for s in flatten(sources)]
        call = GradientCallRecord(
            f"grad{len(rec.trace.gradient_calls) + 1}", record.id, method, loc, rec.next_seq(),
            targets, "loss" if keras_fit else frames.argument_text(loc, 0) or "target",
            sources_list, mode, keras_fit=keras_fit, site=(site[0], site[1]),
            in_function=not tfp.executing_eagerly(), target_value=target_value(target),
        )
        if not keras_fit:
            names = frames.argument_names(loc, 1)
            for source, name in zip(call.sources, names, strict=False):
                if source.kind == "tensor" and name:
                    source.name = name
        rec.trace.gradient_calls.append(call)
        self._keys[call.id] = (site, key)
        self.book.note(site, key, call)
        if self.book.first[site] is call:
            call.threads.add(rec.thread_number())
        with rec.quiet():
            rec.note_trainable()
        if record.creation_site is not None:
            done = self._site_done.get(record.creation_site, 0)
            self._site_done[record.creation_site] = done + 1
        return call

    def _note_results(self, call: GradientCallRecord, result: Any, sources: Any) -> None:
        weight_values.note_results(self.rec, call, result, sources)

    def _site_saturated(self, record: TapeRecord, made: bool = False) -> bool:
        """Return True when tapes made where ``record``'s was made were analysed enough already.

        ``made``: asked as the tape is made. A tape made while a ``tf.function`` is traced
        (graph mode) records anyway, up to a bound: a step shared by several models is traced
        once per model and never again, so its later traces are the only chance to see the
        other models' passes (the cost is paid at trace time, not per step).
        """
        site = record.creation_site
        if site is None or site in self.book.wanted:
            return False
        if self._site_done.get(site, 0) < self.max_steps:
            return False
        if made and record.graph and self.rec.graphs.enabled:
            traced = self._traced.get(site, 0)
            if traced < MAX_SOURCE_SETS * self.max_steps:
                self._traced[site] = traced + 1
                return False
        return True

    def _maybe_detach(self) -> None:
        """Stop per-op recording once every site was analysed and no persistent tape is alive.

        A persistent tape stays pending (a PINN differentiates it again); new sites re-attach.
        """
        graphs = self.rec.graphs
        if (not self._pending and self._site_done and not graphs.pending
                and not graphs.probes.armed
                and all(n >= self.max_steps for n in self._site_done.values())):
            self.rec.detach()
            if self.on_detached is not None:
                self.on_detached()

    def _check_later_run(self, tape: Any, method: Method, result: Any,
                         sources: Any = None) -> None:
        """Look at the result of a run that was not analysed (cheap: no op was recorded).

        A None the analysed run did not get (a loop that replaced a variable by a tensor) has
        the site analysed once more, at its next run (its tape attaches the recorder again).
        """
        loc, _ = self._user_location(3)
        site = (loc.file if loc else "?", loc.line if loc else 0, method)
        self.rec.graphs.probes.rearm(site, flatten(result))  # a retrace of a probed call
        if self.moved.watches:
            self.moved.run((site, self.book.canonical(site, sources_key(sources))), result)
        known = self._tapes.get(tape)
        if self.book.later_run(site, flatten(result), sources, known.id if known else None):
            creation = self.record_of(tape).creation_site
            if creation is not None:
                self._site_done[creation] = self._site_done.get(creation, 1) - 1
