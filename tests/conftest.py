"""Shared fixtures for the magic and CLI tests.

``shell``: the one IPython shell of the test session (``IPython.testing.globalipapp``) with
``%load_ext tapemagic`` and NumPy, TensorFlow and Keras imported once. ``run_cell``: runs a cell
with ``store_history=True`` and captures everything the user would see (stdout, stderr, display
bundles, the order of displays and tracebacks). ``patch_state``: a snapshot of everything
tapemagic patches while a cell is traced, to compare before/after. ``run_checked``: runs a
program under ``tapemagic.gradcheck`` as a file, for its report and the lines marked ``# <-``.

Only fixtures that import TensorFlow import it, and only when a test asks for them: the TF-free
test modules stay TF-free.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

#: The temp folder of the processes a test run starts (kernels, CLI runs), and what it replaced
CHILD_TEMP = pytest.StashKey[tuple[str, str | None]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--update-golden``: rewrite the golden files of tests/test_golden.py from the renderers."""
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.txt and *.html from the renderers' output "
                          "(or set TAPEMAGIC_UPDATE_GOLDEN=1)")


def pytest_configure(config: pytest.Config) -> None:
    """Give the processes the run starts a temp folder of the run's own (``TMPDIR``).

    Autograph writes each function it converts to ``__autograph_generated_file*.py`` in the
    temp folder and removes it when the process exits normally
    (tensorflow/python/autograph/pyct/loader.py, ``atexit``); a kernel or CLI run a test stops
    leaves its files behind, thousands per run. This process keeps the usual folder (its own
    files go at exit, and pytest's ``tmp_path`` folders stay where pytest looks for them).
    """
    tempfile.gettempdir()  # read (and cached) before TMPDIR changes: this process keeps it
    folder = tempfile.mkdtemp(prefix="tapemagic-tests-")
    config.stash[CHILD_TEMP] = (folder, os.environ.get("TMPDIR"))
    os.environ["TMPDIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove what the run's processes left in their temp folder; restore ``TMPDIR``."""
    if CHILD_TEMP not in config.stash:
        return
    folder, before = config.stash[CHILD_TEMP]
    if before is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = before
    shutil.rmtree(folder, ignore_errors=True)


#: Names the test cells may rely on; everything else a test defines is removed after it.
SHELL_SETUP = "import numpy as np\nimport tensorflow as tf\nimport keras\n"


@dataclass
class CellRun:
    """What running one cell showed the user."""

    source: str
    result: Any  # IPython's ExecutionResult
    stdout: str
    stderr: str
    outputs: list[dict[str, Any]]  # display_pub bundles (the report), not Out[N]
    events: list[str] = field(default_factory=list)  # "display" / "traceback", in order

    @property
    def error(self) -> BaseException | None:
        """The exception the cell ended with (before or during execution), or None."""
        return self.result.error_before_exec or self.result.error_in_exec

    @property
    def value(self) -> Any:
        """The value IPython displayed as Out[N] (None when nothing was displayed)."""
        return self.result.result

    @property
    def count(self) -> int:
        """The cell's execution count (its In[N])."""
        return int(self.result.execution_count)

    def normalized_stdout(self) -> str:
        """Stdout with the Out[N] numbers replaced by Out[#] (plain and traced runs differ)."""
        return re.sub(r"Out\[\d+\]", "Out[#]", self.stdout)


def run_cell_in(shell: Any, source: str) -> CellRun:
    """Run ``source`` as a stored cell of ``shell`` and capture what it shows."""
    from IPython.utils.capture import capture_output

    events: list[str] = []
    with capture_output() as captured:
        publisher = shell.display_pub
        original_publish = publisher.publish
        # globalipapp installs its own _showtraceback on the instance: wrap it, then put it back
        had_own = "_showtraceback" in vars(shell)
        original_show = shell._showtraceback

        def publish(data: Any, *args: Any, **kwargs: Any) -> Any:
            events.append("display")
            return original_publish(data, *args, **kwargs)

        def show_traceback(etype: Any, evalue: Any, stb: Any) -> Any:
            events.append("traceback")
            return original_show(etype, evalue, stb)

        publisher.publish = publish
        shell._showtraceback = show_traceback
        try:
            result = shell.run_cell(source, store_history=True)
        finally:
            if had_own:
                shell._showtraceback = original_show
            else:
                del shell._showtraceback
            del publisher.publish
    outputs = [dict(o.data) for o in captured.outputs]
    return CellRun(source, result, captured.stdout, captured.stderr, outputs, events)


def patch_snapshot() -> dict[str, Any]:
    """Return everything tapemagic touches while it traces, by identity, for a before/after diff.

    Whole class dicts are compared (not only the names tapemagic patches today), so a patch
    that is added later and not undone is caught as well. ``warnings.filters`` is not here:
    pytest rebuilds it around every test (tests/test_magic_patches_undone.py checks it within
    one test).
    """
    import tensorflow as tf
    from tensorflow.python.eager import backprop, context
    from tensorflow.python.eager.polymorphic_function import (
        eager_function_run,
        polymorphic_function,
    )
    from tensorflow.python.framework import ops
    from tensorflow.python.framework import tensor as tensor_lib
    from tensorflow.python.ops import resource_variable_ops, script_ops

    from tapemagic.tracing import session

    eager = ops._EagerTensorBase.__dict__  # noqa: SLF001
    return {
        "EagerTensorBase": dict(eager),
        "EagerTensorBase dunders": {
            name: eager.get(name, "<absent>")
            for name in ("numpy", "__float__", "__int__", "__bool__", "__index__",
                         "__complex__", "__array_ufunc__", "__array_function__", "__array__")
        },
        "Tensor": dict(tensor_lib.Tensor.__dict__),
        "GradientTape": dict(backprop.GradientTape.__dict__),
        "BaseResourceVariable": dict(resource_variable_ops.BaseResourceVariable.__dict__),
        "BaseResourceVariable._trainable": resource_variable_ops.BaseResourceVariable.__dict__.get(
            "_trainable", "<absent>"),
        "py_func_common": script_ops.py_func_common,
        "Function": dict(polymorphic_function.Function.__dict__),
        "Function.__call__": polymorphic_function.Function.__dict__.get("__call__"),
        "functions_run_eagerly": tf.config.functions_run_eagerly(),
        "tf.config.run_functions_eagerly": tf.config.run_functions_eagerly,
        "eager_function_run.run_functions_eagerly": eager_function_run.run_functions_eagerly,
        "op_callbacks": list(context.context().op_callbacks),
        "sessions active": list(session._ACTIVE),  # noqa: SLF001
    }


def diff_snapshots(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Return a readable list of what changed between two :func:`patch_snapshot` results."""
    changed = []
    for key, old in before.items():
        new = after.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            for name in sorted(set(old) | set(new)):
                if old.get(name, "<absent>") is not new.get(name, "<absent>") and \
                        old.get(name, "<absent>") != new.get(name, "<absent>"):
                    changed.append(f"{key}.{name}: {old.get(name, '<absent>')!r} -> "
                                   f"{new.get(name, '<absent>')!r}")
        elif old != new:
            changed.append(f"{key}: {old!r} -> {new!r}")
    return changed


@pytest.fixture(scope="session")
def shell() -> Any:
    """The session's IPython shell, extension loaded, TensorFlow imported (once)."""
    from IPython.terminal.interactiveshell import TerminalInteractiveShell
    from IPython.testing import globalipapp

    ip = globalipapp.start_ipython()
    if ip is None:  # another test module started it: it is the singleton
        ip = TerminalInteractiveShell.instance()
    else:
        # start_ipython() returns None after its first call; let the modules that call it
        # themselves (tests/test_seeds.py) still get this same shell.
        del globalipapp.start_ipython.already_called
    if "gradcheck" not in ip.magics_manager.magics["cell"]:
        ip.run_line_magic("load_ext", "tapemagic")
    result = ip.run_cell(SHELL_SETUP, store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    return ip


#: One plain step, run before the baseline is taken. TensorFlow's first ops leave a trace of
#: their own: its op dispatch checks arguments against a ``typing.Protocol``, whose subclass hook
#: reads ``__annotations__`` on every class of the argument's MRO, and Python then creates an
#: empty one in ``BaseResourceVariable.__dict__`` (tests/test_magic_semantics.py shows it
#: without tapemagic). With that in the baseline, the class dicts compare key by key with no
#: exception.
WARM_UP = """\
_warm_w = tf.Variable([1.0, 2.0])
with tf.GradientTape() as _warm_tape:
    _warm_loss = tf.reduce_sum(_warm_w * _warm_w) + float(tf.reduce_sum(_warm_w))
_warm_tape.gradient(_warm_loss, [_warm_w])
tf.function(lambda x: x * 2.0)(tf.constant(1.0)).numpy()
del _warm_w, _warm_tape, _warm_loss
"""


@pytest.fixture(scope="session")
def baseline(shell: Any) -> dict[str, Any]:
    """The patch snapshot of the process before any check, after one plain TensorFlow step."""
    result = shell.run_cell(WARM_UP, store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    return patch_snapshot()


@pytest.fixture
def patch_state(baseline: dict[str, Any]) -> Callable[[], list[str]]:
    """Return a callable listing everything that differs from the pristine process now."""

    def changes() -> list[str]:
        return diff_snapshots(baseline, patch_snapshot())

    return changes


@pytest.fixture
def run_cell(shell: Any, baseline: dict[str, Any]) -> Iterator[Callable[[str], CellRun]]:
    """Run cells in the shared shell; afterwards the namespace and TF settings are reset.

    The teardown also asserts that nothing tapemagic patches was left changed by the test.
    """
    import tensorflow as tf

    keep = set(shell.user_ns)
    tf.config.run_functions_eagerly(False)

    def run(source: str) -> CellRun:
        return run_cell_in(shell, source)

    yield run
    for name in list(shell.user_ns):
        if name not in keep and not re.fullmatch(r"_+\d*|_i+\d*", name):
            del shell.user_ns[name]
    tf.config.run_functions_eagerly(False)
    left = diff_snapshots(baseline, patch_snapshot())
    assert not left, f"tapemagic left patches behind: {left}"


@pytest.fixture(autouse=True)
def every_cause_has_a_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test whose report drops a cause of the cut analysis that no rule claimed."""
    from tapemagic import diagnosis

    original = diagnosis.Diagnoser.__init__

    def checked(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        left = self.unclaimed()
        assert not left, f"causes no rule claimed: {[h.cause for h in left]}"

    monkeypatch.setattr(diagnosis.Diagnoser, "__init__", checked)


#: ``run_checked(source, *, catch=(), caught_inside=False, name="program.py", prefix="",
#: namespace=None, **gradcheck_options)``: see ``checked.run_program``
RunChecked = Callable[..., Any]


@pytest.fixture
def run_checked(tmp_path: Path) -> RunChecked:
    """Run a program under ``tapemagic.gradcheck`` as ``tmp_path / name``, as a script would.

    The source is dedented; the options go to ``gradcheck``. An exception of a type in
    ``catch`` that the program raises is let go (the check sees it, as the user's code raised
    it; the report describes it). Returns the report, validated against the schema, and the
    lines that end in ``# <-`` (where a test expects a finding), as a ``checked.Checked`` that
    also holds the check, the program's namespace and its file.
    """
    from checked import run_program

    return functools.partial(run_program, tmp_path)
