"""TM113: layers unfrozen after a traced step read ``model.trainable_variables`` (graph mode).

Real Keras ``fit`` and real ``@tf.function`` steps, tiny models, a few steps. What TensorFlow
2.21 / Keras 3 does was measured first (see ``tapemagic/tracing/unfreeze.py``): a callback's
``trainable = True`` leaves the unfrozen weights unchanged for the rest of the ``fit``, and a
second ``fit`` without ``compile`` reuses the stale train function; ``compile()``,
a new optimizer + ``make_train_function(force=True)`` in the callback, and a new ``tf.function``
train them. Each test also checks the weights themselves, so the expectation follows TensorFlow.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from checked import line_of, loud, run_program

import tapemagic

pytestmark = pytest.mark.tf

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = np.random.rand(16, 4).astype("float32")
y = np.random.rand(16, 1).astype("float32")
backbone = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="b1")],
                            name="backbone")
model = keras.Sequential([backbone, keras.layers.Dense(1, name="head")])
backbone.trainable = False
kernel = backbone.layers[0].kernel
start = kernel.numpy().copy()
"""

CALLBACK = """
class Unfreeze(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            backbone.trainable = True  # UNFREEZE
            {extra}
            self.seen = kernel.numpy().copy()

unfreeze = Unfreeze()
model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
model.fit(x, y, epochs=3, batch_size=8, verbose=0, callbacks=[unfreeze])
moved = not np.allclose(unfreeze.seen, kernel.numpy())
"""

CUSTOM = """
optimizer = keras.optimizers.SGD(0.5)

@tf.function
def step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(a) - b) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

step(x, y)
backbone.trainable = True  # UNFREEZE
seen = kernel.numpy().copy()
step(x, y)
step(x, y)
moved = not np.allclose(seen, kernel.numpy())
"""


def _run(tmp_path: Path, body: str, force_eager: bool = False) -> tuple[Any, dict[str, Any]]:
    done = run_program(tmp_path, body, name="cell.py", prefix=SETUP, force_eager=force_eager)
    return done.report, done.namespace


def _line(tmp_path: Path, needle: str) -> int:
    return line_of(tmp_path / "cell.py", needle)


_loud = loud


def test_callback_unfreeze_in_fit_is_reported_at_the_assignment(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, CALLBACK.format(extra="pass"))
    assert not ns["moved"]  # TensorFlow: the stale train function never trains the backbone
    found = [f for f in report.findings if f.rule == "TM113"]
    assert [f.location.line for f in found] == [_line(tmp_path, "# UNFREEZE")]
    assert found[0].primary and found[0].severity == "error"
    assert any("b1" in name for name in found[0].variables)
    assert "compile" in (found[0].fix.title if found[0].fix else "")
    assert "2 weights on the loss path are in no source list" in report.headline


def test_custom_tf_function_step_is_reported(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, CUSTOM)
    assert not ns["moved"]
    assert ("TM113", _line(tmp_path, "# UNFREEZE")) in _loud(report)
    assert {rule for rule, _ in _loud(report)} == {"TM113"}


def test_second_fit_without_compile_is_reported(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
        model.fit(x, y, epochs=1, batch_size=8, verbose=0)
        backbone.trainable = True  # UNFREEZE
        seen = kernel.numpy().copy()
        model.fit(x, y, epochs=1, batch_size=8, verbose=0)
        moved = not np.allclose(seen, kernel.numpy())
        """)
    assert not ns["moved"]
    assert _loud(report) == [("TM113", _line(tmp_path, "# UNFREEZE"))]


# -- correct code stays silent -------------------------------------------------------------------

def test_unfreeze_then_compile_and_fit_is_silent(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
        model.fit(x, y, epochs=1, batch_size=8, verbose=0)
        backbone.trainable = True
        model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
        seen = kernel.numpy().copy()
        model.fit(x, y, epochs=1, batch_size=8, verbose=0)
        moved = not np.allclose(seen, kernel.numpy())
        """)
    assert ns["moved"]
    assert _loud(report) == []


def test_unfreeze_after_the_last_step_is_silent(tmp_path: Path) -> None:
    # the stale step never runs again: nothing was left untrained
    body = CALLBACK.format(extra="pass").replace("if epoch == 0:", "if epoch == 2:")
    report, _ = _run(tmp_path, body)
    assert _loud(report) == []


def test_unfreeze_before_the_first_trace_is_silent(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        backbone.trainable = True
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)
        moved = not np.allclose(start, kernel.numpy())
        """)
    assert ns["moved"]
    assert _loud(report) == []


def test_callback_that_makes_a_new_train_function_is_silent(tmp_path: Path) -> None:
    # Keras 3.15: force=True alone raises ("Unknown variable": the optimizer was built for the
    # old list) and `train_function = None` makes fit call None; a new optimizer first works
    extra = ("self.model.optimizer = keras.optimizers.SGD(0.5); "
             "self.model.make_train_function(force=True)")
    report, ns = _run(tmp_path, CALLBACK.format(extra=extra))
    assert ns["moved"]
    assert _loud(report) == []


def test_gan_with_a_frozen_discriminator_is_silent(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, name="g")], name="gen")
        disc = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="d")],
                                name="disc")
        disc.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        disc.trainable = False
        gan = keras.Sequential([gen, disc])
        gan.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        noise = np.random.rand(8, 2).astype("float32")
        for _ in range(3):
            disc.trainable = True
            disc.train_on_batch(np.random.rand(8, 4).astype("float32"), np.ones((8, 1)))
            disc.trainable = False
            gan.train_on_batch(noise, np.ones((8, 1)))
        moved = True
        """)
    assert ns["moved"]
    assert _loud(report) == []


