"""The Keras door: ``model.fit(..., callbacks=[tapemagic.keras.GradientCheck()])``.

Imports Keras (and so TensorFlow). ``import tapemagic`` does not import this module:
``tapemagic.keras`` is loaded on first use (the package's ``__getattr__``). The callback is a
thin wrapper over :func:`tapemagic.gradcheck`: the check runs around the first train steps of a
``fit`` (the calls of ``model.train_function``), then every patch is undone and the later steps
run as a plain ``fit`` runs them.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any, Literal

import keras

from tapemagic.api import Check, GradcheckError, gradcheck
from tapemagic.locations import CellMap
from tapemagic.report.model import Report

__all__ = ["GradientCheck"]

OnCut = Literal["warn", "raise", "stop"]
_ON_CUT: tuple[str, ...] = ("warn", "raise", "stop")
#: Severities that make a cut: an info finding is a remark, never a reason to stop training.
_CUT_SEVERITIES = frozenset({"warning", "error"})


class GradientCheck(keras.callbacks.Callback):  # type: ignore[misc]
    """Check that the first train steps of ``fit`` reach every trainable weight.

    What it reports: for the first ``steps`` train steps of each ``fit`` it is passed to, the
    same analysis as ``%%gradcheck`` (compiled loss or custom ``train_step``, ``jit_compile``,
    a ``tf.distribute`` strategy): for each weight the verdict, and for each cut weight the op
    or API that cut it, with its line and a fix. Correct training prints nothing.

    What it changes: while the checked steps run, ``model.train_function`` is wrapped and the
    tracing hooks of :func:`tapemagic.gradcheck` are installed (op callbacks, a few
    ``GradientTape``/tensor methods). After the last checked step, or when ``fit`` raises or
    ends, all of it is undone and ``model.train_function`` is the function ``fit`` would have
    used; later steps cost a plain step. A ``fit`` whose train function was already traced
    (an earlier ``fit`` of the model) traces a fresh copy for the checked steps, once, because
    graph mode analyses the ops TensorFlow reports while it traces. With ``steps`` > 1, a
    check that Ctrl-C or another callback's exception interrupts between two checked steps is
    closed when the IPython cell ends (in a script: at the next ``fit`` with this callback).

    On a cut (a finding of severity warning or error): the text report goes to stderr (or to
    ``logger``), the JSON report to ``json_path`` if given, then ``on_cut`` applies. When
    ``fit`` itself raises in a checked step ("No gradients provided for any variable", for
    instance), the report is printed and written the same way and the exception propagates
    unchanged (``on_cut`` does not replace it).

    In the logs: each epoch that ends after the check adds ``gradcheck_cuts``, the number of
    weights cut in the checked steps (0 on a correct fit), to the epoch's logs, so
    ``History``, ``CSVLogger``, TensorBoard and other loggers show it. Keras hands the same
    logs to its callbacks in list order (``History`` last): list ``GradientCheck`` before the
    loggers that should see it.

    Parameters
    ----------
    steps : int
        Train steps to check at the start of each ``fit`` (at least 1; with
        ``steps_per_execution=k`` the check ends after the call that ran the ``steps``-th).
    on_cut : {"warn", "raise", "stop"}
        ``"warn"`` (default) reports and trains on; ``"raise"`` raises :class:`GradcheckError`
        (its ``report`` attribute holds the report) out of ``fit`` after the checked steps;
        ``"stop"`` sets ``model.stop_training = True`` (the epoch ends after this step).
    json_path : str or os.PathLike, optional
        Where to write the JSON report (``report.schema.json``) each time a check ends, cut or
        not, so CI can keep it. Relative paths are resolved when the callback is made.
    logger : logging.Logger or str, optional
        Send the text report to this logger (or the logger of this name) as one record, level
        ERROR when a finding is an error, else WARNING, instead of printing it to stderr.

    Attributes
    ----------
    report : Report or None
        The report of the last check (None before the first check ended).

    Raises
    ------
    ValueError
        If ``steps`` < 1 or ``on_cut`` is not one of the choices.

    Examples
    --------
    >>> from tapemagic.keras import GradientCheck                   # doctest: +SKIP
    >>> model.fit(x, y, epochs=5, callbacks=[GradientCheck(on_cut="raise")])
    """

    def __init__(self, steps: int = 1, *, on_cut: OnCut = "warn",
                 json_path: str | os.PathLike[str] | None = None,
                 logger: logging.Logger | str | None = None) -> None:
        super().__init__()
        if not isinstance(steps, int) or steps < 1:
            raise ValueError(f"GradientCheck(steps=...) must be an int >= 1, got {steps!r}")
        if on_cut not in _ON_CUT:
            raise ValueError(f"GradientCheck(on_cut=...) must be one of "
                             f"{', '.join(map(repr, _ON_CUT))}, got {on_cut!r}")
        self.steps = steps
        self.on_cut: OnCut = on_cut
        # the training script may chdir before the check ends (the CLI resolves --json too)
        self.json_path = os.path.abspath(json_path) if json_path is not None else None
        self.logger = logging.getLogger(logger) if isinstance(logger, str) else logger
        self.report: Report | None = None
        self._block: contextlib.AbstractContextManager[Check] | None = None
        self._check: Check | None = None
        # the model whose train_function is wrapped, and the function fit would have used
        self._wrapped: tuple[Any, Callable[..., Any]] | None = None
        self._steps_run = 0
        self._unhook: Callable[[], None] | None = None

    # -- Keras hooks ------------------------------------------------------------------------
    def on_train_begin(self, logs: Any = None) -> None:
        """Wrap ``model.train_function`` so the check starts with the first train step."""
        if self._block is not None:
            # An earlier fit raised between two checked steps (in another callback): its
            # check is still open. Close it now; its partial report is not shown.
            self._end(None)
        self._restore()
        self.report = None
        self._steps_run = 0
        model = self.model
        original = model.train_function
        if original is None:  # fit makes it before on_train_begin; a caller may not have
            model.make_train_function()
            original = model.train_function
        checked = original
        if _maybe_traced(original):
            # graph mode analyses what TensorFlow reports while tracing: a function traced by
            # an earlier fit would run without being traced again, so trace a fresh copy
            model.make_train_function(force=True)
            checked = model.train_function
        self._wrapped = (model, original)
        model.train_function = self._wrap(checked)

    def on_train_end(self, logs: Any = None) -> None:
        """End a check that ``fit`` ended before ``steps`` steps ran (short data, a stop)."""
        self._restore()
        if self._block is not None:
            self._end(None)
            self._act(in_step=False)

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        """Add ``gradcheck_cuts`` (weights cut in the checked steps) to the epoch's logs."""
        if logs is not None and self.report is not None:
            logs["gradcheck_cuts"] = cut_weights(self.report)

    # -- the check ---------------------------------------------------------------------------
    def _wrap(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        def checked_train_function(iterator: Any) -> Any:
            __tracebackhide__ = True
            if self._block is None:
                self._start()
            try:
                logs = inner(iterator)
            except BaseException as error:
                # the user's exception goes on unchanged; the report says what cut the path
                self._restore()
                try:
                    self._end(error)
                    self._emit_if_cut(failed=True)
                except Exception as failure:  # noqa: BLE001 - the user's error comes first
                    warnings.warn(f"tapemagic GradientCheck failed: {type(failure).__name__}: "
                                  f"{failure}", RuntimeWarning, stacklevel=2)
                raise
            self._steps_run += _steps_per_call(self.model)
            if self._steps_run >= self.steps:
                self._restore()
                self._end(None)
                self._act(in_step=True)
            return logs

        return checked_train_function

    def _start(self) -> None:
        block = gradcheck(max_steps=self.steps, cells=_notebook_cells())
        try:
            self._check = block.__enter__()
        except Exception as error:  # noqa: BLE001 - training goes on, unchecked
            warnings.warn(f"tapemagic could not start its gradient check, training goes on "
                          f"unchecked: {type(error).__name__}: {error}", RuntimeWarning,
                          stacklevel=3)
            self._restore()
            return
        self._block = block
        self._close_with_the_cell()

    def _close_with_the_cell(self) -> None:
        """In IPython, end a check the cell left open when the cell ends.

        With ``steps`` > 1 the check spans several train steps; a Ctrl-C or another callback's
        exception between two of them ends ``fit`` with no hook of this callback running. The
        kernel lives on, so the check must not stay installed into the next cells.
        """
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None or self.steps == 1:  # one step: the step itself always ends it
            return

        def close(result: Any = None) -> None:
            self._unhook = None
            with contextlib.suppress(ValueError):
                shell.events.unregister("post_run_cell", close)
            if self._block is not None:
                self._restore()
                self._end(None)
                self._emit_if_cut(failed=True)

        shell.events.register("post_run_cell", close)
        self._unhook = lambda: shell.events.unregister("post_run_cell", close)

    def _end(self, error: BaseException | None) -> None:
        """Leave the gradcheck block (every patch undone) and keep its report."""
        block, self._block = self._block, None
        unhook, self._unhook = self._unhook, None
        if unhook is not None:
            with contextlib.suppress(ValueError):
                unhook()
        if block is None:
            return
        if error is None:
            block.__exit__(None, None, None)
        else:
            block.__exit__(type(error), error, error.__traceback__)
        self.report = self._check.report if self._check is not None else None
        self._check = None

    def _restore(self) -> None:
        """Put back the train function ``fit`` would have used."""
        if self._wrapped is not None:
            model, original = self._wrapped
            model.train_function = original
        self._wrapped = None

    def _act(self, in_step: bool) -> None:
        """Report a cut, then warn, raise or stop as ``on_cut`` says."""
        if not self._emit_if_cut(failed=False, stopping=in_step and self.on_cut == "stop"):
            return
        report = self.report
        assert report is not None
        if self.on_cut == "stop":
            self.model.stop_training = True
        elif self.on_cut == "raise":
            count = sum(f.severity in _CUT_SEVERITIES for f in report.findings)
            raise GradcheckError(f"tapemagic GradientCheck: {count} finding(s) in the first "
                                 f"{self._checked()}: {report.headline}", report)

    def _checked(self) -> str:
        """Name the steps the check covered: ``steps``, or fewer when fit ended before."""
        count = min(self.steps, self._steps_run) or 1
        return "train step" if count == 1 else f"{count} train steps"

    def _emit_if_cut(self, failed: bool, stopping: bool = False) -> bool:
        """Write the JSON report; print or log the text one on a cut. Return True on a cut.

        ``failed``: fit raised in the checked step (an unwritable ``json_path`` then warns
        instead of raising, so the user's exception stays the one fit raises).
        """
        report = self.report
        if report is None:
            return False
        if self.json_path is not None:
            try:
                _write_json(report, self.json_path)
            except OSError as error:
                if not failed:
                    raise
                warnings.warn(f"tapemagic could not write the JSON report to "
                              f"{self.json_path}: {error}", RuntimeWarning, stacklevel=2)
        if not is_cut(report):
            return False
        from tapemagic.report.text import render_text

        head = f"tapemagic GradientCheck: the gradient path is cut in the first {self._checked()}"
        if stopping:
            head += " (on_cut='stop': training stops after this step)"
        text = f"{head}\n{render_text(report)}"
        if self.logger is not None:
            self.logger.log(logging.ERROR if report.has_errors else logging.WARNING, "%s",
                            text.rstrip("\n"))
        else:
            print(text, end="", file=sys.stderr, flush=True)
        return True


def is_cut(report: Report) -> bool:
    """Return True when a finding of ``report`` is a warning or an error (a cut to act on)."""
    return any(f.severity in _CUT_SEVERITIES for f in report.findings)


def cut_weights(report: Report) -> int:
    """Return how many weights ``report`` finds cut by a warning or an error (0: none).

    A weight counts once, however many gradient calls or findings name it; a weight with no
    gradient by design (no finding, or only an info one) does not count.
    """
    cuts = [f for f in report.findings if f.severity in _CUT_SEVERITIES]
    ids = {f.id for f in cuts}
    weights = {s.variable for c in report.gradient_calls for s in c.sources
               if s.verdict != "connected" and ids.intersection(s.finding_ids)}
    return len(weights | {v for f in cuts for v in f.variables})


def _notebook_cells() -> CellMap | None:
    """Map IPython's compiled cell files to their ``In[N]`` (None outside IPython).

    The report then places a cut at ``In[N], line L``, as ``%%gradcheck`` does, instead of at
    the cell's temporary file name.
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    from tapemagic.cell_runner import cell_map

    return cell_map(shell, {}, None, None)


def _steps_per_call(model: Any) -> int:
    """Return how many train steps one ``train_function`` call runs (``steps_per_execution``)."""
    try:
        return max(1, int(getattr(model, "steps_per_execution", 1) or 1))
    except (TypeError, ValueError):  # not a number (a future "auto"): count calls
        return 1


def _write_json(report: Report, path: str) -> None:
    payload = json.dumps(report.to_json(), indent=1, ensure_ascii=False)
    with open(path, "w", encoding="utf-8") as out:
        out.write(payload + "\n")


def _maybe_traced(function: Any) -> bool:
    """Tell whether a Keras train function may have been traced already (True when unsure).

    Keras 3's TensorFlow trainer returns a closure over the ``tf.function`` objects it made
    (``_make_function`` in keras/src/backend/tensorflow/trainer.py); each one counts its traces
    (``experimental_get_tracing_count``). A ``run_eagerly`` model has none: a fresh copy of its
    plain Python function costs nothing.
    """
    counts = []
    for cell in getattr(function, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # a cell not filled yet
            continue
        count = getattr(value, "experimental_get_tracing_count", None)
        if callable(count):
            counts.append(int(count()))
    return not counts or any(counts)
