"""One traced run: install every hook, run the user's code, undo every hook, keep the trace.

Imports TensorFlow. :class:`TraceSession` is a context manager; whatever happens inside it
(an exception, ``KeyboardInterrupt``, a nested session), ``__exit__`` removes each patch in
reverse order, restores ``tf.config.functions_run_eagerly()``, and turns the recorder into a
TF-free :class:`~tapemagic.trace.Trace`. Op callbacks are thread-local in TensorFlow, so only
the thread that entered the session is traced; the class-level patches check the thread too, so
other threads' ops, conversions and tapes never reach the report.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import tensorflow as tf

from tapemagic import frames, heap
from tapemagic.trace import Trace
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import keras_state, naming, seeding, symbolic, witness
from tapemagic.tracing.api_freezes import ApiFreezes
from tapemagic.tracing.compiled import TRAINER_MODULE, CompileHooks
from tapemagic.tracing.foreign import ForeignThreads
from tapemagic.tracing.hooks import HostHooks
from tapemagic.tracing.imports import after_import
from tapemagic.tracing.initializers import InitializerHooks
from tapemagic.tracing.layer_sites import LayerSiteHooks
from tapemagic.tracing.recorder import Recorder
from tapemagic.tracing.results import arrays_in
from tapemagic.tracing.tapes import TapeHooks
from tapemagic.tracing.tracking import TrackingHooks
from tapemagic.tracing.unfreeze import UnfreezeHooks

_EAGER_DATA_WARNING = "Even though the `tf.config.experimental_run_functions_eagerly`"
#: TensorFlow's own setter, taken before any session patches it: a session in another thread
#: must not call the first session's "remember" stand-in (it would change what that one
#: restores).
_SET_RUN_EAGERLY = tfp.run_functions_eagerly_module.run_functions_eagerly

class _Active(threading.local):
    """Sessions in progress on each thread; a nested session leaves the outer one in charge."""

    def __init__(self) -> None:
        self.sessions: list[TraceSession] = []

    def __iter__(self) -> Iterator[TraceSession]:
        return iter(self.sessions)


_ACTIVE = _Active()


class TraceSession:
    """Trace the code run inside ``with TraceSession() as session:``; read ``session.trace`` after.

    Parameters
    ----------
    force_eager : bool
        Run ``tf.function`` bodies and Keras ``fit`` steps eagerly so every op is visible
        (``tf.config.run_functions_eagerly(True)``, restored on exit). When False (graph
        mode) they run as written and are analysed from the ops TensorFlow reports while it
        traces them (``op_callbacks`` with a ``graph`` argument), each call tied to its trace.
    max_steps : int
        How many runs of each gradient call site (and each Keras train step) to analyse.
    on_analysed : callable, optional
        Called once, with a view of the trace so far (:func:`tapemagic.tracing.preview.
        snapshot`), when a Keras ``fit``'s checked steps were analysed and their values read,
        while ``fit`` trains on: a door shows the report then. Its errors are warnings.
    """

    def __init__(self, force_eager: bool = False, max_steps: int = 1,
                 on_analysed: Callable[[Trace], None] | None = None) -> None:
        self.force_eager = force_eager
        self.max_steps = max_steps
        self.on_analysed = on_analysed
        self.recorder = Recorder()
        self.recorder.trace.forced_eager = force_eager
        self.recorder.graphs.enabled = not force_eager
        self.trace: Trace | None = None
        self.nested = False
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> TraceSession:
        active = _ACTIVE.sessions
        if active:
            # A cell that calls code which itself uses gradcheck: the outer session already
            # sees every op; a second set of patches would record everything twice. The inner
            # block gets a view of the outer trace with its own gradient calls.
            self.nested = True
            self._outer = active[-1]
            self._first_call = len(self._outer.recorder.trace.gradient_calls)
            return self
        stack = self._stack
        seeding.seed_from_env()  # a verification re-run: the same weights in every re-run
        try:
            rec = self.recorder
            rec.thread = threading.get_ident()  # the one thread whose ops and hooks count
            self._patch_attr(stack, frames, "entering_thread", rec.thread)
            rec.attach()
            stack.callback(rec.detach)
            threads = ForeignThreads(rec)  # threads the user's code starts (a thread pool)
            threads.install()
            stack.callback(threads.remove)
            host = HostHooks(rec)
            host.install()
            stack.callback(host.remove)
            tapes = TapeHooks(rec, self.max_steps, self._fit_analysed)
            tapes.on_detached = self._detached
            tapes.install()
            stack.callback(tapes.remove)
            tapes.moved.install()
            stack.callback(tapes.moved.remove)
            stack.callback(tapes.moved.finish)  # the weights that did not move: read once
            # a traced step can keep a stale source list (with --eager too: fit resumes graph
            # mode once its first steps were analysed)
            initializers = InitializerHooks(rec)
            initializers.install()
            stack.callback(initializers.remove)
            sites = LayerSiteHooks(rec.thread)
            stack.callback(sites.remove)
            # now, or once Keras' Layer exists: a script's `import keras` starts the check
            # half-way, before any layer is made (their sites were never noted)
            stack.callback(after_import(keras_state.LAYER_MODULE, sites.install))
            unfreeze = UnfreezeHooks(rec)
            stack.callback(unfreeze.remove)
            # Keras' tracking of the weights (a freeze before any step counts)
            tracking = TrackingHooks(rec)
            tapes.on_sources = functools.partial(_on_sources, unfreeze, tracking)
            unfreeze.on_frozen = tracking.frozen
            # what Keras APIs froze (load_model, quantize); the user's reads of the flag
            tracking.api = api_freezes = ApiFreezes(rec)
            unfreeze.on_touched = api_freezes.touched
            stack.callback(api_freezes.remove)
            stack.callback(after_import(keras_state.LAYER_MODULE, api_freezes.install))
            # now, or once Keras' Layer exists (`import keras` imports TensorFlow half-way)
            stack.callback(after_import(keras_state.LAYER_MODULE, unfreeze.install))
            stack.callback(tracking.finish)
            compiles = CompileHooks(rec)  # the outputs a compile gave no loss
            compiles.on_compiled = api_freezes.compiled  # a new training stage after a load
            stack.callback(compiles.remove)
            stack.callback(after_import(TRAINER_MODULE, compiles.install))
            if self.force_eager:
                self._patch_function_call(stack)
            else:
                # Graph mode wraps no function call (a wrapper's frame would show in the
                # user's tracebacks): the recorder sees each call op and ties it to its trace.
                self._patch_attr(stack, frames, "remap_generated", tfp.autograph_origin)
            # the magic's own frames stay out of the "defined at" stacks of the user's ops
            stack.callback(tfp.hide_from_op_tracebacks(_own_files()))
            # and out of the "in user code:" frames of an error raised in a traced step
            stack.callback(tfp.hide_from_filtered_tracebacks(_own_root()))
            watcher = tfp.VariableWatcher()
            stack.enter_context(watcher)
            if self.force_eager:
                self._force_eager(stack)
            stack.enter_context(heap.frozen())  # the records made for each op
        except BaseException:
            stack.close()
            raise
        active.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.nested:
            self.trace = _snapshot(self._outer.recorder, self._first_call)
            symbolic.name_unreached_sources(self.trace)
            return None
        try:
            self._stack.close()
        finally:
            if self in _ACTIVE.sessions:
                _ACTIVE.sessions.remove(self)
            rec = self.recorder
            rec.trace.versions = {
                "tensorflow": tfp.tf_version(),
                "keras": keras_state.keras_version() or "",
                "python": sys.version.split()[0],
            }
            self.trace = rec.finish()
            symbolic.name_unreached_sources(self.trace)
        return None

    def _force_eager(self, stack: contextlib.ExitStack) -> None:
        """Run functions eagerly for the run; afterwards keep what the user's code asked for.

        A ``tf.config.run_functions_eagerly(x)`` the cell itself calls is remembered (not
        applied while tracing, which needs eager mode) and is the value left in force at exit.
        """
        setter = _SET_RUN_EAGERLY
        wish = [tf.config.functions_run_eagerly()]
        setter(True)
        self._restore_eager = lambda: setter(wish[0])

        def remember(run_eagerly: bool) -> None:
            wish[0] = bool(run_eagerly)

        self._patch_attr(stack, tf.config, "run_functions_eagerly", remember)
        self._patch_attr(stack, tfp.run_functions_eagerly_module, "run_functions_eagerly",
                         remember)
        stack.callback(lambda: setter(wish[0]))
        self._quiet_eager_warning(stack)

    def _fit_analysed(self) -> None:
        """Let ``fit`` go on as the user's code would once its train steps were analysed.

        The first ``max_steps`` steps ran eagerly and were traced; the rest of the epochs run
        in graph mode again (as without tapemagic), instead of eagerly at several times the cost.
        """
        restore = getattr(self, "_restore_eager", None)
        if restore is not None and not self.recorder.trace.fit_resumed_graph:
            restore()
            self.recorder.trace.fit_resumed_graph = True

    def _detached(self) -> None:
        """Every site was analysed and its values read: once, for a fit, hand over a view."""
        hook = self.on_analysed
        if hook is None or self.nested or not any(
                call.keras_fit for call in self.recorder.trace.gradient_calls):
            return
        self.on_analysed = None
        from tapemagic.tracing.preview import snapshot

        try:
            hook(snapshot(self.recorder))
        except Exception as error:  # noqa: BLE001 - the user's training goes on regardless
            warnings.warn(f"tapemagic could not show its report early: "
                          f"{type(error).__name__}: {error}", RuntimeWarning, stacklevel=2)

    @staticmethod
    def _patch_attr(stack: contextlib.ExitStack, owner: Any, name: str, value: Any) -> None:
        original = getattr(owner, name)
        setattr(owner, name, value)
        stack.callback(setattr, owner, name, original)

    @staticmethod
    def _quiet_eager_warning(stack: contextlib.ExitStack) -> None:
        # Forcing eager mode makes tf.data warn that it stays in graph mode; the user's cell
        # would not print that without tapemagic, so hide exactly that warning, and remove
        # exactly our filter afterwards (catch_warnings would also undo the user's own filters).
        warnings.filterwarnings("ignore", message=_EAGER_DATA_WARNING, category=UserWarning)
        entry = warnings.filters[0]

        def remove() -> None:
            filters: list[Any] = warnings.filters  # type: ignore[assignment]
            if entry in filters:
                filters.remove(entry)
                getattr(warnings, "_filters_mutated", lambda: None)()

        stack.callback(remove)

    def _patch_function_call(self, stack: contextlib.ExitStack) -> None:
        rec, session = self.recorder, self
        cls = tfp.Function
        original: Callable[..., Any] = cls.__call__

        def __call__(function: Any, *args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            if not rec.mine():  # another thread's call: not ours to count
                return original(function, *args, **kwargs)
            rec.function_depth += 1
            rec.trace.function_calls += 1
            # NumPy arguments that graph mode would convert (a failed watch of one is --eager's)
            arrays = arrays_in((args, kwargs)) if session.force_eager else []
            rec.function_arrays += arrays
            try:
                return original(function, *args, **kwargs)
            except Exception as error:
                if arrays:  # graph mode would have converted them: the report says so
                    rec.trace.eager_array_errors.add(id(error))
                raise
            finally:
                rec.function_depth -= 1
                for item in arrays:
                    rec.function_arrays.remove(item)

        cls.__call__ = __call__  # type: ignore[method-assign]
        stack.callback(setattr, cls, "__call__", original)


def _on_sources(unfreeze: UnfreezeHooks, tracking: TrackingHooks, sources: Any,
                frame: Any) -> None:
    """Tell the hooks of a gradient call's sources (None: a tape of Keras' own train step)."""
    if sources is not None and not tfp.executing_eagerly():  # a step being traced
        unfreeze.note_gradient(sources, frame)
    tracking.note(sources, frame)


def _snapshot(rec: Recorder, first_call: int) -> Trace:
    """Return a finished copy of the trace so far, with the gradient calls from ``first_call``.

    For a nested check: the outer run goes on recording, so nothing is released here.
    """
    import copy

    witness.note(rec)  # while the attrs are held (the outer check goes on)
    trace = copy.copy(rec.trace)
    trace.ops = list(rec.trace.ops)
    trace.host_events = list(rec.trace.host_events)
    trace.gradient_calls = rec.trace.gradient_calls[first_call:]
    trace.handle_names = naming.name_handles(rec.handle_objects, rec.variables_seen,
                                             rec.scope_callers)
    trace.api_labels = {k: naming.api_label(k, g) for k, g in rec.api_frames.items()}
    trace.versions = {"tensorflow": tfp.tf_version(), "keras": keras_state.keras_version() or "",
                      "python": sys.version.split()[0]}
    return trace


@functools.lru_cache(maxsize=1)
def _own_root() -> str:
    """Return the tapemagic package's folder, with a trailing separator."""
    import os

    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "")


def _own_files() -> frozenset[str]:
    """Return the source files of the tapemagic package (as code objects name them)."""
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return frozenset(os.path.join(folder, name) for folder, _, names in os.walk(root)
                     for name in names if name.endswith(".py"))
