"""Static shapes of variables Keras 3 does not track because of what holds them (TM114, TM115).

TF-free, syntactic, over one parsed source. Keras 3 tracks what a layer assigns to ``self``
when it is a layer, a ``keras.Variable`` or a list/dict/tuple of them
(``keras/src/layers/layer.py``, ``Layer.__setattr__`` through ``Tracker``); anything else is an
opaque Python object, and a ``Lambda`` tracks nothing its function reads. So:

- :func:`held_variables`: ``self.x = Holder(...)`` in the ``__init__``/``build`` of a Keras 3
  layer class, ``Holder`` a class of the source that is not a Keras layer (a ``tf.Module``, a
  plain helper object) and keeps a trainable variable on its own ``self``: the variable is in
  no ``trainable_variables`` and ``fit`` never updates it. Left alone: a holder whose
  variables it writes itself (a state, an EMA), a ``tf_keras`` layer (Keras 2 tracks
  ``tf.Module``s), and ``trainable=False`` or integer variables;
- :func:`lambda_variables`: a module-level trainable variable read inside a
  ``keras.layers.Lambda``'s function and used nowhere else as a value (not passed in any
  source or variable list, never written): no model's weights include it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint import untracked
from tapemagic.lint.names import FUNCTIONAL, LAMBDA_LAYER, VARIABLE, Imports

_BUILDERS = ("__init__", "build")


def held_variables(tree: ast.Module, imports: Imports) -> Iterator[tuple[ast.Call, ast.Call]]:
    """Yield (the holder's constructor call, the variable it makes) per untracked holder."""
    keras_classes = {c.name for c in untracked.keras_classes(tree, imports)}
    classes = {c.name: c for c in ast.walk(tree) if isinstance(c, ast.ClassDef)}
    for cls in untracked.keras_classes(tree, imports):
        if untracked.from_tf_keras(cls, imports):
            continue
        # a holder the source reaches into for a gradient call's sources is trained by hand
        written = untracked.self_assigned(cls) | untracked.named_sources(tree)
        for method in _builders(cls):
            for node in ast.walk(method):
                if not isinstance(node, ast.Assign) or untracked.self_store(node) in written:
                    continue
                if untracked.self_store(node) is None:
                    continue
                call = node.value
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                    continue
                holder = classes.get(call.func.id)
                if holder is None or holder.name in keras_classes:
                    continue
                variable = _own_variable(holder, classes, imports)
                if variable is not None:
                    yield call, variable


#: the Keras methods that train a model on every output's loss
_KERAS_TRAINS = frozenset({"fit", "train_on_batch"})


def lambda_variables(tree: ast.Module, imports: Imports) -> Iterator[tuple[ast.Call, str]]:
    """Yield (the ``tf.Variable(...)`` call, its name) of a variable only a Lambda reads."""
    variables: dict[str, ast.Call] = {}
    for stmt in tree.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
                and imports.dotted(stmt.value.func) in VARIABLE
                and untracked.trainable(stmt.value)):
            variables[stmt.targets[0].id] = stmt.value
    if not variables:
        return
    bodies = list(_lambda_functions(tree, imports))
    inside = {id(n) for body in bodies for n in ast.walk(body)}
    parents = {child: parent for parent in ast.walk(tree)
               for child in ast.iter_child_nodes(parent)}
    read_in_lambda: set[str] = set()
    used_elsewhere: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id in variables
                and isinstance(node.ctx, ast.Load)):
            continue
        if id(node) in inside:
            read_in_lambda.add(node.id)
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and not parent.attr.startswith("assign"):
            continue  # `temperature.numpy()`: a read for a print, not a use as a weight
        used_elsewhere.add(node.id)  # in a source list, written, passed along
    # only where the Lambda's output surely reaches a loss: Keras trains the model (fit gives
    # every output a loss), or it is a model's one output; a custom step may read one output
    # of several for a metric alone, which leaves the variable untrained on purpose
    if not (any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in _KERAS_TRAINS for n in ast.walk(tree))
            or _sole_output(tree, imports, inside)):
        return
    for name in sorted(read_in_lambda - used_elsewhere):
        yield variables[name], name


def _builders(cls: ast.ClassDef) -> list[ast.FunctionDef]:
    return [m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name in _BUILDERS]


def _own_variable(holder: ast.ClassDef, classes: dict[str, ast.ClassDef],
                  imports: Imports, depth: int = 0) -> ast.Call | None:
    """Return a trainable variable ``holder`` (or a base class of the source) keeps on self.

    None when the holder writes that attribute itself (``assign``: a state it keeps).
    """
    written = untracked.self_assigned(holder)
    for method in _builders(holder):
        for node in ast.walk(method):
            if not isinstance(node, (ast.Assign, ast.AnnAssign)):
                continue
            attr = untracked.self_store(node)
            if attr is None or attr in written:
                continue
            for call in (n for n in ast.walk(node.value) if isinstance(n, ast.Call)) \
                    if node.value is not None else ():
                if imports.dotted(call.func) in VARIABLE and untracked.trainable(call):
                    return call
    for base in holder.bases:
        parent = classes.get(base.id) if isinstance(base, ast.Name) else None
        if parent is not None and depth < 4:
            found = _own_variable(parent, classes, imports, depth + 1)
            if found is not None:
                return found
    return None


def _sole_output(tree: ast.Module, imports: Imports, inside: set[int]) -> bool:
    """Say whether a ``keras.Model(inputs, NAME)`` has a Lambda's result as its one output."""
    made = {stmt.targets[0].id for stmt in ast.walk(tree)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and any(id(n) in inside for n in ast.walk(stmt.value))}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and imports.dotted(node.func) in FUNCTIONAL):
            continue
        outputs = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg == "outputs"), None)
        if isinstance(outputs, ast.Name) and outputs.id in made:
            return True
    return False


def _lambda_functions(tree: ast.Module, imports: Imports) -> Iterator[ast.AST]:
    """Yield the function each ``keras.layers.Lambda(...)`` of the source runs."""
    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and imports.dotted(node.func) in LAMBDA_LAYER):
            continue
        function = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg == "function"), None)
        if isinstance(function, ast.Lambda):
            yield function
        elif isinstance(function, ast.Name) and function.id in functions:
            yield functions[function.id]

