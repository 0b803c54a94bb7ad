"""Graph mode: trace on past a host round-trip that raised, to find the cuts behind it.

Imports TensorFlow (through ``_tf_private``). A ``.numpy()`` (or ``keras.backend.eval``) on a
symbolic tensor raises at trace time, so the rest of the user's function is never traced and
the cuts after it stay unseen: seed 004's loss leaves TensorFlow at ``eval``, then sorts into
integer indices and intersects sets, and only eager mode saw all three. The user's error is
raised unchanged; before it leaves the first tape, the statements after the failing one are
traced, in a scratch ``FuncGraph`` nobody runs, with the host value replaced by a stand-in
tensor linked to the round-trip (what the eager run's converted array is).

Only code that cannot change anything is traced (:mod:`tapemagic.tracing.purity`: local
assignments and a ``return`` calling TensorFlow/Keras op functions on plain values). A
statement of any other kind ends the continuation; when no loss is bound by then nothing is
used, nor when the loss also reaches the weights without the stand-in. The scratch graph is a
child of the graph being traced (captures do not change that graph) and is dropped with it;
deprecation warnings it would print are held back.
"""

from __future__ import annotations

import ast
import logging
import warnings
from types import FrameType
from typing import Any

from tapemagic.locations import enclosing_function, source_lines
from tapemagic.trace import HostEvent, HostLink, RawLocation
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing import purity
from tapemagic.tracing.recorder import Recorder

_STANDIN = purity.STANDIN
_RESULT = "__tapemagic_result__"


def continue_past(rec: Recorder, frame: FrameType, loc: RawLocation, kind: str, api: str,
                  tensor: Any, event: HostEvent) -> int | None:
    """Trace the rest of ``frame``'s function with a stand-in for the failed host value.

    ``frame`` is the user's frame whose call at ``loc`` raised (``kind`` and ``api`` as in
    :func:`tapemagic.tracing.symbolic.failed_round_trip`), ``tensor`` the symbolic tensor it
    was given, ``event`` the host event recorded for it. Returns the serial of the loss the
    code was heading for (the value returned, or the first argument of the ``gradient`` call
    after the ``with`` block that holds the failing line), or None when the rest cannot be
    traced safely. Never raises: a failure drops what the continuation recorded.
    """
    try:
        plan = _plan(frame, loc, kind, api)
    except (SyntaxError, ValueError, RecursionError):
        return None
    if plan is None:
        return None
    code, target_name, namespace = plan
    ops_before = len(rec.trace.ops)
    scratch = tfp.FuncGraph("tapemagic_continuation")
    held = tfp.held_deprecation_warnings()
    tf_logger = logging.getLogger("tensorflow")
    level = tf_logger.level
    try:
        with warnings.catch_warnings(), scratch.as_default():
            warnings.simplefilter("ignore")
            tf_logger.setLevel(logging.CRITICAL + 1)
            with rec.quiet():  # the stand-in itself is not an op of the user's
                standin = tfp.tf.identity(tensor)
            serial = rec.ids.register(standin, None, "host", strong=True)
            rec.trace.host_links[serial] = HostLink(serial, event.id, probable=False)
            namespace[_STANDIN] = standin
            exec(code, frame.f_globals, namespace)  # noqa: S102 - the user's own checked lines
        target = namespace.get(target_name)
        found = rec.ids.serial_of(target) if target is not None else None
        if found is not None and not _only_through(rec, found, serial, ops_before):
            found = None
    except Exception:  # noqa: BLE001 - the user's own error is what the cell raises
        found = None
    finally:
        tf_logger.setLevel(level)
        held()
    if found is None:
        del rec.trace.ops[ops_before:]
    return found


def _only_through(rec: Recorder, target: int, standin: int, first_op: int) -> bool:
    """Tell whether every path from the weights to ``target`` passes through ``standin``.

    Only then is the continuation about the cuts behind the round-trip. A loss that also (or
    only) reaches the weights another way (``host = pred.numpy()`` next to a loss computed from
    ``pred``) would be connected as far as the trace can say: the gradient call was never
    reached only because of the error, and that is all there is to report.
    """
    ops = rec.trace.ops
    made = {s: op for op in ops[first_op:] for s in op.outputs}
    external: set[int] = set()
    seen: set[int] = set()
    through = False
    stack = [target]
    while stack:
        serial = stack.pop()
        if serial == standin:
            through = True
        elif serial not in seen:
            seen.add(serial)
            op = made.get(serial)
            if op is None:
                external.add(serial)  # made before the round-trip (a capture's outer tensor)
            else:
                stack.extend(op.inputs)
    if not through:
        return False
    producers = {s: op for op in ops[:first_op] for s in op.outputs}
    return not any(handles_behind(rec, serial, producers) for serial in external)


