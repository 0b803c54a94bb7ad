"""The terminal door: ``python -m tapemagic run|lint|explain``.

``run [OPTIONS] SCRIPT [ARGS...]`` runs a script under the same engine as ``%%gradcheck`` and
prints the report; ``run [OPTIONS] NOTEBOOK.ipynb`` runs every code cell of a notebook in a real
kernel, each under the check (:mod:`tapemagic.cli.notebook`). As with ``python -m cProfile``,
tapemagic's options come before the script path and everything after it is the script's,
verbatim (a ``--`` before the script also ends tapemagic's options). The exit status is
documented once, in :data:`EXIT_STATUS`, which ``--help`` prints. ``--format github|sarif``
(``run`` and ``lint``) write CI annotations; ``--html FILE`` a self-contained HTML report.
No TensorFlow import here: a run imports it when the checked code does.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import sys

from tapemagic._version import __version__
from tapemagic.api import FORCE_EAGER_DEFAULT

__all__ = ["EXIT_STATUS", "main", "split_run_arguments"]

EXIT_STATUS = """\
exit status:
  0    the script finished and no finding is an error
  1    a finding is an error, or the script raised (its traceback and the report are
       printed, and --json written, all the same)
  N    the script's own non-zero status: sys.exit(N), N != 0, is kept (sys.exit(0)
       with an error finding gives 1, so CI fails on the finding)
  2    usage error (bad option, missing script, unwritable --json destination)
  3    the script ran, but tapemagic could not check it (tracing failed to start; the
       report and standard error say why)
  130  KeyboardInterrupt, as without tapemagic"""
# Options of `run` that take a value: needed to find where the script path is.
_VALUE_OPTIONS = frozenset({"--json", "--steps", "--format", "--html", "--output"})
FORMATS = ("text", "github", "sarif")


def _run_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    run = sub.add_parser(
        "run", help="run a script or notebook under gradcheck and print the report",
        allow_abbrev=False, usage="python -m tapemagic run [OPTIONS] SCRIPT [ARGS...]",
        description="Run SCRIPT as `python SCRIPT ARGS...` would, then print the gradient\n"
                    "report. Options go before SCRIPT; everything after it is the script's.\n"
                    "A NOTEBOOK.ipynb runs cell by cell in a kernel, each cell checked.",
        epilog=EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--json", metavar="FILE",
                     help="also write the report as JSON ('-': stdout); for a notebook, a "
                          "list with one report per code cell")
    run.add_argument("--format", choices=FORMATS, default="text",
                     help="text (the report, the default), github (the report, then one "
                          "workflow-command annotation per finding) or sarif (a SARIF 2.1.0 "
                          "log on stdout; the report goes to stderr)")
    run.add_argument("--html", metavar="FILE",
                     help="also write a self-contained HTML report (graph and finding cards)")
    run.add_argument("--output", metavar="FILE",
                     help="notebooks: write the executed notebook, with its outputs and the "
                          "reports (rendered by the JupyterLab extension)")
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
    run.add_argument("--verify-fixes", action="store_true",
                     help="re-run the script once per quick fix, with the fix applied to a "
                          "copy, in a fresh subprocess, and report which fixes remove the cut")
    run.add_argument("script", help="the Python script (or .ipynb notebook) to run")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tapemagic",
        description="Find where and why TensorFlow gradients are severed, and how to fix it.")
    parser.add_argument("--version", action="version", version=f"tapemagic {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _run_parser(sub)
    from tapemagic.lint.files import EXIT_STATUS as LINT_EXIT_STATUS

    lint = sub.add_parser(
        "lint", help="check files and notebooks for gradient cuts without running them",
        description="Read Python files and notebooks (folders are searched) and print a hint\n"
                    "wherever the source shows that a gradient may be cut. Nothing is run.",
        epilog=LINT_EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    lint.add_argument("paths", nargs="+", metavar="PATH", help="a .py file, .ipynb or folder")
    lint.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text",
                      help="text (path:line:col: CODE message, the default), json, github "
                           "(workflow-command annotations) or sarif (a SARIF 2.1.0 log)")
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


def _usage(message: str) -> int:
    print(f"tapemagic: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (see :data:`EXIT_STATUS`)."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: list[str] = []
    ours: list[str] = []
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

        try:
            return lint(args.paths, args.format, out=sys.stdout, err=sys.stderr)
        except BrokenPipeError:
            # `lint ... | head`: the reader left; no traceback, and Python's own flush of
            # stdout at exit must not raise again (the recipe in the `signal` module's docs)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
    if args.command == "explain":
        from tapemagic import rules

        try:
            print(rules.explain(args.code.upper()))
        except KeyError as error:
            return _usage(str(error.args[0] if error.args else error))
        return 0
    return _run_command(args, script_args, ours)


def _run_command(args: argparse.Namespace, script_args: list[str], ours: list[str]) -> int:
    notebook = args.script.endswith(".ipynb")
    if not os.path.isfile(args.script):
        return _usage(f"no such {'notebook' if notebook else 'script'}: {args.script}")
    if args.steps < 1:
        return _usage("--steps must be at least 1")
    if args.json == "-" and args.format != "text":
        return _usage(f"--json - and --format {args.format} both want stdout; give --json a "
                      "file")
    if notebook and script_args:
        return _usage(_notebook_arguments(ours, script_args))
    if notebook and args.verify_fixes:
        return _usage("--verify-fixes is for scripts and %%gradcheck cells, not notebook runs")
    if not notebook and args.output:
        return _usage("--output writes an executed notebook: give a .ipynb to run")
    paths = {}
    for option in ("json", "html", "output"):
        path = getattr(args, option)
        if path and path != "-":
            path = os.path.abspath(path)  # the script may chdir
            problem = _unwritable(path)
            if problem:
                return _usage(f"cannot write the --{option} report to {getattr(args, option)}: "
                              f"{problem}")
        paths[option] = path
    from tapemagic.cli.outputs import Outputs

    outputs = Outputs(json_path=paths["json"], html_path=paths["html"], format=args.format)
    if notebook:
        from tapemagic.cli.notebook import run_notebook

        return run_notebook(args.script, outputs, paths["output"], args.steps, args.force_eager)
    from tapemagic.cli.script import run_script

    return run_script(args.script, script_args, outputs, args.steps, args.force_eager,
                      args.verify_fixes)


def _notebook_arguments(ours: list[str], script_args: list[str]) -> str:
    """Say why arguments after a notebook are refused, and what to type when they are ours.

    They are tapemagic's own options when they parse as such, given after the path where a
    script's would go. ``ours`` is ``run``'s arguments up to and including the notebook's path.
    """
    message = f"a notebook takes no arguments (got {shlex.join(script_args)})"
    options, notebook = ours[:-1], ours[-1]
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            _parser().parse_args(["run", *options, *script_args, notebook])
    except SystemExit:
        return message  # not (all) tapemagic's options: nothing to suggest
    command = shlex.join(["python", "-m", "tapemagic", "run", *options, *script_args, notebook])
    return f"{message}; tapemagic's options go before the path: {command}"


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
