"""TensorFlow is imported by the checked code, not by tapemagic before it.

A script or cell that sets ``TF_CPP_MIN_LOG_LEVEL`` (or ``KERAS_BACKEND``) and then imports
TensorFlow must find it not yet imported, as without tapemagic; tracing starts inside that
import (``tapemagic.tracing.lazy``). Each test runs in a fresh interpreter: this one has
TensorFlow imported already.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.tf

SCRIPT = """\
import os, sys
print("imported before:", "tensorflow" in sys.modules)
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
w = tf.Variable(2.0)
with tf.GradientTape() as tape:
    loss = tf.round(w * 3.0)
print("gradient:", tape.gradient(loss, w))
print("loader:", type(tf.__loader__).__name__, type(tf.__spec__.loader).__name__)
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    return env


def _tf_lines(stderr: str) -> list[str]:
    """TensorFlow's start-up lines, without their time stamps and process ids."""
    return [re.sub(r"\d+", "N", line) for line in stderr.splitlines()
            if not line.startswith(("tapemagic", "Traceback"))]


@pytest.mark.slow
def test_a_script_imports_tensorflow_itself(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    plain = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                           env=_env(), timeout=300)
    traced = subprocess.run([sys.executable, "-m", "tapemagic", "run", str(script)],
                            capture_output=True, text=True, env=_env(), timeout=300)
    assert plain.returncode == 0, plain.stderr
    assert traced.stdout.startswith(plain.stdout), traced.stdout
    assert "imported before: False" in traced.stdout
    assert "loader: SourceFileLoader SourceFileLoader" in traced.stdout  # its own loader back
    assert "TM201" in traced.stdout  # traced from the import on
    assert _tf_lines(traced.stderr) == _tf_lines(plain.stderr)


@pytest.mark.slow
def test_a_cell_imports_tensorflow_itself_and_a_cell_without_it_imports_nothing() -> None:
    program = textwrap.dedent('''
        import sys
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_line_magic("load_ext", "tapemagic")
        shell.run_cell("%%gradcheck\\nx = sum(range(4))\\nprint('x', x)")
        print("after a cell without it:", "tensorflow" in sys.modules)
        shell.run_cell("%%gradcheck rep\\n" + {script!r})
        print("codes:", shell.user_ns["rep"].codes)
        shell.run_cell("%%gradcheck\\nraise ValueError('boom')")
        print("finders:", [f for f in sys.meta_path if "tapemagic" in type(f).__module__])
        ''').format(script=SCRIPT)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "x 6" in out and "nothing to check" in out.lower()
    assert "after a cell without it: False" in out
    assert "imported before: False" in out
    assert "codes: ['TM201']" in out
    assert "ValueError" in out + proc.stderr
    assert "finders: []" in out


@pytest.mark.slow
def test_a_check_nested_in_a_waiting_check_is_nested_in_its_session() -> None:
    program = textwrap.dedent("""
        import sys
        import tapemagic
        with tapemagic.gradcheck() as outer:
            with tapemagic.gradcheck() as inner:
                import tensorflow as tf
                w = tf.Variable(2.0, name="w")
                with tf.GradientTape() as tape:
                    loss = tf.round(w * 3.0)
                tape.gradient(loss, w)
            v = tf.Variable(1.0, name="v")
            with tf.GradientTape() as tape:
                loss = tf.cast(tf.cast(v * 3.0, tf.int32), tf.float32)
            tape.gradient(loss, v)
        print("inner:", inner.codes, "outer:", sorted(outer.codes))
        print("finders:", [f for f in sys.meta_path if "tapemagic" in type(f).__module__])
        """)
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "inner: ['TM201'] outer: ['TM201', 'TM202']" in proc.stdout, proc.stdout
    assert "finders: []" in proc.stdout

@pytest.mark.slow
def test_tensorflow_imported_first_on_another_thread_is_reported_not_called_untraced(
        tmp_path: Path) -> None:
    """The session starts on the block's thread only; a first import elsewhere is said."""
    script = tmp_path / "threaded.py"
    script.write_text(textwrap.dedent("""
        import threading
        def load():
            import tensorflow
        worker = threading.Thread(target=load)
        worker.start()
        worker.join()
        """) + SCRIPT)
    traced = subprocess.run([sys.executable, "-m", "tapemagic", "run", str(script)],
                            capture_output=True, text=True, env=_env(), timeout=300)
    assert "gradient: None" in traced.stdout
    assert "imported on another thread" in traced.stdout + traced.stderr
    # an empty trace is no news of the code: the headline says it ran unchecked
    assert "nothing to check" not in traced.stdout, traced.stdout
    assert "could not start tracing: the code ran unchecked" in traced.stdout, traced.stdout
    # unchecked is not clean: CI must not pass a run nothing checked (exit status 3)
    assert traced.returncode == 3, traced.stderr
    assert "ran unchecked" in traced.stderr
