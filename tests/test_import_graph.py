"""The package's import graph is a DAG and no module takes another module's private names.

The graph is read from the source with ``ast`` (nothing is imported): every ``import`` and
``from ... import`` in a module counts, inside functions too (a deferred import still ties the
two modules together), except those under ``if TYPE_CHECKING:``, which never run. An import
edge points at the module named; a parent package's ``__init__`` that Python runs on the way is
not counted (it would tie every module to ``tapemagic/__init__.py``).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tapemagic"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement in ``tree`` except those in an ``if TYPE_CHECKING:`` body."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def base_of(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def edges_of(module: str, path: Path, modules: dict[str, Path]):
    """Yield ``(target module, imported name or None, line)`` for each internal import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in runtime_imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, None, node.lineno
            continue
        base = base_of(module, path, node)
        if base not in modules:
            continue
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in modules:
                yield sub, None, node.lineno
            else:
                yield base, alias.name, node.lineno


@functools.cache  # one walk for all the tests (in a full run, allocation can wake the GC)
def import_graph() -> tuple[dict[str, set[str]], list[str]]:
    modules = all_modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    private: list[str] = []
    for module, path in modules.items():
        for target, name, line in edges_of(module, path, modules):
            if target != module:
                graph[module].add(target)
            if name and name.startswith("_") and not name.startswith("__") and target != module:
                private.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {target}.{name}")
    return graph, private


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_walk_sees_the_package():
    graph, _ = import_graph()
    # a sample of edges the walk must find: absolute, relative and in-function imports
    assert "tapemagic.api" in graph["tapemagic"]
    assert any(t.startswith("tapemagic.report") for t in graph["tapemagic.api"])
    assert "tapemagic.magic" in graph["tapemagic"]  # imported inside load_ipython_extension


def test_module_imports_form_a_dag():
    graph, _ = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_module_imports_another_modules_private_names():
    _, private = import_graph()
    assert not private, "private names imported across modules:\n" + "\n".join(private)


def test_find_cycle_finds_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# What ``tapemagic/tracing/`` may import from outside itself (ARCHITECTURE.md): the Trace data,
# the source index and the TF-free frame walk beside it, the op tables and the heap switch.
TRACING_MAY_IMPORT = frozenset({"tapemagic.trace", "tapemagic.py_body", "tapemagic.switches",
                                "tapemagic.untracked_facts",
                                "tapemagic.locations", "tapemagic.frames",
                                "tapemagic.magic_bodies", "tapemagic.autograph",
                                "tapemagic.optypes", "tapemagic.heap"})
# Who may reach into ``tracing/`` past ``tracing/lazy.py``: the function door that starts the
# session (``api``) and the fix re-run's child process, which seeds TensorFlow.
INTO_TRACING = frozenset({"tapemagic.api", "tapemagic.verify.replay"})


def test_tracing_imports_only_its_own_and_the_tf_free_base():
    graph, _ = import_graph()
    wrong = sorted(f"{m} -> {t}" for m, targets in graph.items()
                   if m.startswith("tapemagic.tracing") for t in targets
                   if not t.startswith("tapemagic.tracing") and t not in TRACING_MAY_IMPORT)
    assert not wrong, wrong


def test_the_doors_reach_tracing_only_through_lazy():
    """``tracing/lazy.py`` is the doors' one way into ``tracing/`` (TensorFlow stays behind it)."""
    graph, _ = import_graph()
    wrong = sorted(f"{m} -> {t}" for m, targets in graph.items()
                   if not m.startswith("tapemagic.tracing") and m not in INTO_TRACING
                   for t in targets
                   if t.startswith("tapemagic.tracing") and t != "tapemagic.tracing.lazy")
    assert not wrong, wrong