def test_gan_discriminator_left_unfrozen_for_its_own_step_is_silent(tmp_path: Path) -> None:
    # the combined model's step (traced while the discriminator was frozen) keeps it out of
    # its sources, as the code wants; the discriminator trains in its own step
    report, ns = _run(tmp_path, """
        gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, name="g")], name="gen")
        disc = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="d")],
                                name="disc")
        disc.trainable = False
        gan = keras.Sequential([gen, disc])
        gan.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        noise = np.random.rand(8, 2).astype("float32")
        gan.train_on_batch(noise, np.ones((8, 1)))
        disc.trainable = True
        disc.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        d_kernel = disc.layers[0].kernel
        seen = d_kernel.numpy().copy()
        for _ in range(2):
            disc.train_on_batch(np.random.rand(8, 4).astype("float32"), np.ones((8, 1)))
            gan.train_on_batch(noise, np.ones((8, 1)))
        moved = not np.allclose(seen, d_kernel.numpy())
        """)
    assert ns["moved"]
    assert _loud(report) == []


def test_explicit_subset_of_sources_is_silent(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, CUSTOM.replace("model.trainable_variables",
                                              "model.layers[1].trainable_variables")
                     .replace("model.layers[1]", "head").replace(
                         "optimizer = keras", "head = model.layers[1]\noptimizer = keras"))
    assert [rule for rule, _ in _loud(report) if rule == "TM113"] == []


def test_eager_custom_step_reads_the_new_list_and_is_not_reported(tmp_path: Path) -> None:
    # run eagerly, the step reads model.trainable_variables on every call: the unfrozen kernel
    # is a source, and Keras 3's optimizer (built for the old list) raises "Unknown variable"
    path = tmp_path / "cell.py"
    path.write_text(SETUP + CUSTOM)
    with pytest.raises(ValueError, match="Unknown variable"):
        with tapemagic.gradcheck(force_eager=True) as check:
            exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__main__"})  # noqa: S102
    assert [f for f in check.report.findings if f.rule == "TM113"] == []


def test_eager_fit_resumes_graph_mode_and_is_reported(tmp_path: Path) -> None:
    # --eager runs fit's first steps eagerly, then its traced train function (as the user's
    # program would): the unfrozen backbone does not train there either
    report, ns = _run(tmp_path, CALLBACK.format(extra="pass"), force_eager=True)
    assert not ns["moved"]
    assert _loud(report) == [("TM113", _line(tmp_path, "# UNFREEZE"))]


def test_trainable_setter_is_restored(tmp_path: Path) -> None:
    import keras

    owner = next(c for c in keras.layers.Layer.__mro__ if "trainable" in c.__dict__)
    before = owner.__dict__["trainable"]
    _run(tmp_path, CUSTOM)
    assert owner.__dict__["trainable"] is before


def test_explicit_subset_run_from_a_string_is_silent() -> None:
    # no source to read the argument from: `head` and `model` both have the sources as their
    # trainable weights but hold different weights, so the owner is unknown and nothing is said
    body = CUSTOM.replace("model.trainable_variables", "head.trainable_variables").replace(
        "optimizer = keras", "head = model.layers[1]\noptimizer = keras")
    namespace: dict[str, Any] = {"__name__": "__main__"}
    with tapemagic.gradcheck() as check:
        exec(compile(SETUP + body, "<cell>", "exec"), namespace)  # noqa: S102
    assert not namespace["moved"]
    assert [f for f in check.report.findings if f.rule == "TM113"] == []


def test_custom_train_step_in_fit_is_reported(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        class Regressor(keras.Model):
            def __init__(self, trunk):
                super().__init__()
                self.trunk = trunk
                self.out = keras.layers.Dense(1, name="out")

            def call(self, a):
                return self.out(self.trunk(a))

            def train_step(self, data):
                a, b = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((self(a, training=True) - b) ** 2)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        class Unfreeze(keras.callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                if epoch == 0:
                    backbone.trainable = True  # UNFREEZE
                    self.seen = kernel.numpy().copy()

        regressor = Regressor(backbone)
        regressor.compile(optimizer=keras.optimizers.SGD(0.5))
        unfreeze = Unfreeze()
        regressor.fit(x, y, epochs=3, batch_size=8, verbose=0, callbacks=[unfreeze])
        moved = not np.allclose(unfreeze.seen, kernel.numpy())
        """)
    assert not ns["moved"]
    assert _loud(report) == [("TM113", _line(tmp_path, "# UNFREEZE"))]
