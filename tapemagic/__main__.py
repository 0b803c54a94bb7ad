"""The terminal door: ``python -m tapemagic run SCRIPT [ARGS...] [--json FILE|-]``.

Runs a script under the same engine as ``%%gradcheck`` and prints the text report. Exit status:
0 when no finding is an error and the script finished, 1 when a finding is an error or the
script raised (its traceback is printed, and the report, JSON included, is written all the
same: a crash is when the report is needed most), 2 on a usage error; a script that calls
``sys.exit(N)`` keeps its own status N, and a KeyboardInterrupt gives 130, as without tapemagic.
Arguments after the script go to the script; a trailing ``--json FILE`` is tapemagic's unless a
``--`` comes before it (everything after ``--`` is the script's).
``python -m tapemagic explain TM301`` prints a rule's documentation.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import runpy
import sys
import traceback

from tapemagic import __version__


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tapemagic",
        description="Find where and why TensorFlow gradients are severed, and how to fix it.")
    parser.add_argument("--version", action="version", version=f"tapemagic {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a script under gradcheck and print the report")
    run.add_argument("--json", metavar="FILE", help="also write the report as JSON ('-': stdout)")
    run.add_argument("--steps", type=int, default=1, metavar="N",
                     help="runs of each gradient call site to analyse (default 1)")
    run.add_argument("--graph-mode", action="store_true",
                     help="leave tf.function and fit in graph mode")
    run.add_argument("script", help="the Python script to run")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    explain = sub.add_parser("explain", help="print the documentation of a rule")
    explain.add_argument("code", help="a rule code such as TM301")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    tail: list[str] | None = None
    if "--" in argv:  # everything after `--` belongs to the script, untouched
        cut = argv.index("--")
        argv, tail = argv[:cut], argv[cut + 1:]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code == 0 else 2
    if args.command == "explain":
        from tapemagic import rules

        try:
            print(rules.explain(args.code.upper()))
        except KeyError as error:
            print(f"tapemagic: {error.args[0] if error.args else error}", file=sys.stderr)
            return 2
        return 0
    script_args = list(args.args)
    if tail is not None:
        script_args += tail
    elif "--json" in script_args[-2:-1]:  # `run script.py a b --json out.json`
        args.json = script_args[-1]
        script_args = script_args[:-2]
    if not os.path.isfile(args.script):
        print(f"tapemagic: no such script: {args.script}", file=sys.stderr)
        return 2
    if args.steps < 1:
        print("tapemagic: --steps must be at least 1", file=sys.stderr)
        return 2
    return _run(args.script, script_args, args.json, args.steps, not args.graph_mode)


def _run(script: str, script_args: list[str], json_path: str | None, steps: int,
         force_eager: bool) -> int:
    from tapemagic.api import gradcheck
    from tapemagic.locations import CellMap
    from tapemagic.report.model import CellInfo
    from tapemagic.report.text import render_text

    path = os.path.abspath(script)
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    cell = CellInfo(source=source, filename=path, script=script)
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
