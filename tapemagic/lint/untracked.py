"""Static shapes of weights Keras 3 does not track (the hints of TM114, TM115 and TM116).

TF-free, syntactic, over one parsed source and its imports:

- :func:`raw_variables`: ``tf.Variable(...)`` assigned to ``self`` (or into a list on it) in the
  ``__init__`` or ``build`` of a Keras layer class (Keras 3: not one of its weights). Left
  alone: ``trainable=False``, an integer or boolean initial value or dtype (a counter), a
  variable the class assigns itself (a state, an EMA), ``keras.Variable``/``add_weight``, and a
  class built on ``tf_keras`` (Keras 2 tracks ``tf.Variable``s);
- :func:`lambda_models`: a ``keras.layers.Lambda`` whose function calls a name bound to a Keras
  model or layer (its weights are not the outer model's). Left alone: a function of ops only,
  and a model the source freezes (``trainable = False``: frozen on purpose);
- :func:`module_sources`: ``X.trainable_variables`` passed to ``tape.gradient`` where ``X`` is a
  ``tf.Module`` class of the source (or an instance of one) that assigns Keras layers or
  models to ``self`` (a ``tf.Module`` collects ``tf.Variable``s, and Keras 3 weights are not).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tapemagic.lint.names import KERAS_BASES, LAMBDA_LAYER, Imports

_TF_VARIABLE = "tensorflow.Variable"
_KERAS_VARIABLE = frozenset({"keras.Variable", "keras.backend.Variable",
                             "keras.variables.Variable"})
_MODULE = "tensorflow.Module"
_BUILDERS = ("__init__", "build")
_INTEGER = ("int", "uint", "bool")
#: Keras calls that return a model or layer (besides the classes under keras.layers/models)
_MODEL_CALLS = ("keras.Sequential", "keras.Model", "keras.models.", "keras.layers.",
                "keras.applications.", "keras.saving.load_model")
_SOURCE_PROPERTIES = frozenset({"trainable_variables", "trainable_weights"})


def raw_variables(tree: ast.Module, imports: Imports) -> Iterator[ast.Call]:
    """Yield each trainable ``tf.Variable(...)`` a Keras layer class keeps on ``self``."""
    for cls in _classes(tree, imports, KERAS_BASES):
        if from_tf_keras(cls, imports):
            continue
        # a variable the source gives a gradient call or optimizer by name is trained by hand,
        # tracked or not (the run's TM114 also leaves a variable a gradient call takes alone)
        assigned = self_assigned(cls) | self_assigned(tree, anyone=True) | named_sources(tree)
        for method in cls.body:
            if not isinstance(method, ast.FunctionDef) or method.name not in _BUILDERS:
                continue
            for node in ast.walk(method):
                target = self_store(node)
                if target is None or target in assigned:
                    continue
                value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else (
                    node.args[0] if isinstance(node, ast.Call) and node.args else None)
                for call in _calls_in(value):
                    if imports.dotted(call.func) == _TF_VARIABLE and trainable(call):
                        yield call


def lambda_models(tree: ast.Module, imports: Imports) -> Iterator[tuple[ast.Call, ast.Call]]:
    """Yield (the ``Lambda(...)`` call, the model call inside its function)."""
    models = _model_names(tree, imports)
    # frozen on purpose, or trained by hand (its variables given to a gradient call)
    models -= _frozen_names(tree) | named_sources(tree)
    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args
                and imports.dotted(node.func) in LAMBDA_LAYER):
            continue
        function = node.args[0]
        body: ast.AST | None = function if isinstance(function, ast.Lambda) else (
            functions.get(function.id) if isinstance(function, ast.Name) else None)
        inner = next((c for c in _calls_in(body) if isinstance(c.func, ast.Name)
                      and c.func.id in models), None)
        if inner is not None:
            yield node, inner


def module_sources(tree: ast.Module, imports: Imports
                   ) -> Iterator[tuple[ast.Attribute, ast.ClassDef, list[ast.Call]]]:
    """Yield ``X.trainable_variables`` given as sources, ``X`` a ``tf.Module`` holding Keras.

    With the class: its ``tf.Module`` base is the line that decides what the collection holds
    (the runtime's TM116 points there too), for an instance used outside it (a step at module
    level) as for ``self.trainable_variables`` in the class's own step. And with the trainable
    ``keras.Variable(...)`` calls it stores on ``self`` when it holds no Keras layer: a Keras 3
    variable is no ``tf.Variable`` either, and the line that made it is the one to change.
    """
    holders = {cls.name: cls for cls in _classes(tree, imports, {_MODULE}, keras=False)
               if _holds_keras(cls, tree, imports) or keras_variables(cls, imports)}
    if not holders:
        return
    instances = {name: holders[value.func.id] for name, value in _bindings(tree)
                 if isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                 and value.func.id in holders}
    made = {name: [] if _holds_keras(cls, tree, imports) else keras_variables(cls, imports)
            for name, cls in holders.items()}
    inside: set[int] = set()
    for cls in holders.values():
        for sources in _gradient_sources(cls, {"self"}):
            inside.add(id(sources))
            yield sources, cls, made[cls.name]
    for sources in _gradient_sources(tree, set(instances)):
        if id(sources) not in inside:
            assert isinstance(sources.value, ast.Name)
            cls = instances[sources.value.id]
            yield sources, cls, made[cls.name]


def keras_variables(cls: ast.ClassDef, imports: Imports) -> list[ast.Call]:
    """Return the trainable ``keras.Variable(...)`` calls a class stores on ``self``."""
    return [call for node in ast.walk(cls) if self_store(node) is not None
            and isinstance(node, (ast.Assign, ast.AnnAssign))
            for call in _calls_in(node.value)
            if imports.dotted(call.func) in _KERAS_VARIABLE and trainable(call)]


# -- helpers ---------------------------------------------------------------------------------

def keras_classes(tree: ast.Module, imports: Imports) -> list[ast.ClassDef]:
    """Return the Keras layer and model classes of the source (through its own classes)."""
    return _classes(tree, imports, KERAS_BASES)


def _classes(tree: ast.Module, imports: Imports, bases: frozenset[str] | set[str],
             keras: bool = True) -> list[ast.ClassDef]:
    """Return the classes that extend ``bases`` (through classes of the source too)."""
    classes = [c for c in ast.walk(tree) if isinstance(c, ast.ClassDef)]
    found: dict[str, ast.ClassDef] = {}
    changed = True
    while changed:
        changed = False
        for cls in classes:
            if cls.name in found:
                continue
            for base in cls.bases:
                name = imports.dotted(base)
                local = base.id if isinstance(base, ast.Name) else None
                if name in bases or (local in found):
                    found[cls.name] = cls
                    changed = True
                    break
    if not keras:  # a tf.Module subclass that is also a Keras layer tracks its layers
        keras_classes = {c.name for c in _classes(tree, imports, KERAS_BASES)}
        return [c for c in found.values() if c.name not in keras_classes]
    return list(found.values())


def from_tf_keras(cls: ast.ClassDef, imports: Imports) -> bool:
    """Return True for a class whose Keras base comes from ``tf_keras`` (Keras 2)."""
    for base in cls.bases:
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name) and imports.aliases.get(base.id, "").startswith("tf_keras"):
            return True
    return False


def self_store(node: ast.AST) -> str | None:
    """Return ``X`` for ``self.X = ...``, ``self.X: T = ...`` or ``self.X.append(...)``."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
          and node.func.attr in ("append", "extend")):
        targets = [node.func.value]
    for target in targets:
        if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == "self"):
            return target.attr
    return None


