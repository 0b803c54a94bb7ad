"""The pytest plugin and ``assert_gradients_connected``, run by a real pytest on a test file.

The plugin is loaded with ``-p tapemagic.pytest_plugin`` (plugin autoloading off, so an
installed copy cannot interfere); the entry point that loads it in an installed tapemagic is
checked in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parent.parent

TESTS = '''
import pytest
import tensorflow as tf
import tapemagic

w = tf.Variable([1.0, 2.0], name="w")
frozen = tf.Variable([3.0], name="frozen")


@pytest.mark.gradients_connected
def test_connected():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    tape.gradient(loss, [w])


@pytest.mark.gradients_connected
def test_round_cuts():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.round(w * 3.0))
    tape.gradient(loss, [w])


@pytest.mark.gradients_connected(allow=["fro*"])
def test_frozen_allowed():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w) + tf.stop_gradient(frozen[0])
    tape.gradient(loss, [w, frozen])


def test_fixture_fails(gradients_connected):
    with gradients_connected():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w.numpy() * 2.0)
        tape.gradient(loss, [w])


def test_context_manager_passes_and_keeps_the_report():
    with tapemagic.assert_gradients_connected() as check:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * 3.0)
        tape.gradient(loss, [w])
    assert check.report.codes == []


def test_no_gradient_call_fails(gradients_connected):
    with gradients_connected():
        tf.reduce_sum(w)


@pytest.mark.gradients_connected
def test_own_error_wins():
    raise KeyError("the test's own")
'''


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "test_model.py").write_text(TESTS)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tapemagic.pytest_plugin", "-p", "no:cacheprovider",
         "-rA", "--strict-markers", "-q", str(folder / "test_model.py")],
        cwd=folder, env=env, capture_output=True, text=True, timeout=900, check=False)
    return done.stdout + done.stderr, done.returncode


pytestmark = pytest.mark.tf


@pytest.mark.slow
@pytest.mark.parametrize("name", ["test_connected", "test_frozen_allowed",
                                  "test_context_manager_passes_and_keeps_the_report"])
def test_connected_tests_pass(outcome: tuple[str, int], name: str) -> None:
    assert f"PASSED test_model.py::{name}" in outcome[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["test_round_cuts", "test_fixture_fails",
                                  "test_no_gradient_call_fails", "test_own_error_wins"])
def test_cut_tests_fail(outcome: tuple[str, int], name: str) -> None:
    assert f"FAILED test_model.py::{name}" in outcome[0]
    assert outcome[1] == 1


@pytest.mark.slow
def test_failures_carry_the_text_report(outcome: tuple[str, int]) -> None:
    text = outcome[0]
    assert "GradientsDisconnected: gradients not connected:" in text
    assert "`w`: severed (none)" in text
    assert "TM201 non-differentiable-op" in text  # the round
    assert "TM301 host-round-trip" in text  # the .numpy() under the fixture
    assert "no gradient call ran in the block" in text
    assert "KeyError: \"the test's own\"" in text


@pytest.mark.slow
def test_the_marker_is_declared(tmp_path: Path) -> None:
    env = dict(os.environ, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "tapemagic.pytest_plugin",
                           "--markers"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert "@pytest.mark.gradients_connected(allow=(), force_eager=None, max_steps=1)" \
        in done.stdout


def test_entry_point_registers_the_plugin() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"tapemagic": "tapemagic.pytest_plugin"}
    import tapemagic.pytest_plugin as plugin

    assert callable(plugin.pytest_runtest_call) and callable(plugin.gradients_connected)
