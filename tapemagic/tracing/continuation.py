"""Graph mode: trace on past a host round-trip that raised, to find the cuts behind it.

Imports TensorFlow (through ``_tf_private``). A ``.numpy()`` (or ``keras.backend.eval``) on a
symbolic tensor raises at trace time, so the rest of the user's function is never traced and
the cuts after it stay unseen: seed 004's loss leaves TensorFlow at ``eval``, then sorts into
integer indices and intersects sets, and only eager mode saw all three. The user's error is
raised unchanged; before it leaves the first tape, the statements after the failing one are
traced once more, in a scratch ``FuncGraph`` nobody runs, with the host value replaced by a
stand-in tensor linked to the round-trip (what the eager run's converted array is).

Only code that cannot change anything is traced: assignments and a ``return`` whose calls are
TensorFlow or Keras functions (``tf.argsort``, ``keras.ops.mean``), with a deny-list of those
with effects outside a graph (variables, ``py_function``, config, seeds, summaries, I/O). A
statement of any other kind ends the continuation; when no loss is known by then nothing is
used. The scratch graph is a child of the graph being traced (captures do not change that
graph) and is dropped with it; deprecation warnings it would print are held back.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import linecache
import logging
import warnings
from types import FrameType, ModuleType
from typing import Any

import numpy as np

from tapemagic.locations import enclosing_function
from tapemagic.optypes import READ_OPS
from tapemagic.trace import HostEvent, HostLink, RawLocation
from tapemagic.tracing import _tf_private as tfp
from tapemagic.tracing.recorder import Recorder

_STANDIN = "__tapemagic_host_value__"
_RESULT = "__tapemagic_result__"
#: Modules whose public functions may run in the scratch graph: TensorFlow's op functions and
#: Keras' ops, activations, losses and metrics (functions only; classes never). An allow-list:
#: anything else (``keras.random``'s global seed generator, ``keras.config``,
#: ``tf.random.get_global_generator``, ``tf.nest``'s callbacks) may change state the user sees.
_MODULES = (
    "tensorflow.python.ops.", "tensorflow.python.framework.constant_op",
    "tensorflow.python.framework.tensor_conversion", "keras.src.ops.",
    "keras.src.activations.", "keras.src.losses.losses", "keras.src.metrics.",
)
#: Modules among those above with an effect outside the traced graph (variables, state,
#: callbacks into Python, I/O, logging, global seeds and generators).
_DENIED_MODULES = (
    "tensorflow.python.ops.variables", "tensorflow.python.ops.resource_variable_ops",
    "tensorflow.python.ops.script_ops", "tensorflow.python.ops.summary_ops",
    "tensorflow.python.ops.io_ops", "tensorflow.python.ops.logging_ops",
    "tensorflow.python.ops.stateful_random_ops", "tensorflow.python.ops.numpy_ops.np_random",
    "tensorflow.python.ops.variable_scope", "tensorflow.python.ops.variable_v1",
    "tensorflow.python.ops.ref_variable", "tensorflow.python.ops.state_ops",
    "tensorflow.python.ops.data_flow_ops", "tensorflow.python.ops.lookup_ops",
    "tensorflow.python.ops.gen_logging_ops", "tensorflow.python.ops.gen_io_ops",
    "tensorflow.python.ops.gen_summary_ops", "tensorflow.python.ops.gen_state_ops",
    "tensorflow.python.ops.gen_resource_variable_ops", "tensorflow.python.ops.gen_script_ops",
    "tensorflow.python.ops.gen_stateful_random_ops", "tensorflow.python.ops.gen_data_flow_ops",
    "tensorflow.python.ops.gen_lookup_ops",
)
#: Values a name may hold to be read (no property, operator or iterator of the user's runs).
_PLAIN = (int, float, complex, bool, str, bytes, type(None), slice, type(Ellipsis))
_BUILTINS = frozenset({"len", "abs", "min", "max", "sum"})
_EXPRESSIONS = (ast.Name, ast.Constant, ast.Attribute, ast.BinOp, ast.UnaryOp, ast.Compare,
                ast.Subscript, ast.Slice, ast.Tuple, ast.List, ast.Call, ast.keyword,
                ast.Starred, ast.operator, ast.unaryop, ast.cmpop, ast.expr_context)


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
            rec.busy = True  # the stand-in itself is not an op of the user's
            try:
                standin = tfp.tf.identity(tensor)
            finally:
                rec.busy = False
            serial = rec.register(standin, None, "host", strong=True)
            rec.trace.host_links[serial] = HostLink(serial, event.id, probable=False)
            namespace[_STANDIN] = standin
            exec(code, frame.f_globals, namespace)  # noqa: S102 - the user's own checked lines
        target = namespace.get(target_name)
        found = rec.serial_of(target) if target is not None else None
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
    return not any(_from_weights(rec, producers, serial) for serial in external)


def _from_weights(rec: Recorder, producers: dict[int, Any], start: int) -> bool:
    """Tell whether the recorded ops compute ``start`` from a variable (a handle is read)."""
    seen: set[int] = set()
    stack = [start]
    while stack:
        serial = stack.pop()
        if serial in seen:
            continue
        seen.add(serial)
        record = rec.trace.tensors.get(serial)
        if record is not None and record.dtype == "resource":
            return True
        op = producers.get(serial)
        if op is not None:
            if op.op_type in READ_OPS:
                return True
            stack.extend(op.inputs)
    return False


def _plan(frame: FrameType, loc: RawLocation, kind: str, api: str,
          ) -> tuple[Any, str, dict[str, Any]] | None:
    """Return (code, name of the loss, namespace) for the rest of the function, or None."""
    tree = ast.parse("".join(linecache.getlines(loc.file)))
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
    scope = _Scope(frame, namespace)
    body: list[ast.stmt] = []
    target: str | None = None
    for stmt in rest:
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            if not _pure(stmt.value, scope):
                return None
            result = ast.copy_location(ast.Name(_RESULT, ast.Store()), stmt)
            body.append(ast.copy_location(ast.Assign([result], stmt.value), stmt))
            target = _RESULT
            break
        if not _pure_statement(stmt, scope):
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


class _Scope:
    """What the planned lines may read: the frame's names, and those the lines bind before.

    ``bound`` names hold values the lines computed (readable); ``fresh`` ones a new object (the
    result of a call or an operator), which an augmented assignment may change in place.
    """

    def __init__(self, frame: FrameType, namespace: dict[str, Any]) -> None:
        self.frame = frame
        self.namespace = namespace
        self.bound: set[str] = {_STANDIN}
        self.fresh: set[str] = {_STANDIN}

    def lookup(self, name: str) -> tuple[bool, Any]:
        """Return (found, value) of ``name`` as the exec sees it (locals, globals, builtins)."""
        for names in (self.namespace, self.frame.f_globals, self.frame.f_builtins):
            if name in names:
                return True, names[name]
        return False, None

    def bind(self, target: ast.expr, value: ast.expr) -> None:
        made = isinstance(value, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare))
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self.bound.add(node.id)
                (self.fresh.add if made and node is target else self.fresh.discard)(node.id)


def _pure_statement(stmt: ast.stmt, scope: _Scope) -> bool:
    if isinstance(stmt, ast.Assign):
        if not (all(_local_targets(t) for t in stmt.targets) and _pure(stmt.value, scope)):
            return False
        for target in stmt.targets:
            scope.bind(target, stmt.value)
        return True
    if isinstance(stmt, ast.AnnAssign):
        if not (isinstance(stmt.target, ast.Name) and stmt.value is not None
                and _pure(stmt.value, scope)):
            return False
        scope.bind(stmt.target, stmt.value)
        return True
    if isinstance(stmt, ast.AugAssign):
        # ``log += [t]`` extends the caller's list in place: only a name holding a tensor, a
        # number or a value these lines made is rebound
        if not (isinstance(stmt.target, ast.Name) and _rebinds(stmt.target.id, scope)
                and _pure(stmt.value, scope)):
            return False
        scope.bind(stmt.target, ast.BinOp(stmt.target, stmt.op, stmt.value))
        return True
    return False


def _rebinds(name: str, scope: _Scope) -> bool:
    if name in scope.bound:
        return name in scope.fresh
    found, value = scope.lookup(name)
    return found and (isinstance(value, (int, float, complex))
                      or isinstance(value, tfp.tf.Tensor))


def _local_targets(target: ast.expr) -> bool:
    """Only local names are bound (an attribute or item store would change an object)."""
    if isinstance(target, ast.Name):
        return True
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(_local_targets(t) for t in target.elts)
    return False


def _pure(expr: ast.expr, scope: _Scope) -> bool:
    """Tell whether ``expr`` only reads plain values and calls TensorFlow/Keras functions.

    A name read must hold a tensor, an array, a number or a container of those (no user object:
    its properties and operators are the user's code), never a callable (``tf.nest`` and
    ``tf.map_fn`` call the functions they are given) nor a variable: reading one makes the
    user's tape watch it, and the unreached gradient call would then name it as cut (its
    sources are what the tape watched; a variable used only after the cut is not cut).
    """
    calls = [n for n in ast.walk(expr) if isinstance(n, ast.Call)]
    # a call's callee is checked as a call; the inner links of a chain with the whole chain
    in_func = {id(n.value) for n in ast.walk(expr) if isinstance(n, ast.Attribute)}
    for call in calls:
        link: ast.expr = call.func
        while True:
            in_func.add(id(link))
            if not isinstance(link, ast.Attribute):
                break
            link = link.value
    for node in ast.walk(expr):
        if not isinstance(node, _EXPRESSIONS):
            return False
        if isinstance(node, ast.Call) and not _allowed_call(node.func, scope):
            return False
        if id(node) in in_func or not isinstance(node, (ast.Name, ast.Attribute)):
            continue
        if not _readable(node, scope):
            return False
    return True


def _readable(node: ast.expr, scope: _Scope) -> bool:
    """Tell whether reading the name or attribute chain ``node`` runs none of the user's code."""
    chain: list[str] = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return True  # an attribute of a call's result: that result is checked as a call
    if node.id in scope.bound:
        return True  # a value these lines computed from readable ones
    found, value = scope.lookup(node.id)
    if not found:
        return False
    for part in reversed(chain):
        if _tensor_like(value):
            return True  # a tensor's or an array's attributes (shape, dtype) are TF's or NumPy's
        if isinstance(value, ModuleType):
            value = getattr(value, part, None)
            continue
        # an object's own attribute, stored in its __dict__ (``self.scale = 2.0``); never a
        # property or a class's descriptor (user code) nor a dynamic __getattr__
        try:
            static = inspect.getattr_static(value, part)
        except AttributeError:
            return False
        own = getattr(value, "__dict__", None)
        if not (isinstance(own, dict) and part in own and own[part] is static):
            return False
        value = static
    return _plain(value)