def self_assigned(cls: ast.AST, anyone: bool = False) -> set[str]:
    """Return the attributes the class itself writes with ``self.X.assign*(...)`` (a state).

    ``anyone``: also ``<any object>.X.assign*(...)`` in ``cls`` (a module: a callback's
    ``self.model.X.assign(...)`` sets a weight the step only reads).
    """
    found = set()
    for node in ast.walk(cls):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr.startswith("assign")):
            owner = node.func.value
            while isinstance(owner, ast.Subscript):
                owner = owner.value
            if isinstance(owner, ast.Attribute) and (anyone or (
                    isinstance(owner.value, ast.Name) and owner.value.id == "self")):
                found.add(owner.attr)
    return found


def _calls_in(node: ast.AST | None) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)] if node is not None else []


def trainable(call: ast.Call) -> bool:
    """Return False for ``trainable=False`` and for an integer or boolean variable."""
    for keyword in call.keywords:
        if keyword.arg == "trainable" and not (
                isinstance(keyword.value, ast.Constant) and keyword.value.value is True):
            return False
        if keyword.arg == "dtype" and any(part in ast.unparse(keyword.value)
                                          for part in _INTEGER):
            return False
    value = call.args[0] if call.args else None
    return not (isinstance(value, ast.Constant) and isinstance(value.value, (bool, int))
                and "dtype" not in {k.arg for k in call.keywords})


