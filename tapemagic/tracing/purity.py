"""Which statements the continuation may trace: the ones that cannot change anything.

Imports TensorFlow (through ``_tf_private``), to tell tensors from other values. A statement
is traced only when it binds local names (or returns) and every expression in it reads names
holding plain values, tensors or modules, and calls TensorFlow or Keras op *functions* from an
allow-list of modules (never a method, a class, a property, a callable passed as an argument
or a variable read, each of which may run the user's code or change state the user sees).
Used by :mod:`tapemagic.tracing.continuation`, which traces them in a scratch graph.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from types import FrameType, ModuleType
from typing import Any

import numpy as np

from tapemagic.tracing import _tf_private as tfp

#: The name the host value's stand-in has in the traced lines.
STANDIN = "__tapemagic_host_value__"

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



class Scope:
    """What the planned lines may read: the frame's names, and those the lines bind before.

    ``bound`` names hold values the lines computed (readable); ``fresh`` ones a new object (the
    result of a call or an operator), which an augmented assignment may change in place.
    """

    def __init__(self, frame: FrameType, namespace: dict[str, Any]) -> None:
        self.frame = frame
        self.namespace = namespace
        self.bound: set[str] = {STANDIN}
        self.fresh: set[str] = {STANDIN}

    def lookup(self, name: str) -> tuple[bool, Any]:
        """Return (found, value) of ``name`` as the exec sees it (locals, globals, builtins)."""
        for names in (self.namespace, self.frame.f_globals, self.frame.f_builtins):
            if name in names:
                return True, names[name]
        return False, None

    def bind(self, target: ast.expr, value: ast.expr) -> None:
        """Note the names ``target`` binds (fresh when ``value`` computes a new value)."""
        made = isinstance(value, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare))
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self.bound.add(node.id)
                (self.fresh.add if made and node is target else self.fresh.discard)(node.id)


def pure_statement(stmt: ast.stmt, scope: Scope) -> bool:
    """Tell whether ``stmt`` binds local names only, from expressions :func:`pure` accepts."""
    if isinstance(stmt, ast.Assign):
        if not (all(_local_targets(t) for t in stmt.targets) and pure(stmt.value, scope)):
            return False
        for target in stmt.targets:
            scope.bind(target, stmt.value)
        return True
    if isinstance(stmt, ast.AnnAssign):
        if not (isinstance(stmt.target, ast.Name) and stmt.value is not None
                and pure(stmt.value, scope)):
            return False
        scope.bind(stmt.target, stmt.value)
        return True
    if isinstance(stmt, ast.AugAssign):
        # ``log += [t]`` extends the caller's list in place: only a name holding a tensor, a
        # number or a value these lines made is rebound
        if not (isinstance(stmt.target, ast.Name) and _rebinds(stmt.target.id, scope)
                and pure(stmt.value, scope)):
            return False
        scope.bind(stmt.target, ast.BinOp(stmt.target, stmt.op, stmt.value))
        return True
    return False


def _rebinds(name: str, scope: Scope) -> bool:
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


def pure(expr: ast.expr, scope: Scope) -> bool:
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


def _readable(node: ast.expr, scope: Scope) -> bool:
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


def _allowed_call(func: ast.expr, scope: Scope) -> bool:
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
