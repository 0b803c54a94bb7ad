"""TM117: a model frozen before its own Keras train step was traced (the Keras 2 GAN recipe).

Real Keras 3: the discriminator is compiled, frozen, then the combined model is built and
compiled; the discriminator's first ``train_on_batch`` traces a step with no trainable
weights ("The model does not have any trainable weights") and keeps it. Each test checks the
discriminator's kernel itself. The recipe as public reports show it
(https://github.com/eriklindernoren/Keras-GAN/issues/73,
https://github.com/eriklindernoren/Keras-GAN/issues/91), measured under Keras 3; own code.
"""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest
from checked import line_of, loud, run_program

pytestmark = pytest.mark.tf

SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
real = np.random.rand(8, 4).astype("float32")
noise = np.random.rand(8, 2).astype("float32")
ones, zeros = np.ones((8, 1), "float32"), np.zeros((8, 1), "float32")
gen = keras.Sequential([keras.Input((2,)), keras.layers.Dense(4, name="g")], name="gen")
disc = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, "sigmoid", name="d")],
                        name="disc")
kernel = disc.layers[0].kernel
start = kernel.numpy().copy()
disc.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy")
"""

COMBINED = """
z = keras.Input((2,))
gan = keras.Model(z, disc(gen(z)))
gan.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy")
"""

# the fakes by a plain call, not `predict`: its traced functions count toward TensorFlow's
# retracing warning for the whole process, which another test's cell would then print
LOOP = """
for _ in range(3):
    fake = np.asarray(gen(noise))
    {before_d}disc.train_on_batch(np.concatenate([real, fake]), np.concatenate([ones, zeros]))
    {before_g}gan.train_on_batch(noise, ones)
moved = not np.allclose(start, kernel.numpy())
"""


def _run(tmp_path: Path, *parts: str, force_eager: bool = False) -> tuple[Any, dict[str, Any]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Keras: "no trainable weights"
        done = run_program(tmp_path, "".join(textwrap.dedent(part) for part in parts),
                           name="cell.py", prefix=SETUP, force_eager=force_eager)
    return done.report, done.namespace


def _line(tmp_path: Path, needle: str) -> int:
    return line_of(tmp_path / "cell.py", needle)


_loud = loud


@pytest.mark.parametrize("force_eager", [False, True], ids=["graph", "eager"])
def test_gan_recipe_is_reported_at_the_freeze(tmp_path: Path, force_eager: bool) -> None:
    report, ns = _run(tmp_path, "disc.trainable = False  # FREEZE\n", COMBINED,
                      LOOP.format(before_d="", before_g=""), force_eager=force_eager)
    assert not ns["moved"]  # Keras 3: the discriminator never trains
    assert _loud(report) == [("TM117", _line(tmp_path, "# FREEZE"))]
    (finding,) = report.findings
    assert finding.severity == "warning"
    assert {v.rsplit("/", 1)[-1] for v in finding.variables} == {"kernel", "bias"}
    assert f"line {_line(tmp_path, 'disc.train_on_batch')}" in finding.message


def test_freeze_of_the_inner_layer_is_reported_there(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, "disc.layers[0].trainable = False  # FREEZE\n", COMBINED,
                      LOOP.format(before_d="", before_g=""))
    assert not ns["moved"]
    assert _loud(report) == [("TM117", _line(tmp_path, "# FREEZE"))]


def test_keras3_toggle_before_each_step_is_silent(tmp_path: Path) -> None:
    # trainable while the discriminator's step is traced, frozen while the combined one is
    report, ns = _run(tmp_path, "disc.trainable = False\n", COMBINED,
                      LOOP.format(before_d="disc.trainable = True\n    ",
                                  before_g="disc.trainable = False\n    "))
    assert ns["moved"]
    assert _loud(report) == []


def test_gan_alternation_with_two_tapes_is_silent(tmp_path: Path) -> None:
    report, ns = _run(tmp_path, """
        d_opt, g_opt = keras.optimizers.SGD(0.5), keras.optimizers.SGD(0.5)
        bce = keras.losses.BinaryCrossentropy()

        @tf.function
        def step(real, noise):
            with tf.GradientTape() as d_tape:
                fake = gen(noise)
                d_loss = bce(ones, disc(real)) + bce(zeros, disc(fake))
            d_grads = d_tape.gradient(d_loss, disc.trainable_variables)
            d_opt.apply_gradients(zip(d_grads, disc.trainable_variables))
            with tf.GradientTape() as g_tape:
                g_loss = bce(ones, disc(gen(noise)))
            g_grads = g_tape.gradient(g_loss, gen.trainable_variables)
            g_opt.apply_gradients(zip(g_grads, gen.trainable_variables))

        for _ in range(2):
            step(real, noise)
        moved = not np.allclose(start, kernel.numpy())
        """)
    assert ns["moved"]
    assert _loud(report) == []


def test_frozen_backbone_compiled_after_the_freeze_is_silent(tmp_path: Path) -> None:
    # transfer learning: frozen on purpose, no train step of its own
    report, ns = _run(tmp_path, """
        disc.trainable = False
        head = keras.Sequential([keras.Input((4,)), disc, keras.layers.Dense(1)])
        head.compile(optimizer="sgd", loss="mse")
        head.fit(real, ones, epochs=2, verbose=0)
        moved = not np.allclose(start, kernel.numpy())
        """)
    assert not ns["moved"]
    assert _loud(report) == []


def test_discriminator_trained_by_a_later_step_is_silent(tmp_path: Path) -> None:
    # the recipe, then the discriminator unfrozen, compiled again and trained: it trains here
    report, ns = _run(tmp_path, "disc.trainable = False\n", COMBINED,
                      LOOP.format(before_d="", before_g=""), """
        disc.trainable = True
        disc.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy")
        disc.train_on_batch(real, ones)
        moved = not np.allclose(start, kernel.numpy())
        """)
    assert ns["moved"]
    assert _loud(report) == []