def _tensor_like(value: Any) -> bool:
    """Tell whether ``value`` is a tensor, an array, a dtype or a shape (never a variable)."""
    return isinstance(value, (tfp.tf.Tensor, np.ndarray, np.generic, tfp.tf.DType,
                              tfp.tf.TensorShape))


def _plain(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _PLAIN) or _tensor_like(value):
        return True
    if depth >= 3:
        return False
    if type(value) in (list, tuple) and len(value) <= 256:
        return all(_plain(v, depth + 1) for v in value)
    if type(value) is dict and len(value) <= 256:
        return all(isinstance(k, (str, int)) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _allowed_call(func: ast.expr, scope: _Scope) -> bool:
    """Tell whether ``func`` is a TensorFlow/Keras function reached through modules only.

    ``tf.argsort``, ``keras.ops.mean``, a function imported by name; never a method of an
    object (a layer, a tape, a variable: each may change state), a class or a local callable.
    """
    chain: list[str] = []
    node = func
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id in scope.bound:
        return False
    found, value = scope.lookup(node.id)
    if not found:
        return False
    if value is getattr(builtins, node.id, None) and not chain:
        return node.id in _BUILTINS
    for part in reversed(chain):
        if not isinstance(value, ModuleType):
            return False
        value = getattr(value, part, None)
    module = getattr(value, "__module__", None) or ""
    return (callable(value) and not isinstance(value, type) and module.startswith(_MODULES)
            and not module.startswith(_DENIED_MODULES))


def _gradient_target(stmt: ast.stmt) -> str | None:
    """Return the loss name in ``grads = tape.gradient(loss, ...)`` (after the block)."""
    for node in ast.walk(stmt):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "gradient" and node.args
                and isinstance(node.args[0], ast.Name)):
            return node.args[0].id
    return None