def _bindings(tree: ast.AST) -> Iterator[tuple[str, ast.expr]]:
    """Yield (name, value) of every ``name = value`` in the source."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    yield target.id, node.value


def _keras_made(value: ast.expr | None, tree: ast.Module, imports: Imports) -> bool:
    """Return True when ``value`` calls a Keras model or layer constructor (or a loader)."""
    if not isinstance(value, ast.Call):
        return False
    name = imports.dotted(value.func) or ""
    if name.startswith(_MODEL_CALLS):
        return name.rsplit(".", 1)[-1][:1].isupper() or name.endswith("load_model")
    local = {c.name for c in _classes(tree, imports, KERAS_BASES)}
    return isinstance(value.func, ast.Name) and value.func.id in local


def _model_names(tree: ast.Module, imports: Imports) -> set[str]:
    return {name for name, value in _bindings(tree) if _keras_made(value, tree, imports)}


def _frozen_names(tree: ast.Module) -> set[str]:
    """Return names whose ``trainable`` the source sets to a constant False."""
    return {t.value.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and node.value.value is False
            for t in node.targets if isinstance(t, ast.Attribute) and t.attr == "trainable"
            and isinstance(t.value, ast.Name)}


def _holds_keras(cls: ast.ClassDef, tree: ast.Module, imports: Imports) -> bool:
    """Return True when the class assigns a Keras model or layer to ``self``."""
    return any(isinstance(node, ast.Assign) and self_store(node) is not None and any(
        _keras_made(value, tree, imports) for value in (
            node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]))
        for node in ast.walk(cls))


def _gradient_sources(scope: ast.AST, owners: set[str]) -> Iterator[ast.Attribute]:
    """Yield ``owner.trainable_variables`` passed as ``.gradient(target, sources)``."""
    for node in ast.walk(scope):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "gradient" and len(node.args) > 1):
            continue
        sources = node.args[1]
        if (isinstance(sources, ast.Attribute) and sources.attr in _SOURCE_PROPERTIES
                and isinstance(sources.value, ast.Name) and sources.value.id in owners):
            yield sources


#: calls that take the variables to differentiate or update: (method, argument index, keyword)
_TAKERS = {"gradient": (1, "sources"), "jacobian": (1, "sources"),
           "minimize": (1, "var_list"), "apply_gradients": (0, "grads_and_vars")}


def named_sources(tree: ast.AST) -> set[str]:
    """Return the attributes (and objects) named in what a gradient call or an optimizer is given.

    ``tape.gradient(loss, head.trainable_variables + [layer.scale])``, or a name bound to such
    a list (followed through the source's ``name = value`` bindings), names ``scale``; of
    ``zip(grads, variables)`` only the variables count.
    """
    bound: dict[str, list[ast.expr]] = {}
    for name, value in _bindings(tree):
        bound.setdefault(name, []).append(value)
    todo: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                taker := _TAKERS.get(node.func.attr)) is not None:
            index, keyword = taker
            todo += node.args[index:index + 1] + [k.value for k in node.keywords
                                                  if k.arg == keyword]
    found: set[str] = set()
    seen: set[str] = set()
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Attribute):  # `layer.holder.trainable_variables`: both
            found.add(node.attr)
            if isinstance(node.value, ast.Attribute):
                todo.append(node.value)
            elif isinstance(node.value, ast.Name):  # `encoder.trainable_variables`: encoder
                found.add(node.value.id)
        elif isinstance(node, ast.Name) and node.id not in seen:
            seen.add(node.id)
            todo += bound.get(node.id, [])
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            todo += node.elts
        elif isinstance(node, ast.BinOp):
            todo += [node.left, node.right]
        elif isinstance(node, ast.Starred):
            todo.append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            # zip(grads, variables): the variables; list(variables), tuple(...): the same
            todo += node.args[1:] if node.func.id == "zip" else node.args[:1]
    return found
