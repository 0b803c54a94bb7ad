"""The terminal door: ``python -m tapemagic run [OPTIONS] SCRIPT [ARGS...]``.

Runs a script under the same engine as ``%%gradcheck`` and prints the text report. As with
``python -m cProfile`` and ``python -m pdb``, tapemagic's options come before the script path and
everything after it is the script's, verbatim (a ``--`` before the script also ends tapemagic's
options). The script is run as ``python SCRIPT`` runs it (``runpy``: ``__main__``, its directory
first on ``sys.path``, PEP 263 coding line and BOM honoured). The exit status is documented once,
in :data:`EXIT_STATUS`, which ``--help`` prints. ``python -m tapemagic explain TM301`` prints a
rule's documentation.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import runpy
import sys
import tokenize
import traceback

from tapemagic import __version__
from tapemagic.api import FORCE_EAGER_DEFAULT

EXIT_STATUS = """\
exit status:
  0    the script finished and no finding is an error
  1    a finding is an error, or the script raised (its traceback and the report are
       printed, and --json written, all the same)
  N    the script's own non-zero status: sys.exit(N), N != 0, is kept (sys.exit(0)
       with an error finding gives 1, so CI fails on the finding)
  2    usage error (bad option, missing script, unwritable --json destination)
  130  KeyboardInterrupt, as without tapemagic"""
# Options of `run` that take a value: needed to find where the script path is.
_VALUE_OPTIONS = frozenset({"--json", "--steps"})


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tapemagic",
        description="Find where and why TensorFlow gradients are severed, and how to fix it.")
    parser.add_argument("--version", action="version", version=f"tapemagic {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "run", help="run a script under gradcheck and print the report", allow_abbrev=False,
        usage="python -m tapemagic run [OPTIONS] SCRIPT [ARGS...]",
        description="Run SCRIPT as `python SCRIPT ARGS...` would, then print the gradient\n"
                    "report. Options go before SCRIPT; everything after it is the script's.",
        epilog=EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--json", metavar="FILE", help="also write the report as JSON ('-': stdout)")
    run.add_argument("--steps", type=int, default=1, metavar="N",
                     help="runs of each gradient call site to analyse (default 1)")
    mode = run.add_mutually_exclusive_group()
    default = " (default)"
    mode.add_argument("--eager", dest="force_eager", action="store_true",
                      default=FORCE_EAGER_DEFAULT,
                      help="run tf.function and fit eagerly for the analysis, so every op is "
                           f"visible{default if FORCE_EAGER_DEFAULT else ''}")
    mode.add_argument("--graph-mode", dest="force_eager", action="store_false",
                      help="leave tf.function and fit in graph mode"
                           f"{'' if FORCE_EAGER_DEFAULT else default}")
    run.add_argument("script", help="the Python script to run")
    from tapemagic.lint.files import EXIT_STATUS as LINT_EXIT_STATUS

    lint = sub.add_parser(
        "lint", help="check files and notebooks for gradient cuts without running them",
        description="Read Python files and notebooks (folders are searched) and print a hint\n"
                    "wherever the source shows that a gradient may be cut. Nothing is run.",
        epilog=LINT_EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    lint.add_argument("paths", nargs="+", metavar="PATH", help="a .py file, .ipynb or folder")
    lint.add_argument("--format", choices=("text", "json"), default="text",
                      help="text (path:line:col: CODE message, the default) or json")
    explain = sub.add_parser("explain", help="print the documentation of a rule")
    explain.add_argument("code", help="a rule code such as TM301")
    return parser


def split_run_arguments(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split ``run``'s arguments into tapemagic's (up to the script path) and the script's.

    Parameters
    ----------
    argv : list of str
        The arguments after ``run``.

    Returns
    -------
    tuple of (list of str, list of str)
        The options and the script path (a ``--`` before it kept), and the script's arguments,
        untouched. Without a script path, everything is tapemagic's (argparse reports it).
    """
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "--":
            return argv[:index + 2], argv[index + 2:]
        if token.startswith("-") and token != "-":
            index += 2 if token in _VALUE_OPTIONS else 1
            continue
        return argv[:index + 1], argv[index + 1:]
    return argv, []


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (see :data:`EXIT_STATUS`)."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    command_at = next((i for i, token in enumerate(argv) if not token.startswith("-")), None)
    if command_at is not None and argv[command_at] == "run":
        ours, script_args = split_run_arguments(argv[command_at + 1:])
        argv = argv[:command_at + 1] + ours
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code == 0 else 2
    if args.command == "lint":
        from tapemagic.lint.files import run as lint

        return lint(args.paths, args.format)
    if args.command == "explain":
        from tapemagic import rules

        try:
            print(rules.explain(args.code.upper()))
        except KeyError as error:
            print(f"tapemagic: {error.args[0] if error.args else error}", file=sys.stderr)
            return 2
        return 0
    if not os.path.isfile(args.script):
        print(f"tapemagic: no such script: {args.script}", file=sys.stderr)
        return 2
    if args.steps < 1:
        print("tapemagic: --steps must be at least 1", file=sys.stderr)
        return 2
    json_path = args.json
    if json_path and json_path != "-":
        json_path = os.path.abspath(json_path)  # the script may chdir
        problem = _unwritable(json_path)
        if problem:
            print(f"tapemagic: cannot write the --json report to {args.json}: {problem}",
                  file=sys.stderr)
            return 2
    return _run(args.script, script_args, json_path, args.steps, args.force_eager)


