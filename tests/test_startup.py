"""An instant start: ``import tapemagic`` and the lint door leave the heavy packages unloaded.

jsonschema costs seconds to import where JupyterLab's dependencies are installed (its format
checkers compile a grammar when ``rfc3987-syntax`` is present), TensorFlow more; every
``%load_ext tapemagic``, ``tapemagic lint`` and verification subprocess would pay them. Each
check runs in a fresh interpreter, so what an earlier test imported does not hide a regression.
No timing here (bench/startup.py measures it).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HEAVY = ("jsonschema", "tensorflow", "keras", "libcst")


def loaded_after(code: str) -> list[str]:
    """Return which of :data:`HEAVY` are in ``sys.modules`` after running ``code`` fresh."""
    # a module imported lazily (tapemagic._lazy) and not used yet is a _LazyModule: not loaded
    probe = code + (f"\nimport sys, types\nprint('loaded:' + ','.join(m for m in {HEAVY!r} "
                    "if type(sys.modules.get(m)) is types.ModuleType))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("loaded:"), done.stdout
    return [m for m in last.removeprefix("loaded:").split(",") if m]


def test_import_tapemagic_loads_neither_jsonschema_nor_tensorflow() -> None:
    assert loaded_after("import tapemagic") == []


def test_the_report_package_loads_its_parts_on_first_use() -> None:
    # the model and the renderers are used by every door; only validate_report needs jsonschema
    code = ("import tapemagic.report.model, tapemagic.rules\n"
            "from tapemagic.report import Report, render_text, mimebundle\n"
            "tapemagic.rules.load_catalog()\n")
    assert loaded_after(code) == []
    assert loaded_after("from tapemagic.report import validate_report") == ["jsonschema"]


def test_load_ext_loads_neither(tmp_path: Path) -> None:
    code = textwrap.dedent("""\
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_line_magic("load_ext", "tapemagic")
        assert "gradcheck" in shell.magics_manager.magics["cell"]
        """)
    assert loaded_after(code) == []


@pytest.mark.parametrize(("loss", "status"), [("tf.round(w * 3.0)", 1), ("w * w", 0)])
def test_lint_of_one_file_loads_none_of_them(tmp_path: Path, loss: str, status: int) -> None:
    # LibCST too: it loads when a quick-fix edit is computed, which these hints do not need
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(f"""\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum({loss})
        grads = tape.gradient(loss, [w])
        """), encoding="utf-8")
    code = ("import sys\nfrom tapemagic.__main__ import main\n"
            f"status = main(['lint', {str(script)!r}])\nassert status == {status}, status\n")
    assert loaded_after(code) == []


def test_a_lazily_imported_fix_module_still_works() -> None:
    code = ("import libcst\nfrom tapemagic.fixes import surrogates\n"
            "node = surrogates.surrogate(libcst.parse_expression('tf.round(x)'))\n"
            "assert node is not None, 'no surrogate'\n")
    assert "libcst" in loaded_after(code)


@pytest.mark.parametrize("name", ["tapemagic.magic", "tapemagic.api", "tapemagic.engine"])
def test_the_doors_load_neither(name: str) -> None:
    assert loaded_after(f"import {name}") == []
