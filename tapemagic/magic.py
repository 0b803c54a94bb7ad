"""The ``%%gradcheck`` cell magic (and ``%gradcheck --explain CODE``): a thin door over the API.

No TensorFlow import here; tracing starts when a cell runs. The cell body runs as IPython would
run it: transformed by the shell, compiled through ``shell.compile`` (so tracebacks and
``linecache`` show the cell), executed in the user namespace, its last expression returned so
IPython displays it as ``Out[N]`` (a trailing ``;`` suppresses it), its exception re-raised after
the report is shown.
"""

from __future__ import annotations

import ast
import io
import json
import tokenize
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

from tapemagic.locations import CellMap
from tapemagic.report.model import CellInfo


@magics_class
class GradcheckMagics(Magics):
    """Magics that trace a cell and explain the gradients that come back None or zero."""

    cell_ids: dict[int, str]
    current_cell_id: str | None

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.cell_ids = {}
        self.current_cell_id = None

    @magic_arguments()
    @argument("output", nargs="?", help="Store the Report in this variable of the namespace.")
    @argument("--json", action="store_true",
              help="Print the report as JSON text instead of displaying it.")
    @argument("--strict", action="store_true",
              help="Raise GradcheckError after the report when a finding is an error.")
    @argument("--graph-mode", action="store_true",
              help="Leave tf.function and fit in graph mode (ops inside are not visible).")
    @argument("--steps", type=int, default=1, metavar="N",
              help="Runs of each gradient call site to analyse (default 1).")
    @argument("--explain", metavar="CODE",
              help="Print the documentation of rule CODE (e.g. TM301) and exit.")
    @line_cell_magic
    def gradcheck(self, line: str, cell: str | None = None) -> Any:
        """Run the cell and explain which weights get no gradient, where, why, and the fix.

        Put ``%%gradcheck`` on top of a cell that calls ``tape.gradient`` (or ``model.fit``).
        The cell runs exactly as without the magic; then a report lists, for every gradient
        call, each weight's verdict (connected / severed / zero / unexplained) and, for each
        cause, the line, the op or API (``.numpy()``, ``tf.argsort``, ``Variable.assign`` ...),
        the weights it cuts off and a quick fix. ``%gradcheck --explain TM301`` documents a
        rule. ``%%gradcheck rep`` stores the report in ``rep``.
        """
        __tracebackhide__ = True
        args = parse_argstring(self.gradcheck, line)
        if args.explain:
            return self._explain(args.explain)
        if cell is None:
            raise UsageError("%gradcheck needs a cell (%%gradcheck) or --explain CODE")
        if args.steps < 1:
            raise UsageError("--steps must be at least 1")
        if args.output is not None and not args.output.isidentifier():
            raise UsageError(f"output name {args.output!r} is not a valid Python identifier")
        return self._run(cell, args)

    def _explain(self, code: str) -> None:
        from tapemagic import rules

        try:
            print(rules.explain(code.strip().upper()))
        except KeyError as error:
            raise UsageError(str(error.args[0] if error.args else error)) from None

    def _run(self, cell: str, args: Any) -> Any:
        __tracebackhide__ = True
        from tapemagic.api import gradcheck

        try:
            import tensorflow  # noqa: F401 - fail here, in one line, before the cell runs
        except ImportError:
            raise UsageError(
                "%%gradcheck needs TensorFlow 2.16-2.21: pip install 'tapemagic[cpu]' (or "
                "tensorflow / tensorflow-cpu); the cell was not run") from None

        shell: Any = self.shell
        count = _cell_number(shell)
        body = shell.transform_cell(cell)
        # One blank line first, so the compiled lines equal the editor's (line 1 is %%gradcheck).
        filename = shell.compile.cache("\n" + body, count, raw_code="\n" + cell)
        try:
            tree = shell.compile.ast_parse("\n" + body, filename=filename)
        except SyntaxError as error:
            return self._syntax_error(error, filename)
        tree = shell.transform_ast(tree)  # the user's ast_transformers, as run_cell applies them
        cells = self._cell_map(filename, count)
        info = CellInfo(source="%%gradcheck" + (f" {args.output}" if args.output else "")
                        + "\n" + cell, filename=filename, execution_count=count,
                        cell_id=self.current_cell_id)
        value = None
        check = None
        try:
            with gradcheck(force_eager=not args.graph_mode, max_steps=args.steps, cells=cells,
                           cell=info) as check:
                value = self._execute(tree, filename)
        except BaseException:
            if check is not None:
                self._show(check, args)  # a crash is when the report is needed most
            raise
        self._show(check, args)
        if args.strict and check.report is not None and check.report.has_errors:
            from tapemagic.api import GradcheckError

            raise GradcheckError(check.report.headline)
        return None if _ends_with_semicolon(cell) else value

    def _syntax_error(self, error: SyntaxError, filename: str) -> None:
        """Show a syntax error exactly as IPython shows one in a plain cell, and fail the cell."""
        shell: Any = self.shell
        result = getattr(shell.displayhook, "exec_result", None)
        if result is None:  # not inside run_cell: let the error propagate
            raise error
        try:
            raise error.with_traceback(None)
        except SyntaxError:
            shell.showsyntaxerror(filename)  # reads sys.exc_info(): no tapemagic frames
        result.error_in_exec = error  # the cell failed, as it would without the magic
        return None

    def _execute(self, tree: ast.Module, filename: str) -> Any:
        """Run the cell's statements; display expression values as ``ast_node_interactivity`` says.

        Returns the value IPython would show as ``Out[N]`` (the last expression, or with
        ``last_expr_or_assign`` the last assignment's value), or None.
        """
        __tracebackhide__ = True
        shell: Any = self.shell
        mode = getattr(shell, "ast_node_interactivity", "last_expr")
        glob, ns = shell.user_global_ns, shell.user_ns
        nodes = list(tree.body)
        if not nodes or mode == "none":
            if nodes:
                exec(shell.compile(ast.Module(nodes, []), filename, "exec"), glob, ns)  # noqa: S102
            return None
        last = nodes[-1]
        shown_before = [n for n in nodes[:-1] if mode == "all" and isinstance(n, ast.Expr)]
        start = 0
        for node in shown_before:  # 'all': every expression statement is displayed in order
            index = nodes.index(node)
            if index > start:
                exec(shell.compile(ast.Module(nodes[start:index], []), filename, "exec"),  # noqa: S102
                     glob, ns)
            shell.displayhook(eval(shell.compile(ast.Expression(node.value), filename, "eval"),  # noqa: S307
                                   glob, ns))
            start = index + 1
        body = nodes[start:-1]
        if body:
            exec(shell.compile(ast.Module(body, []), filename, "exec"), glob, ns)  # noqa: S102
        if isinstance(last, ast.Expr):
            return eval(shell.compile(ast.Expression(last.value), filename, "eval"), glob, ns)  # noqa: S307
        exec(shell.compile(ast.Module([last], []), filename, "exec"), glob, ns)  # noqa: S102
        target = _assigned_name(last) if mode == "last_expr_or_assign" else None
        return ns.get(target) if target else None

    def _cell_map(self, filename: str, count: int) -> CellMap:
        cells = CellMap()
        shell: Any = self.shell
        for name, number in getattr(shell.compile, "_filename_map", {}).items():
            cells.add(name, number, self.cell_ids.get(number))
        cells.add(filename, count, self.current_cell_id)
        return cells

    def _show(self, check: Any, args: Any) -> None:
        report = check.report
        if report is None:
            return
        if args.output:
            shell: Any = self.shell
            shell.user_ns[args.output] = report
        if args.json:
            print(json.dumps(report.to_json(), indent=1, ensure_ascii=False))
            return
        from tapemagic.report.mime import mimebundle

        display(mimebundle(report), raw=True)


def _assigned_name(node: ast.stmt) -> str | None:
    """Return the name a simple assignment binds (IPython's ``last_expr_or_assign`` rule)."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target: ast.expr = node.targets[0]
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
        target = node.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


def _cell_number(shell: Any) -> int:
    """Return the ``In[N]`` number of the cell running this magic.

    The cell's own code object is compiled under a filename IPython mapped to N; find it on the
    stack. (``shell.execution_count`` is N+1 here in IPython 9 and N in IPython 8.)
    """
    import sys

    known = getattr(shell.compile, "_filename_map", {})
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