def _unwritable(path: str) -> str | None:
    """Return why ``path`` cannot be written (checked before the script runs), else None."""
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    if not existed:
        os.unlink(path)  # leave nothing behind if the run never gets to write it
    return None


def _read_source(path: str) -> str:
    """Return the script's text decoded as Python decodes it (PEP 263 coding line, BOM)."""
    try:
        with tokenize.open(path) as handle:
            return handle.read()
    except (SyntaxError, UnicodeDecodeError, LookupError):
        # runpy raises Python's own error for this file when it runs it
        return ""


def _run(script: str, script_args: list[str], json_path: str | None, steps: int,
         force_eager: bool) -> int:
    from tapemagic.api import gradcheck
    from tapemagic.locations import CellMap
    from tapemagic.report.model import CellInfo
    from tapemagic.report.text import render_text

    path = os.path.abspath(script)
    cell = CellInfo(source=_read_source(path), filename=path, script=script)
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *script_args]
    sys.path.insert(0, os.path.dirname(path))
    failed = False
    status: int | None = None  # the script's own exit status, when it chose one
    check = None
    # With `--json -` stdout carries the JSON alone: the script's own prints go to stderr.
    script_stdout = sys.stderr if json_path == "-" else sys.stdout
    try:
        with contextlib.redirect_stdout(script_stdout), gradcheck(
                force_eager=force_eager, max_steps=steps, cells=CellMap(), cell=cell) as check:
            runpy.run_path(path, run_name="__main__")
    except SystemExit as exit_:
        failed = exit_.code not in (0, None)
        if isinstance(exit_.code, int):
            status = exit_.code
        elif exit_.code is not None:  # sys.exit("message"): Python prints it and exits 1
            print(exit_.code, file=sys.stderr)
    except KeyboardInterrupt as error:
        failed, status = True, 130
        _print_traceback(error)
    except BaseException as error:  # noqa: BLE001 - the script's own error, reported below
        failed = True
        _print_traceback(error)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    report = check.report if check is not None else None
    if report is None:
        print("tapemagic: no report could be built (see the warning above)", file=sys.stderr)
        return status or 1
    text_stream = sys.stderr if json_path == "-" else sys.stdout
    print(render_text(report), file=text_stream)
    if json_path:
        payload = json.dumps(report.to_json(), indent=1, ensure_ascii=False)
        if json_path == "-":
            print(payload)
        else:
            with open(json_path, "w", encoding="utf-8") as out:
                out.write(payload + "\n")
    if status:
        return status
    return 1 if failed or report.has_errors else 0


def _print_traceback(error: BaseException) -> None:
    """Print the script's traceback as ``python SCRIPT`` would: without tapemagic's frames."""
    here = os.path.dirname(os.path.abspath(__file__))
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


if __name__ == "__main__":
    sys.exit(main())