def handles_behind(rec: Recorder, start: int,
                   producers: dict[int, Any] | None = None) -> set[int]:
    """Return the serials of the variable handles the recorded ops compute ``start`` from."""
    if producers is None:
        producers = {s: op for op in rec.trace.ops for s in op.outputs}
    found: set[int] = set()
    seen: set[int] = set()
    stack = [start]
    while stack:
        serial = stack.pop()
        if serial in seen:
            continue
        seen.add(serial)
        record = rec.trace.tensors.get(serial)
        if record is not None and record.dtype == "resource":
            found.add(serial)
        op = producers.get(serial)
        if op is not None:
            stack.extend(op.inputs)
    return found


def _plan(frame: FrameType, loc: RawLocation, kind: str, api: str,
          ) -> tuple[Any, str, dict[str, Any]] | None:
    """Return (code, name of the loss, namespace) for the rest of the function, or None."""
    tree = ast.parse("".join(source_lines(loc.file)))
    function = enclosing_function(tree, loc.line)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    found = _block_of(function.body, loc.line)
    if found is None:
        return None
    block, index, after = found
    statement = block[index]
    call = _host_call(statement, loc, kind, api)
    if call is None:
        return None
    rest = [_replace(statement, call)] + list(block[index + 1:])
    namespace = dict(frame.f_locals)
    scope = purity.Scope(frame, namespace)
    body: list[ast.stmt] = []
    target: str | None = None
    for stmt in rest:
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            if not purity.pure(stmt.value, scope):
                return None
            result = ast.copy_location(ast.Name(_RESULT, ast.Store()), stmt)
            body.append(ast.copy_location(ast.Assign([result], stmt.value), stmt))
            target = _RESULT
            break
        if not purity.pure_statement(stmt, scope):
            break
        body.append(stmt)
    if target is None and after is not None:
        target = _gradient_target(after)
        if target not in scope.bound:  # the lines ended before the loss: not the loss's value
            return None
    if target is None or not body:
        return None
    module = ast.fix_missing_locations(ast.Module(body, type_ignores=[]))
    code = compile(module, loc.file, "exec")  # named as the function: its ops' locations say so
    names: dict[str, Any] = {"co_name": function.name}
    if hasattr(code, "co_qualname"):  # Python 3.11+
        names["co_qualname"] = getattr(frame.f_code, "co_qualname", function.name)
    code = code.replace(**names)
    return code, target, namespace


def _block_of(body: list[ast.stmt], line: int, after: ast.stmt | None = None,
              ) -> tuple[list[ast.stmt], int, ast.stmt | None] | None:
    """Find the statement holding ``line``: (its block, index, statement after the ``with``).

    Only ``with`` blocks are entered (a tape's block); a line inside any other compound
    statement (a loop, a branch, a ``try``) is not continued: which statements run next
    depends on values.
    """
    for index, stmt in enumerate(body):
        if not stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
            continue
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            if any(item.context_expr.lineno <= line <= (item.context_expr.end_lineno or 0)
                   for item in stmt.items):
                return None
            following = body[index + 1] if index + 1 < len(body) else None
            return _block_of(stmt.body, line, following)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)):
            return body, index, after
        return None
    return None


def _host_call(statement: ast.stmt, loc: RawLocation, kind: str, api: str) -> ast.Call | None:
    """Return the one call in ``statement`` that made the failed round-trip, or None."""
    calls = [n for n in ast.walk(statement) if isinstance(n, ast.Call)]
    if loc.col is not None and loc.end_col is not None:
        exact = [c for c in calls if (c.lineno, c.col_offset, c.end_lineno, c.end_col_offset)
                 == (loc.line, loc.col, loc.end_line or loc.line, loc.end_col)]
        if len(exact) == 1:
            return exact[0] if _identity_like(exact[0], kind, api) else None
    matches = [c for c in calls if c.lineno <= loc.line <= (c.end_lineno or c.lineno)
               and _identity_like(c, kind, api)]
    return matches[0] if len(matches) == 1 else None


def _identity_like(call: ast.Call, kind: str, api: str) -> bool:
    """Tell whether the conversion's value is its argument's (stand-in: the tensor itself)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if kind == "numpy":
        if api == ".numpy()":
            return name == "numpy" and not call.args and isinstance(func, ast.Attribute)
        return name == api.rsplit(".", 1)[-1] and len(call.args) == 1
    if kind == "ufunc":
        return name in ("asarray", "array") and len(call.args) == 1
    return kind == "scalar" and name in ("float", "complex") and len(call.args) == 1


def _replace(statement: ast.stmt, call: ast.Call) -> ast.stmt:
    """Return ``statement`` with ``call`` replaced by the stand-in's name (same positions)."""

    class _Swap(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:  # noqa: N802 - ast's visitor name
            if node is call:
                return ast.copy_location(ast.Name(_STANDIN, ast.Load()), node)
            return self.generic_visit(node)

    return _Swap().visit(statement)


def _gradient_target(stmt: ast.stmt) -> str | None:
    """Return the loss name in ``grads = tape.gradient(loss, ...)`` (after the block)."""
    for node in ast.walk(stmt):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "gradient" and node.args
                and isinstance(node.args[0], ast.Name)):
            return node.args[0].id
    return None
