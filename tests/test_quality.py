"""House rules that a test can hold: TF-free rooms, lint and types."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_only_tracing_imports_tensorflow() -> None:
    code = (
        "import sys\n"
        "import tapemagic, tapemagic.magic, tapemagic.engine, tapemagic.diagnosis\n"
        "import tapemagic.graph.analysis, tapemagic.graph.collapse, tapemagic.fixes\n"
        "import tapemagic.report.html, tapemagic.report.text, tapemagic.__main__\n"
        "import tapemagic.frames\n"
        "assert 'tensorflow' not in sys.modules, 'a TF-free module imported TensorFlow'\n"
        "assert 'keras' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.skipif(shutil.which("ruff") is None and not (ROOT / ".venv/bin/ruff").exists(),
                    reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(ROOT / ".venv/bin/ruff")
    done = subprocess.run([ruff, "check", "tapemagic"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout


#: The bench's program corpora: users' programs as they were written, not modules of ours.
CORPORA = re.compile(r"bench/(cases|blind[^/]*)/")


def own_python_files() -> list[Path]:
    """Every .py file of the repository that git tracks or would track, the corpora left out.

    Git's list, not a glob: a glob of the checkout walks what .gitignore keeps out (a .venv,
    build/, the built lab extension). Untracked files that are not ignored count too, so a new
    module is held before its commit.
    """
    done = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                           "--", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True,
                          timeout=60)
    return [ROOT / name for name in sorted(set(done.stdout.split("\0")))
            if name and not CORPORA.match(name) and (ROOT / name).is_file()]


def test_modules_stay_small() -> None:
    """No .py file of ours is over 400 lines: the package, tests/, bench/, demo/ (split it)."""
    files = own_python_files()
    assert {ROOT / "tapemagic/__init__.py", ROOT / "tests/test_quality.py"} <= set(files)
    big = [(str(p.relative_to(ROOT)), n) for p in files
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400]
    assert not big, f"split these by responsibility: {big}"


def function_lengths(path: Path) -> list[tuple[str, int]]:
    """Return each function's lines in ``path``: decorators to its end, its docstring left out.

    A docstring documents; the limit is on what the function does.
    """
    import ast

    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        first = node.body[0]
        doc = (first.end_lineno - first.lineno + 1  # type: ignore[operator]
               if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
               and isinstance(first.value.value, str) else 0)
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        found.append((node.name, node.end_lineno - start + 1 - doc))  # type: ignore[operator]
    return found


def test_functions_stay_short() -> None:
    """No function of the package is over 80 lines (CONTRIBUTING: split it by step)."""
    long = [(str(p.relative_to(ROOT)), name, n) for p in (ROOT / "tapemagic").rglob("*.py")
            for name, n in function_lengths(p) if n > 80]
    assert not long, f"split these into named steps: {long}"


def test_function_lengths_count_code_not_docstrings(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text('@deco\ndef f():\n    """One.\n\n    Two.\n    """\n    x = 1\n'
                      '    return x\n\n\nasync def g():\n    pass\n')
    assert function_lengths(source) == [("f", 4), ("g", 2)]


def test_the_labextension_has_the_packages_version() -> None:
    """`jupyter labextension list` shows the version pip installed."""
    import json

    import tapemagic

    package = json.loads((ROOT / "labextension" / "package.json").read_text(encoding="utf-8"))
    assert package["version"] == tapemagic.__version__


def test_the_processes_a_run_starts_use_its_own_temp_folder() -> None:
    """Autograph's files of a kernel or CLI run a test stops go where the run removes them."""
    done = subprocess.run([sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"],
                          capture_output=True, text=True, check=True, timeout=60)
    folder = Path(done.stdout.strip())
    assert folder.name.startswith("tapemagic-tests-") and folder.is_dir(), folder
