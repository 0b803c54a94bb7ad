"""The Keras door: ``model.fit(..., callbacks=[tapemagic.keras.GradientCheck()])``.

Every test runs a real ``fit`` in graph mode (as written: no ``run_eagerly``). Correct training
must stay silent; a cut must be reported and acted on as ``on_cut`` says; after the checked
steps nothing tapemagic patches may be left behind. ``MirroredStrategy`` runs in a fresh
interpreter with two logical CPU devices, so this process's devices are not changed.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from keras_models import branch_model

import tapemagic
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf
ROOT = Path(__file__).resolve().parent.parent


def _data() -> tuple[Any, Any]:
    import numpy as np

    rng = np.random.default_rng(0)
    return (rng.normal(size=(16, 4)).astype("float32"),
            rng.normal(size=(16, 1)).astype("float32"))


def _dense_model() -> Any:
    import keras

    keras.utils.set_random_seed(0)
    return keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(3, name="a"),
                             keras.layers.Dense(1, name="b")])


def _verdicts(report: Any) -> set[str]:
    return {s.verdict for c in report.gradient_calls for s in c.sources}


def _cut_weights(report: Any) -> set[str]:
    return {s.variable.split("/", 1)[1] for c in report.gradient_calls for s in c.sources
            if s.verdict == "severed"}


# -- correct training is silent, and later steps run without the check --------------------------

@pytest.mark.parametrize("jit_compile", [False, True], ids=["graph", "jit_compile"])
def test_correct_fit_is_silent_and_detaches_after_the_checked_step(
        jit_compile: bool, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
        patch_state: Callable[[], list[str]]) -> None:
    import keras

    x, y = _data()
    model = branch_model(cut=False)
    model.compile(optimizer="sgd", loss="mse", jit_compile=jit_compile)
    check = tapemagic.keras.GradientCheck(on_cut="raise")
    later: list[tuple[int, list[str], bool]] = []

    def look(batch: int, logs: Any) -> None:  # after GradientCheck's step: a plain step
        later.append((batch, patch_state(), model.train_function is train_function[0]))

    train_function: list[Any] = []
    remember = keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs: train_function.append(model.train_function))
    caplog.set_level(logging.DEBUG)
    model.fit(x, y, epochs=2, batch_size=4, verbose=0,
              callbacks=[remember, check, keras.callbacks.LambdaCallback(on_train_batch_end=look)])
    assert capsys.readouterr().err == ""
    assert not [r for r in caplog.records if r.name.startswith("tapemagic")]
    report = check.report
    assert report is not None and report.mode == "graph"
    assert report.gradient_calls and _verdicts(report) == {"connected"}  # it did check
    assert not tapemagic.keras.is_cut(report)
    assert int(model.optimizer.iterations) == 8  # trained on, every step
    assert [batch for batch, _, _ in later] == [0, 1, 2, 3] * 2
    # the check ended with the first step: no patch left, fit's own train function back
    assert all(changes == [] and own for _, changes, own in later), later
    assert model.train_function is train_function[0]


# -- a cut: warn (default), raise, stop -------------------------------------------------------

def test_a_cut_is_reported_on_stderr_and_in_json_and_training_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        patch_state: Callable[[], list[str]]) -> None:
    x, y = _data()
    model = branch_model(cut=True)
    model.compile(optimizer="sgd", loss="mse")
    path = tmp_path / "report.json"
    check = tapemagic.keras.GradientCheck(json_path=path)
    with pytest.warns(UserWarning, match="Gradients do not exist"):  # Keras' own, unchanged
        model.fit(x, y, epochs=1, batch_size=4, verbose=0, callbacks=[check])
    err = capsys.readouterr().err
    assert err.startswith("tapemagic GradientCheck: the gradient path is cut in the first "
                          "train step\n"), err
    assert "TM201 non-differentiable-op" in err and "tf.argmax" in err
    assert int(model.optimizer.iterations) == 4  # "warn" trains on
    report = check.report
    assert report is not None and "TM201" in report.codes
    assert _cut_weights(report) == {"a/kernel", "a/bias"}
    payload = json.loads(path.read_text(encoding="utf-8"))
    validate_report(payload)
    assert [f["rule"] for f in payload["findings"]] == report.codes
    assert patch_state() == []


def test_on_cut_raise_raises_gradcheck_error_with_the_report(
        capsys: pytest.CaptureFixture[str], patch_state: Callable[[], list[str]]) -> None:
    x, y = _data()
    model = branch_model(cut=True)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.warns(UserWarning, match="Gradients do not exist"), \
            pytest.raises(tapemagic.GradcheckError, match="in the first train step:") as raised:
        model.fit(x, y, epochs=3, batch_size=4, verbose=0,
                  callbacks=[tapemagic.keras.GradientCheck(on_cut="raise")])
    assert raised.value.report is not None and "TM201" in raised.value.report.codes
    assert int(model.optimizer.iterations) == 1  # raised after the checked step
    assert "TM201" in capsys.readouterr().err
    assert patch_state() == []


def test_a_fit_shorter_than_steps_is_reported_when_it_ends(
        patch_state: Callable[[], list[str]]) -> None:
    x, y = _data()
    model = branch_model(cut=True)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.warns(UserWarning, match="Gradients do not exist"), \
            pytest.raises(tapemagic.GradcheckError, match="first 4 train steps") as raised:
        model.fit(x, y, epochs=1, batch_size=4, verbose=0,
                  callbacks=[tapemagic.keras.GradientCheck(steps=50, on_cut="raise")])
    assert int(model.optimizer.iterations) == 4  # every step ran, then fit ended
    assert raised.value.report is not None and "TM201" in raised.value.report.codes
    assert patch_state() == []


def test_on_cut_stop_stops_training_and_logs_when_asked(
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    x, y = _data()
    model = branch_model(cut=True)
    model.compile(optimizer="sgd", loss="mse")
    check = tapemagic.keras.GradientCheck(on_cut="stop", logger="training.gradients")
    with caplog.at_level(logging.WARNING, logger="training.gradients"), \
            pytest.warns(UserWarning, match="Gradients do not exist"):
        history = model.fit(x, y, epochs=3, batch_size=4, verbose=0, callbacks=[check])
    assert int(model.optimizer.iterations) == 1 and len(history.history["loss"]) == 1
    assert capsys.readouterr().err == ""  # the report went to the logger instead
    (record,) = [r for r in caplog.records if r.name == "training.gradients"]
    assert record.levelno == logging.ERROR  # TM201 is an error finding
    assert "on_cut='stop'" in record.getMessage() and "TM201" in record.getMessage()


# -- fit raises in the checked step: the report still reaches the user -------------------------

def _round_loss(y_true: Any, y_pred: Any) -> Any:
    import tensorflow as tf

    return tf.reduce_mean((y_true - tf.round(y_pred)) ** 2)


def _fit_error(callbacks: list[Any]) -> BaseException:
    x, y = _data()
    model = _dense_model()
    model.compile(optimizer="sgd", loss=_round_loss)
    with pytest.raises(ValueError) as raised:
        model.fit(x, y, epochs=1, batch_size=4, verbose=0, callbacks=callbacks)
    return raised.value


@pytest.mark.parametrize("on_cut", ["warn", "raise"])
def test_no_gradients_error_propagates_unchanged_after_the_report(
        on_cut: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        patch_state: Callable[[], list[str]]) -> None:
    plain = _fit_error([])
    capsys.readouterr()
    path = tmp_path / "report.json"
    check = tapemagic.keras.GradientCheck(on_cut=on_cut, json_path=path)
    error = _fit_error([check])
    assert type(error) is type(plain) and str(error) == str(plain)
    assert "No gradients provided for any variable" in str(error)
    err = capsys.readouterr().err
    assert "TM201" in err and "tf.round" in err
    report = check.report
    assert report is not None and report.exception is not None
    assert report.exception.type == "ValueError"
    assert _cut_weights(report) == {"a/kernel", "a/bias", "b/kernel", "b/bias"}
    validate_report(json.loads(path.read_text(encoding="utf-8")))
    assert patch_state() == []


# -- a custom train_step, a second fit ----------------------------------------------------------

def _custom_step_model(cut: bool) -> Any:
    import keras
    import tensorflow as tf

    class Custom(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.a = keras.layers.Dense(3, name="a")
            self.b = keras.layers.Dense(1, name="b")

        def call(self, x: Any) -> Any:
            return self.b(self.a(x))

        def train_step(self, data: Any) -> Any:
            x, y = data
            with tf.GradientTape() as tape:
                hidden = self.a(x, training=True)
                if cut:
                    hidden = tf.stop_gradient(hidden)
                loss = tf.reduce_mean((y - self.b(hidden, training=True)) ** 2)
            grads = tape.gradient(loss, self.trainable_variables)
            pairs = zip(grads, self.trainable_variables, strict=True)
            self.optimizer.apply_gradients((g, v) for g, v in pairs if g is not None)
            return {"loss": loss}

    keras.utils.set_random_seed(0)
    return Custom()


@pytest.mark.parametrize("cut", [False, True], ids=["connected", "stop_gradient"])
def test_a_custom_train_step_is_checked(cut: bool, capsys: pytest.CaptureFixture[str]) -> None:
    x, y = _data()
    model = _custom_step_model(cut)
    model.compile(optimizer="sgd")
    check = tapemagic.keras.GradientCheck()
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, callbacks=[check])
    err = capsys.readouterr().err
    assert check.report is not None and check.report.gradient_calls
    if cut:
        assert tapemagic.keras.is_cut(check.report) and err
        assert "TM401 stop-gradient" in err
        assert {s.variable for c in check.report.gradient_calls for s in c.sources
                if s.verdict == "severed"} == {"a/kernel", "a/bias"}
    else:
        assert err == "" and _verdicts(check.report) == {"connected"}


def test_each_fit_is_checked_even_when_its_train_function_was_traced_before(
        capsys: pytest.CaptureFixture[str]) -> None:
    x, y = _data()
    model = branch_model(cut=True)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.warns(UserWarning, match="Gradients do not exist"):
        model.fit(x, y, epochs=1, batch_size=4, verbose=0)  # traced here, unchecked
        traced = model.train_function
        check = tapemagic.keras.GradientCheck()
        model.fit(x, y, epochs=1, batch_size=4, verbose=0, callbacks=[check])
    assert check.report is not None and "TM201" in check.report.codes
    assert "TM201" in capsys.readouterr().err
    assert model.train_function is traced  # the checked copy is dropped afterwards


# -- MirroredStrategy, in a fresh interpreter with two logical CPUs ----------------------------

MIRRORED = """\
import json, sys
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
import keras
import numpy as np
from tapemagic.keras import GradientCheck

