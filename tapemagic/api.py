"""The function door: ``with tapemagic.gradcheck() as check:`` in scripts and tests.

Imports TensorFlow only when a check starts (through ``tapemagic.tracing``). The magic and the
CLI are thin wrappers over :func:`gradcheck`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from tapemagic.locations import CellMap
from tapemagic.report.model import CellInfo, Report
from tapemagic.trace import Trace

if TYPE_CHECKING:
    from tapemagic.verify import Runner

#: Whether ``tf.function`` and Keras ``fit`` run eagerly for the analysis when no door option
#: says otherwise: the one default behind ``gradcheck(force_eager=...)``, ``%%gradcheck
#: --eager/--graph-mode`` and ``python -m tapemagic run --eager/--graph-mode`` (and their help).
FORCE_EAGER_DEFAULT = False


class GradcheckError(RuntimeError):
    """Raised by ``strict`` checks when the report has at least one error finding.

    Also raised out of ``fit`` by ``tapemagic.keras.GradientCheck(on_cut="raise")`` on a cut.
    ``report`` holds the :class:`~tapemagic.report.model.Report` (None when not given).
    """

    def __init__(self, message: str, report: Report | None = None) -> None:
        super().__init__(message)
        self.report = report


class Check:
    """The result of a :func:`gradcheck` block; ``report`` is set when the block ends.

    Attribute access falls through to the report, so ``check.codes`` and ``check.findings`` work
    like ``check.report.codes``. ``error`` is the exception the block ended with; code that
    catches the traced code's exception itself may set it inside the block, so the report
    names it.
    """

    def __init__(self) -> None:
        self.report: Report | None = None
        self.error: BaseException | None = None
        #: why the code ran unchecked (tracing failed to start), else None
        self.unchecked: str | None = None

    def __getattr__(self, name: str) -> Any:
        report = self.__dict__.get("report")
        if report is None:
            raise AttributeError(f"the gradcheck block has not finished, so it has no {name!r}")
        return getattr(report, name)

    def __repr__(self) -> str:
        if self.report is None:
            return "<tapemagic check in progress>"
        return f"<tapemagic check: {self.report.headline}; findings {self.report.codes}>"


@contextlib.contextmanager
def gradcheck(
    *,
    force_eager: bool | None = None,
    max_steps: int = 1,
    strict: bool = False,
    cells: CellMap | None = None,
    cell: CellInfo | None = None,
    verify_fixes: bool = False,
    runner: Runner | None = None,
    skip_empty: bool = False,
    picture_when: Callable[[Report], bool] | None = None,
    preview: Callable[[Report], None] | None = None,
) -> Iterator[Check]:
    """Trace the block and explain every gradient that comes back None or zero.

    Every ``tf.GradientTape`` gradient/jacobian call and Keras ``fit`` train step run inside
    the block is analysed: for each (loss, weight) the verdict, and for each severed weight the
    op or API that cut it, with its line and a quick fix from the rule catalog. What it changes
    while the block runs: TensorFlow op callbacks, a few ``EagerTensor``/``GradientTape``/
    ``ResourceVariable`` methods, ``tf.numpy_function``'s eager path, and, when
    ``force_eager``, ``tf.config.run_functions_eagerly(True)`` so ``tf.function`` and ``fit``
    bodies are visible.
    All of it is undone when the block ends, also on an exception or KeyboardInterrupt.
    Tracing is per thread (TensorFlow op callbacks are thread-local).

    Parameters
    ----------
    force_eager : bool, optional
        Run ``tf.function`` and ``fit`` eagerly for the analysis; None (the default) means
        :data:`FORCE_EAGER_DEFAULT`.
    max_steps : int
        Runs of each gradient call site to analyse (a training loop repeats one site).
    strict : bool
        Raise :class:`GradcheckError` after the block when a finding has severity ``error``
        (never when the block itself raised: its exception wins).
    cells, cell : optional
        Filename → cell mapping and what was run (the magic and the CLI fill these).
    verify_fixes : bool
        After the block, re-run the code once per safe/unsafe fix with the fix applied, in a
        fresh subprocess (never in this process: its variables, models and optimizer state
        are not touched), and set each ``fix.verified`` (see :mod:`tapemagic.verify`).
        Without ``runner``, the code re-run is the ``__main__`` script (``sys.argv`` kept).
    runner : tapemagic.verify.Runner, optional
        How to re-run the code (the magic replays the notebook history, the CLI the script).
    skip_empty : bool
        Build no report (``report`` stays None) when the block ran no gradient call and
        ended without an exception: auto mode checks every cell, and most run none.
    picture_when : callable, optional
        Build the report's collapsed graph and DOT only when this returns True for the report
        (without them); None: always. Auto mode passes :func:`tapemagic.auto.has_cut`: a report
        it does not show needs no picture.
    preview : callable, optional
        Called once with the report so far when a Keras ``fit``'s checked steps were analysed
        and ``fit`` trains on (``%%gradcheck`` shows it then, and replaces it with the final
        report when the cell ends). Not called when no ``fit`` runs. Its errors are warnings.

    Yields
    ------
    Check
        Its ``report`` (a :class:`~tapemagic.report.model.Report`) is set when the block ends.

    Raises
    ------
    GradcheckError
        With ``strict=True`` and an error finding.
    ImportError
        When TensorFlow is not installed.

    Examples
    --------
    >>> with tapemagic.gradcheck() as check:                     # doctest: +SKIP
    ...     with tf.GradientTape() as tape:
    ...         loss = tf.reduce_sum(tf.round(w * x))
    ...     grads = tape.gradient(loss, [w])
    >>> check.codes                                               # doctest: +SKIP
    ['TM201']
    """
    from tapemagic.tracing.lazy import LazySession, tensorflow_available

    if not tensorflow_available():
        raise ImportError("tapemagic needs TensorFlow 2.16-2.21: pip install 'tapemagic[cpu]' "
                          "(or tensorflow / tensorflow-cpu)")

    __tracebackhide__ = True
    result = Check()
    # The self-test (once per process) runs after the block, and only once the user's code
    # has started TensorFlow's runtime: run first, it would start the runtime itself, and
    # `tf.config.threading.*` in the block would then raise "cannot be modified after
    # initialization". Each failed hook becomes a note in the report.
    problems: tuple[str, ...] = ()
    if force_eager is None:
        force_eager = FORCE_EAGER_DEFAULT
    eager, steps = force_eager, max_steps

    def start() -> Any:
        try:
            from tapemagic.tracing.session import TraceSession  # imports TensorFlow
        except ImportError as error:
            if not (error.name or "").startswith(("tensorflow", "keras")):
                raise  # tapemagic's own import failed (a broken install): not TensorFlow's
            raise ImportError(
                "tapemagic needs TensorFlow 2.16-2.21: pip install 'tapemagic[cpu]' "
                f"(or tensorflow / tensorflow-cpu) ({error})") from error
        return TraceSession(force_eager=eager, max_steps=steps, on_analysed=None if (
            preview is None) else functools.partial(_preview, preview, cells, cell))

    # Started when the block imports TensorFlow (at once when it is imported already): the
    # code's own environment settings before its import still count, as without tapemagic.
    session = LazySession(start)
    verify = None
    if verify_fixes:
        verify = runner or _main_script(force_eager, max_steps)
    try:
        with session:
            yield result
    except BaseException as error:
        result.error = error
        _finish(result, session, cells, cell, error, problems,
                None if isinstance(error, KeyboardInterrupt) else verify, picture_when)
        raise
    # a door whose runner shows the code's exception itself (the magic, through IPython's
    # run_code) records it in `error` before the block ends: the report still carries it
    if skip_empty and result.error is None and session.start_error is None and (
            session.trace is None or not session.trace.gradient_calls):
        return
    _finish(result, session, cells, cell, result.error, problems, verify, picture_when)
    if strict and result.error is None and result.report is not None \
            and result.report.has_errors:
        count = sum(f.severity == "error" for f in result.report.findings)
        raise GradcheckError(f"gradcheck: {count} error finding(s): {result.report.headline}",
                             result.report)


def _preview(show: Callable[[Report], None], cells: CellMap | None, cell: CellInfo | None,
             trace: Trace) -> None:
    """Build the report of the trace so far and hand it to the door (errors are warnings)."""
    from tapemagic.engine import build_report

    try:
        show(build_report(trace, cells or CellMap(), cell or CellInfo("", "<gradcheck>")))
    except Exception as failure:  # noqa: BLE001 - the user's code goes on regardless
        warnings.warn(f"tapemagic could not show its report early: {type(failure).__name__}: "
                      f"{failure}", RuntimeWarning, stacklevel=2)


def _main_script(force_eager: bool, steps: int) -> Runner | str:
    """Return a runner re-running the ``__main__`` script, or why there is none."""
    from tapemagic.verify import ScriptRunner

    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if not path or not os.path.isfile(path):
        return ("verify_fixes: no script to re-run (the code does not run as a `__main__` "
                "script); the fixes were not verified")
    return ScriptRunner(path, tuple(sys.argv[1:]), force_eager, steps)


def _finish(result: Check, session: Any, cells: CellMap | None, cell: CellInfo | None,
            error: BaseException | None, problems: tuple[str, ...] = (),
            verify: Runner | str | None = None,
            picture_when: Callable[[Report], bool] | None = None) -> None:
    from tapemagic.engine import build_report

    trace = session.trace
    if session.start_error is not None:
        result.unchecked = f"{type(session.start_error).__name__}: {session.start_error}"
        problems += (f"tapemagic could not start tracing: {result.unchecked}",)
    if session.session is None:  # the block never imported TensorFlow: nothing was traced
        trace = Trace(forced_eager=False)
    elif trace is None:
        return
    else:
        from tapemagic.tracing import _tf_private as tfp
        from tapemagic.tracing.selftest import self_test

        # not while an outer check records: it would record the probe's ops as the code's
        if tfp.runtime_started() and not session.session.nested:
            problems = (*self_test(), *problems)
    if isinstance(error, KeyboardInterrupt):
        trace, dropped = _until_last_gradient_call(trace)
        if dropped:
            problems += (f"Interrupted: the report covers the run up to the last analysed "
                         f"gradient call; the {dropped} ops recorded after it were not "
                         "analysed.",)
    try:
        result.report = build_report(trace, cells or CellMap(),
                                     cell or CellInfo("", "<gradcheck>"), error, problems,
                                     picture_when, started=session.start_error is None)
    except Exception as failure:  # noqa: BLE001 - the user's code and error come first
        warnings.warn(f"tapemagic could not build its report: {type(failure).__name__}: "
                      f"{failure}", RuntimeWarning, stacklevel=3)
        return
    if isinstance(verify, str):
        result.report = dataclasses.replace(result.report, notes=(*result.report.notes, verify))
    elif verify is not None:
        from tapemagic.verify import verify_fixes

        result.report = verify_fixes(result.report, verify)


def _until_last_gradient_call(trace: Trace) -> tuple[Trace, int]:
    """Return ``trace`` cut after the last analysed gradient call's ops, and the count cut.

    After a Ctrl-C the user wants control back, and a long eager loop records ops outside the
    analysed tapes up to the recorder's cap (400,000 ops, seconds of analysis). No verdict
    depends on what ran after the last analysed call ended, so the analysis stops there.
    """
    calls = trace.gradient_calls
    last = max((c.seq for c in calls), default=None)
    cut = 0
    for index, op in enumerate(trace.ops):
        if last is not None and (op.seq < last or op.in_gradient):
            cut = index + 1
        else:
            break
    if cut == len(trace.ops):
        return trace, 0
    end = trace.ops[cut].seq
    events = [e for e in trace.host_events if e.seq < end]
    ids = {e.id for e in events}
    kept = dataclasses.replace(
        trace, ops=trace.ops[:cut], host_events=events,
        host_links={leaf: link for leaf, link in trace.host_links.items() if link.event in ids},
        state_writes={seq: w for seq, w in trace.state_writes.items() if seq < end})
    return kept, len(trace.ops) - cut
