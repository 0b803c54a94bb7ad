"""``python -m tapemagic run SCRIPT [ARGS...]``: run a script as ``python SCRIPT`` would, checked.

The script is run with ``runpy`` (``__main__``, its directory first on ``sys.path``, PEP 263
coding line and BOM honoured) inside :func:`tapemagic.gradcheck`; its traceback is printed as
Python prints it (without tapemagic's frames) and the report written by
:class:`~tapemagic.cli.outputs.Outputs`. The exit status is :data:`tapemagic.cli.EXIT_STATUS`.
"""

from __future__ import annotations

import contextlib
import os
import runpy
import sys
import tokenize
import traceback

from tapemagic.cli.outputs import Outputs, Unit
from tapemagic.report.model import Report

__all__ = ["print_traceback", "run_script"]


def _read_source(path: str) -> str:
    """Return the script's text decoded as Python decodes it (PEP 263 coding line, BOM)."""
    try:
        with tokenize.open(path) as handle:
            return handle.read()
    except (SyntaxError, UnicodeDecodeError, LookupError):
        # runpy raises Python's own error for this file when it runs it
        return ""


def run_script(script: str, script_args: list[str], outputs: Outputs, steps: int,
               force_eager: bool, verify_fixes: bool = False) -> int:
    """Run ``script`` checked, write the report where ``outputs`` says; return the exit status."""
    from tapemagic.api import gradcheck
    from tapemagic.locations import CellMap
    from tapemagic.report.model import CellInfo
    from tapemagic.verify import ScriptRunner

    path = os.path.abspath(script)
    cell = CellInfo(source=_read_source(path), filename=path, script=script)
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *script_args]
    sys.path.insert(0, os.path.dirname(path))
    failed = False
    status: int | None = None  # the script's own exit status, when it chose one
    check = None
    try:
        runner = ScriptRunner(path, script_args, force_eager, steps) if verify_fixes else None
        with contextlib.redirect_stdout(outputs.program_stdout), gradcheck(
                force_eager=force_eager, max_steps=steps, cells=CellMap(), cell=cell,
                verify_fixes=verify_fixes, runner=runner, preview=early_summary) as check:
            runpy.run_path(path, run_name="__main__")
    except SystemExit as exit_:
        failed = exit_.code not in (0, None)
        if isinstance(exit_.code, int):
            status = exit_.code
        elif exit_.code is not None:  # sys.exit("message"): Python prints it and exits 1
            print(exit_.code, file=sys.stderr)
    except KeyboardInterrupt as error:
        failed, status = True, 130
        print_traceback(error)
    except BaseException as error:  # noqa: BLE001 - the script's own error, reported below
        failed = True
        print_traceback(error)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    report = check.report if check is not None else None
    if report is None:
        print("tapemagic: no report could be built (see the warning above)", file=sys.stderr)
        return status or 1
    outputs.write([Unit(report, script)], script, successful=not failed)
    if status:
        return status
    unchecked = check.unchecked if check is not None else None
    if not failed and unchecked is not None:
        # a run nothing checked must not pass CI as a clean one
        print(f"tapemagic: the script ran unchecked: {unchecked}", file=sys.stderr)
        return 3
    return 1 if failed or report.has_errors else 0


def early_summary(report: Report) -> None:
    """Print the report so far to stderr, when a fit's checked steps are analysed.

    A short summary (headline, one line per finding), not the report itself: a terminal
    cannot replace text, so the full report is written once, when the script ends. Only on a
    cut (a warning or error finding): a correct fit has nothing to stop for, and its stderr
    stays the script's own.
    """
    if not any(f.severity in ("warning", "error") for f in report.findings):
        return
    lines = [f"tapemagic: the checked train steps were analysed: {report.headline}"]
    lines += [f"  {f.location.where + ': ' if f.location else ''}{f.rule} {f.message}"
              for f in report.findings]
    if report.fit_stops:  # Keras raises "No gradients provided": nothing trains on
        lines.append("tapemagic: Keras stops this fit (no weight gets a gradient); the full "
                     "report is written when the script ends")
    else:
        lines.append("tapemagic: training continues; press Ctrl-C to stop, the full report is "
                     "written when the script ends")
    print("\n".join(lines), file=sys.stderr, flush=True)


def print_traceback(error: BaseException) -> None:
    """Print the script's traceback as ``python SCRIPT`` would: without tapemagic's frames."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    report = traceback.TracebackException.from_exception(error)
    seen: set[int] = set()
    pending = [report]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        current.stack = traceback.StackSummary.from_list([
            frame for frame in current.stack
            if not os.path.abspath(frame.filename).startswith(here)
            and frame.filename != "<frozen runpy>"
        ])
        pending += [c for c in (current.__cause__, current.__context__) if c is not None]
    print("".join(report.format()), end="", file=sys.stderr)