x = np.random.default_rng(0).normal(size=(16, 4)).astype("float32")
y = np.random.default_rng(1).normal(size=(16, 1)).astype("float32")
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
out = {"replicas": strategy.num_replicas_in_sync}
for cut in (False, True):
    with strategy.scope():
        inputs = keras.Input((4,))
        hidden = keras.layers.Dense(3, name="a")(inputs)
        if cut:
            hidden = keras.layers.Lambda(lambda t: tf.stop_gradient(t))(hidden)
        model = keras.Model(inputs, keras.layers.Dense(1, name="b")(hidden))
        model.compile(optimizer="sgd", loss="mse")
    check = GradientCheck()
    model.fit(x, y, epochs=1, batch_size=8, verbose=0, callbacks=[check])
    report = check.report
    out["cut" if cut else "clean"] = {
        "codes": report.codes,
        "verdicts": sorted({"/".join(s.variable.split("/")[-2:]) + ":" + s.verdict
                            for c in report.gradient_calls for s in c.sources}),
    }
    print("=== end", "cut" if cut else "clean", file=sys.stderr, flush=True)
print(json.dumps(out))
"""


@pytest.mark.slow
def test_mirrored_strategy(tmp_path: Path) -> None:
    script = tmp_path / "mirrored.py"
    script.write_text(MIRRORED)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["replicas"] == 2
    # correct training: silent, and checked (every weight connected)
    clean_err = done.stderr.split("=== end clean")[0]
    assert "tapemagic GradientCheck" not in clean_err, clean_err
    assert out["clean"]["codes"] == []
    assert out["clean"]["verdicts"] == sorted(
        f"{w}:connected" for w in ("a/kernel", "a/bias", "b/kernel", "b/bias"))
    # the cut: reported on stderr, the Dense `a` weights severed
    assert "tapemagic GradientCheck" in done.stderr.split("=== end clean")[1]
    assert "TM401" in out["cut"]["codes"]  # the stop_gradient in the Lambda layer
    assert "a/kernel:severed" in out["cut"]["verdicts"]
    assert "b/kernel:connected" in out["cut"]["verdicts"]


# -- the door itself ----------------------------------------------------------------------------

@pytest.mark.slow
def test_tapemagic_keras_loads_on_first_use_only() -> None:
    code = textwrap.dedent("""\
        import sys
        import tapemagic
        from tapemagic import *
        assert 'tensorflow' not in sys.modules and 'keras' not in sys.modules
        assert issubclass(tapemagic.keras.GradientCheck, __import__('keras').callbacks.Callback)
        """)
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300, env=env)


@pytest.mark.parametrize("kwargs", [{"steps": 0}, {"on_cut": "ignore"}])
def test_bad_arguments_are_refused_at_once(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        tapemagic.keras.GradientCheck(**kwargs)


@pytest.mark.filterwarnings("ignore:Gradients do not exist:UserWarning")
def test_in_a_notebook_cell_the_cut_is_placed_at_its_cell(run_cell: Any) -> None:
    run = run_cell(textwrap.dedent("""\
        from tapemagic.keras import GradientCheck
        keras.utils.set_random_seed(0)
        inputs = keras.Input((4,))
        hidden = keras.layers.Lambda(lambda t: tf.stop_gradient(t))(keras.layers.Dense(3)(inputs))
        model = keras.Model(inputs, keras.layers.Dense(1)(hidden))
        model.compile(optimizer="sgd", loss="mse")
        check = GradientCheck()
        model.fit(np.ones((8, 4)), np.ones((8, 1)), epochs=2, batch_size=4, verbose=0,
                  callbacks=[check])
        """))
    assert run.error is None, run.error
    assert f"In[{run.count}], line 4" in run.stderr, run.stderr
    assert "TM401" in run.stderr
    # the run_cell fixture checks afterwards that no patch is left behind


def test_a_cell_interrupted_between_checked_steps_does_not_leave_the_check_installed(
        run_cell: Any, patch_state: Callable[[], list[str]]) -> None:
    run = run_cell(textwrap.dedent("""\
        from tapemagic.keras import GradientCheck
        keras.utils.set_random_seed(0)
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        def boom(batch, logs):
            raise RuntimeError("another callback failed")
        check = GradientCheck(steps=3)
        model.fit(np.ones((8, 4)), np.ones((8, 1)), epochs=1, batch_size=4, verbose=0,
                  callbacks=[check, keras.callbacks.LambdaCallback(on_train_batch_end=boom)])
        """))
    assert isinstance(run.error, RuntimeError)  # the other callback's error, as without us
    assert run.stderr == ""  # correct training: the closed check stays silent
    assert patch_state() == []  # closed when the cell ended
    report = run_cell("check.report").value
    assert report is not None and {s.verdict for c in report.gradient_calls
                                   for s in c.sources} == {"connected"}
