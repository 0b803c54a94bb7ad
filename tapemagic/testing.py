"""The door for test suites: a block that fails when a weight it trains gets no gradient.

TF-free until a check starts (through :func:`tapemagic.gradcheck`). Use
:func:`assert_gradients_connected` directly, or through the pytest plugin
(:mod:`tapemagic.pytest_plugin`: the ``gradients_connected`` fixture and marker).
"""

from __future__ import annotations

import contextlib
import fnmatch
from collections.abc import Iterable, Iterator

from tapemagic.api import Check, gradcheck
from tapemagic.report.model import Report

__all__ = ["GradientsDisconnected", "assert_gradients_connected", "disconnected"]


class GradientsDisconnected(AssertionError):
    """Raised when a gradient call of the block left a weight without a gradient.

    The message lists the weights, then the full text report (where and why each was cut).
    ``report`` holds the :class:`~tapemagic.report.model.Report`.
    """

    def __init__(self, message: str, report: Report | None) -> None:
        super().__init__(message)
        self.report = report


def disconnected(report: Report, allow: Iterable[str] = ()) -> list[str]:
    """Return what is wrong in ``report``, minus the weights ``allow`` lets stay frozen.

    One line per weight whose verdict is not ``connected`` in some gradient call, one per
    error finding naming no weight outside ``allow``'s, and one when no gradient call ran.
    ``allow`` holds weight names or ``fnmatch`` patterns (``"encoder/*"``).
    """
    patterns = tuple(allow)

    def allowed(name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    problems: list[str] = []
    for call in report.gradient_calls:
        for source in call.sources:
            if source.verdict != "connected" and not allowed(source.variable):
                where = call.location.label if call.location is not None else call.id
                problems.append(f"`{source.variable}`: {source.verdict} ({source.result}) in "
                                f"the gradient call at {where}")
    for finding in report.findings:
        if finding.severity == "error" and (not finding.variables or not all(
                allowed(v) for v in finding.variables)) and not finding.gradient_calls:
            problems.append(f"{finding.rule} {finding.name}: {finding.message}")
    if not report.gradient_calls and not problems:
        problems.append("no gradient call ran in the block")
    return problems


@contextlib.contextmanager
def assert_gradients_connected(*, allow: Iterable[str] = (), force_eager: bool | None = None,
                               max_steps: int = 1) -> Iterator[Check]:
    """Run the block under :func:`tapemagic.gradcheck`; fail if a weight gets no gradient.

    Every ``tape.gradient``/``jacobian`` call and Keras ``fit`` step of the block is checked:
    each source must come out *connected* (a non-None, non-zero gradient), except the weights
    named (or matched, ``fnmatch`` patterns) in ``allow``, meant to stay frozen. A block that
    runs no gradient call fails too (the test would check nothing).

    Parameters
    ----------
    allow : iterable of str
        Weight names (Keras ``path`` such as ``"encoder/dense/kernel"``, or ``tf.Variable``
        names without ``:0``) or patterns (``"encoder/*"``) allowed to get no gradient.
    force_eager, max_steps
        As for :func:`tapemagic.gradcheck`.

    Yields
    ------
    Check
        Its ``report`` is set when the block ends.

    Raises
    ------
    GradientsDisconnected
        (an ``AssertionError``) listing the weights and the text report, when a weight is cut.
        An exception of the block itself propagates unchanged instead.

    Examples
    --------
    >>> with tapemagic.assert_gradients_connected(allow=["backbone/*"]):  # doctest: +SKIP
    ...     with tf.GradientTape() as tape:
    ...         loss = loss_fn(y, model(x))
    ...     tape.gradient(loss, model.trainable_variables)
    """
    __tracebackhide__ = True
    with gradcheck(force_eager=force_eager, max_steps=max_steps) as check:
        yield check
    report = check.report
    if report is None:
        raise GradientsDisconnected("tapemagic could not build its report", None)
    problems = disconnected(report, allow)
    if problems:
        from tapemagic.report.text import render_text

        head = "gradients not connected:\n" + "\n".join(f"  - {p}" for p in problems)
        raise GradientsDisconnected(f"{head}\n\n{render_text(report)}", report)
