"""The ``%%gradcheck`` cell magic (and ``%gradcheck --explain CODE``): a thin door over the API.

No TensorFlow import here; tracing starts when a cell runs. The body runs through IPython's own
machinery, as ``run_cell`` runs a cell: ``shell.transform_cell``, ``shell.compile`` (so
tracebacks and ``linecache`` show the cell), the user's ``ast_transformers``, then
``shell.run_ast_nodes`` with the shell's ``ast_node_interactivity``, display hook (``Out[N]``,
``_``) and traceback display. A trailing ``;`` hides the value, as IPython's display hook
does for a plain cell. A body with top-level ``await`` (IPython's autoawait) is run by turning
the cell, with an input transformer, into ``await`` on :meth:`GradcheckMagics.run_async`, so
IPython runs the whole cell on its own event loop, as it runs a plain ``await`` cell.
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import keyword
import tokenize
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

from tapemagic.api import FORCE_EAGER_DEFAULT
from tapemagic.cell_runner import cell_magic, cell_map, compiled_cells
from tapemagic.locations import leading_blank_lines
from tapemagic.preview import Preview, stop_hint
from tapemagic.report.model import CellInfo

_DEFAULT = " (the default)"
# The one line IPython's cell-magic transform makes of a `%%gradcheck` cell (inputtransformer2).
_MAGIC_CALL = "get_ipython().run_cell_magic('gradcheck', "


def lines_above_gradcheck(raw: str) -> int:
    """Return the blank lines above a ``%%gradcheck`` cell's magic line (0 for another cell).

    IPython drops a cell's leading blank lines before it finds the cell magic, so the magic
    line is the editor's line ``lines + 1`` and its body starts one line lower.
    """
    above = leading_blank_lines(raw)
    return above if above and cell_magic(raw) == "gradcheck" else 0


@magics_class
class GradcheckMagics(Magics):
    """Magics that trace a cell and explain the gradients that come back None or zero."""

    cell_ids: dict[int, str]
    current_cell_id: str | None
    #: blank lines above the ``%%gradcheck`` line of the cell running now (IPython drops them)
    lines_above: int

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.cell_ids = {}
        self.current_cell_id = None
        self.lines_above = 0
        if shell is not None:
            transformers: list[Any] = shell.input_transformers_post
            transformers.append(self._await_transformer)

    def remove_transformer(self) -> None:
        """Undo the input transformer added by ``__init__`` (``%unload_ext tapemagic``)."""
        shell: Any = self.shell
        posts = shell.input_transformers_post
        posts[:] = [t for t in posts if t != self._await_transformer]

    @magic_arguments()
    @argument("output", nargs="?", help="Store the Report in this variable of the namespace.")
    @argument("--json", action="store_true",
              help="Print the report as JSON text instead of displaying it.")
    @argument("--strict", action="store_true",
              help="Raise GradcheckError after the report when a finding is an error.")
    @argument("--eager", action="store_true",
              help="Run tf.function and fit eagerly for the analysis, so every op is visible"
                   f"{_DEFAULT if FORCE_EAGER_DEFAULT else ''}.")
    @argument("--graph-mode", action="store_true",
              help="Leave tf.function and fit in graph mode"
                   f"{'' if FORCE_EAGER_DEFAULT else _DEFAULT}.")
    @argument("--steps", type=int, default=1, metavar="N",
              help="Runs of each gradient call site to analyse (default 1).")
    @argument("--verify-fixes", action="store_true",
              help="Re-run the cell once per quick fix, with the fix applied, in a fresh "
                   "process that replays this session's earlier cells (your variables, "
                   "models and output are untouched), and report which fixes remove the cut.")
    @argument("--explain", metavar="CODE",
              help="Print the documentation of rule CODE (e.g. TM301) and exit.")
    @line_cell_magic
    def gradcheck(self, line: str, cell: str | None = None) -> None:
        """Run the cell and explain which weights get no gradient, where, why, and the fix.

        Put ``%%gradcheck`` on top of a cell that calls ``tape.gradient`` (or ``model.fit``).
        The cell runs exactly as without the magic; then a report lists, for every gradient
        call, each weight's verdict (connected / severed / zero / unexplained) and, for each
        cause, the line, the op or API (``.numpy()``, ``tf.argsort``, ``Variable.assign`` ...),
        the weights it cuts off and a quick fix. ``%gradcheck --explain TM301`` documents a
        rule. ``%%gradcheck rep`` stores the report in ``rep``. ``%gradcheck on [--verbose]``
        checks every cell from then on (auto mode: only a cell with a cut shows its report;
        ``c.Gradcheck.auto = True`` in the IPython config sets it for every session) and
        ``%gradcheck off`` stops.
        """
        __tracebackhide__ = True
        if cell is None and line.split()[:1] in (["on"], ["off"]):
            return self._switch(line)
        args = self._arguments(line)
        if args.explain:
            return self._explain(args.explain)
        if cell is None:
            raise UsageError("%gradcheck needs a cell (%%gradcheck), on/off (every cell) or "
                             "--explain CODE")
        coroutine = self._run(cell, args)
        shell: Any = self.shell
        if _needs_await(shell.transform_cell(cell)):
            # only when the input transformer could not make the cell awaitable
            return shell.loop_runner(coroutine)  # type: ignore[no-any-return]
        return _run_sync(coroutine)

    async def run_async(self, line: str, cell: str) -> None:
        """Run ``%%gradcheck`` on a cell with top-level ``await`` (the transformer's target)."""
        __tracebackhide__ = True
        args = self._arguments(line)
        if args.explain:
            return self._explain(args.explain)
        await self._run(cell, args)

    def _arguments(self, line: str) -> Any:
        try:
            args = parse_argstring(self.gradcheck, line)
        except ValueError as error:  # shlex: "No closing quotation"
            raise UsageError(f"cannot read the %%gradcheck line {line.strip()!r}: "
                             f"{error}") from None
        if args.eager and args.graph_mode:
            raise UsageError("--eager and --graph-mode cannot be used together")
        if args.steps < 1:
            raise UsageError("--steps must be at least 1")
        if args.output is not None and (not args.output.isidentifier()
                                        or keyword.iskeyword(args.output)):
            raise UsageError(f"output name {args.output!r} is not a valid Python identifier "
                             "(a name such as rep)")
        args.force_eager = (True if args.eager else False if args.graph_mode
                            else FORCE_EAGER_DEFAULT)
        return args

    def _switch(self, line: str) -> None:
        auto = getattr(self, "auto_mode", None)
        if auto is None:  # registered by hand, without load_ipython_extension
            raise UsageError("%gradcheck on/off needs the extension: %load_ext tapemagic")
        auto.switch(line)

    def _explain(self, code: str) -> None:
        from tapemagic import rules

        try:
            print(rules.explain(code.strip().upper()))
        except KeyError as error:
            raise UsageError(str(error.args[0] if error.args else error)) from None

    async def _run(self, cell: str, args: Any) -> None:
        __tracebackhide__ = True
        from IPython.core.interactiveshell import ExecutionInfo, ExecutionResult

        from tapemagic.api import gradcheck
        from tapemagic.tracing.lazy import tensorflow_available

        # fail here, in one line, before the cell runs; TensorFlow itself is imported by the
        # cell (or was by an earlier one): settings the cell makes before its import count
        if not tensorflow_available():
            raise UsageError(
                "%%gradcheck needs TensorFlow 2.16-2.21: pip install 'tapemagic[cpu]' (or "
                "tensorflow / tensorflow-cpu); the cell was not run") from None

        shell: Any = self.shell
        count = _cell_number(shell)
        # Blank lines first, so the compiled lines equal the editor's: %%gradcheck is line 1
        # after any blank lines above it, and transform_cell drops the body's leading ones.
        body = ("\n" * (self.lines_above + 1 + leading_blank_lines(cell))
                + shell.transform_cell(cell))
        filename = shell.compile.cache(body, count, raw_code="\n" + cell)
        try:
            tree = shell.compile.ast_parse(body, filename=filename)
        except (OverflowError, SyntaxError, ValueError, TypeError, MemoryError) as error:
            return self._syntax_error(error, filename)
        tree = shell.transform_ast(tree)  # the user's ast_transformers, as run_cell applies them
        cells = cell_map(shell, self.cell_ids, None, None)  # the earlier cells, by their ids
        cells.add(filename, count, self.current_cell_id)
        info = CellInfo(source="%%gradcheck" + (f" {args.output}" if args.output else "")
                        + "\n" + cell, filename=filename, execution_count=count,
                        cell_id=self.current_cell_id)
        # IPython shows the cell's traceback itself (run_code); this result says it failed
        result = ExecutionResult(ExecutionInfo(cell, False, False, True, self.current_cell_id))
        interactivity = ("none" if _ends_with_semicolon(cell)
                         else getattr(shell, "ast_node_interactivity", "last_expr"))
        check = None
        runner = None
        # the report as soon as a fit's checked steps are analysed, replaced when the cell ends
        preview = None if args.json else Preview(stop_hint(shell))
        if args.verify_fixes:
            from tapemagic.verify.notebook import HistoryRunner, history_cells

            runner = HistoryRunner(history_cells(shell, count, info.source), args.force_eager,
                                   args.steps)
        try:
            with gradcheck(force_eager=args.force_eager, max_steps=args.steps, cells=cells,
                           cell=info, verify_fixes=args.verify_fixes, runner=runner,
                           preview=preview.show if preview is not None else None) as check:
                await shell.run_ast_nodes(tree.body, filename, interactivity=interactivity,
                                          compiler=shell.compile, result=result)
                check.error = result.error_before_exec or result.error_in_exec
        except BaseException:  # an interrupt between the cell's statements, or tapemagic's own
            if check is not None:
                self._show(check, args, preview)  # a crash is when the report is needed most
            raise
        self._show(check, args, preview)
        failed = result.error_before_exec or result.error_in_exec
        if failed is not None:
            outer = getattr(shell.displayhook, "exec_result", None)
            if outer is None:  # not inside run_cell: nobody else will see that the cell failed
                raise failed
            outer.error_in_exec = failed  # the cell failed, as it would without the magic
            return None
        if args.strict and check.report is not None and check.report.has_errors:
            from tapemagic.api import GradcheckError

            raise GradcheckError(check.report.headline)
        return None

    def _syntax_error(self, error: BaseException, filename: str) -> None:
        """Show a syntax error exactly as IPython shows one in a plain cell, and fail the cell."""
        shell: Any = self.shell
        result = getattr(shell.displayhook, "exec_result", None)
        if result is None:  # not inside run_cell: let the error propagate
            raise error
        try:
            raise error.with_traceback(None)
        except type(error):
            shell.showsyntaxerror(filename)  # reads sys.exc_info(): no tapemagic frames
        result.error_in_exec = error  # the cell failed, as it would without the magic
        return None

    def _await_transformer(self, lines: list[str]) -> list[str]:
        """Turn a ``%%gradcheck`` cell whose body awaits into ``await ...run_async(...)``.

        IPython decides per cell, from its transformed text, whether to run it on its event
        loop (``should_run_async``); the body is inside a string there, so this makes the
        await visible. Any other cell is returned unchanged.
        """
        shell: Any = self.shell
        if (len(lines) != 1 or not lines[0].startswith(_MAGIC_CALL)
                or not getattr(shell, "autoawait", False)):
            return lines
        try:
            call = ast.parse(lines[0], mode="eval").body
            assert isinstance(call, ast.Call) and len(call.args) == 3
            line, body = (ast.literal_eval(a) for a in call.args[1:])
            assert isinstance(line, str) and isinstance(body, str)
        except (SyntaxError, ValueError, AssertionError):
            return lines
        if not _needs_await(shell.transform_cell(body)):
            return lines
        magics = ("get_ipython().magics_manager.registry["
                  f"{type(self).__name__!r}].run_async")
        return [f"await {magics}({line!r}, {body!r})\n"]

    def _show(self, check: Any, args: Any, preview: Preview | None = None) -> None:
        report = check.report
        if report is None:
            return
        if args.output:
            shell: Any = self.shell
            shell.user_ns[args.output] = report
        if args.json:
            print(json.dumps(report.to_json(), indent=1, ensure_ascii=False))
            return
        if preview is not None and preview.final(report):
            return  # in the early report's place
        from tapemagic.report.mime import mimebundle

        display(mimebundle(report), raw=True)


def _run_sync(coroutine: Any) -> Any:
    """Run a coroutine that never suspends (IPython's ``_pseudo_sync_runner``)."""
    __tracebackhide__ = True
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("%%gradcheck: the cell needed an event loop")


def _needs_await(source: str) -> bool:
    """Return True when ``source`` has top-level ``await`` (IPython's ``_should_be_async``)."""
    try:
        code = compile(source, "<gradcheck>", "exec",
                       flags=getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0))
    except (SyntaxError, ValueError, TypeError, OverflowError, MemoryError):
        return False
    return bool(code.co_flags & inspect.CO_COROUTINE)


def _cell_number(shell: Any) -> int:
    """Return the ``In[N]`` number of the cell running this magic.

    The cell's own code object is compiled under a filename IPython mapped to N; find it on the
    stack. (``shell.execution_count`` is N+1 here in IPython 9 and N in IPython 8.)
    """
    import sys

    known = compiled_cells(shell)
    frame = sys._getframe(1)
    while frame is not None:
        number = known.get(frame.f_code.co_filename)
        if number is not None:
            return int(number)
        frame = frame.f_back  # type: ignore[assignment]
    return int(shell.execution_count)


def _ends_with_semicolon(cell: str) -> bool:
    """Return True when the cell's last token is ``;`` (IPython's rule for hiding ``Out``)."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(cell).readline)
                  if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT,
                                    tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError):
        return False
    return bool(tokens) and tokens[-1].string == ";"
