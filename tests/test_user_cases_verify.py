"""Programs a new user ran through ``python -m tapemagic run --verify-fixes``, end to end.

Each broken program's finding names the right thing and its quick fix verifies (the re-run gets
the gradient and the program still runs); correct programs of the same shape stay silent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tapemagic.report.validate import validate_report
from tapemagic.verify import CHILD_ENV

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.tf]

GAN_STEP = """\
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(1)
gen = keras.Sequential([keras.Input((4,)), layers.Dense(6)], name="gen")
disc = keras.Sequential([keras.Input((6,)), layers.Dense(1)], name="disc")
bce = keras.losses.BinaryCrossentropy(from_logits=True)
real = tf.random.normal((8, 6))
for step in range(2):
    z = tf.random.normal((8, 4))
    fake = gen(z)
    with tf.GradientTape() as d_tape:
        d_loss = bce(tf.ones((8, 1)), disc(real)) + bce(tf.zeros((8, 1)), disc(fake))
    d_grads = d_tape.gradient(d_loss, disc.trainable_variables)
    with tf.GradientTape() as g_tape:
        g_loss = bce(tf.ones((8, 1)), disc(fake))
    g_grads = g_tape.gradient(g_loss, gen.trainable_variables)
"""
LOGGED_FLOAT = """\
import tensorflow as tf
import keras

keras.utils.set_random_seed(2)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
x, y = tf.random.normal((8, 3)), tf.random.normal((8, 1))
for epoch in range(2):
    with tf.GradientTape() as tape:
        mse = float(tf.reduce_mean(tf.square(model(x) - y)))
        loss = tf.convert_to_tensor(mse) + 1e-4 * tf.nn.l2_loss(model.layers[0].kernel)
    grads = tape.gradient(loss, model.trainable_variables)
    print(epoch, round(mse, 5))
"""
VARIABLE_IN_LOOP = """\
import tensorflow as tf
import keras

keras.utils.set_random_seed(3)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
opt = keras.optimizers.SGD(0.1)
x, y = tf.random.normal((8, 3)), tf.random.normal((8, 1))
for step in range(3):
    with tf.GradientTape() as tape:
        temperature = tf.Variable(1.0, name="temperature")
        loss = tf.reduce_mean(tf.square(model(x) / temperature - y))
    variables = model.trainable_variables + [temperature]
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
"""
# correct: one variable per trial, trained for several steps each (made again, not per step)
VARIABLE_PER_TRIAL = """\
import tensorflow as tf

x = tf.constant([1.0, 2.0])
for trial in range(2):
    scale = tf.Variable(0.5, name="scale")
    opt = tf.keras.optimizers.SGD(0.1)
    for step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(scale * x - 1.0))
        grads = tape.gradient(loss, [scale])
        opt.apply_gradients(zip(grads, [scale]))
"""


def _run(tmp_path: Path, code: str, *options: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    script, out = tmp_path / "train.py", tmp_path / "report.json"
    script.write_text(code)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    env.pop(CHILD_ENV, None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-m", "tapemagic", "run", "--json", str(out),
                           *options, str(script)], env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    payload = json.loads(out.read_text())
    validate_report(payload)
    return done, payload


def test_the_forward_pass_goes_into_the_generators_tape_and_verifies(tmp_path: Path) -> None:
    done, payload = _run(tmp_path, GAN_STEP, "--verify-fixes")
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM103" and finding["location"]["line"] == 12
    # what line 12 ran, not where the generator's layer was made
    assert finding["message"].startswith("`gen(z)` runs while the tape is not recording")
    assert [e["line"] for e in finding["fix"]["edits"]] == [17]  # first in g_tape's block
    assert finding["fix"]["verified"] is True, finding["fix"]["verification"]


def test_the_float_fix_keeps_the_logged_number_and_verifies(tmp_path: Path) -> None:
    done, payload = _run(tmp_path, LOGGED_FLOAT, "--verify-fixes")
    (finding,) = [f for f in payload["findings"] if f["rule"] == "TM301"]
    assert any(e["text"] == "    mse = float(mse)\n" for e in finding["fix"]["edits"])
    assert finding["fix"]["verified"] is True, finding["fix"]["verification"]


def test_a_variable_made_in_every_step_is_named_at_its_creation(tmp_path: Path) -> None:
    done, payload = _run(tmp_path, VARIABLE_IN_LOOP, "--verify-fixes")
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM111" and finding["location"]["line"] == 10
    assert finding["variables"] == ["temperature"]
    assert finding["fix"]["verified"] is True, finding["fix"]["verification"]
    assert "Unknown variable" in payload["exception"]["message"]
    assert "built with the variables of its first" in payload["exception"]["explanation"]


def test_a_variable_made_once_per_trial_is_silent(tmp_path: Path) -> None:
    done, payload = _run(tmp_path, VARIABLE_PER_TRIAL)
    assert done.returncode == 0, done.stderr
    assert payload["findings"] == []


PLAIN_HOLDER = """\
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(4)


class Heads:
    def __init__(self):
        self.dense = [layers.Dense(1, name="head_a"), layers.Dense(1, name="head_b")]


class Multi(keras.Model):
    def __init__(self):
        super().__init__()
        self.trunk = layers.Dense(4)
        self.heads = Heads()

    def call(self, x):
        h = self.trunk(x)
        return keras.ops.concatenate([d(h) for d in self.heads.dense], axis=-1)


model = Multi()
model.compile(optimizer="sgd", loss="mse")
model.fit(np.ones((8, 3), "float32"), np.ones((8, 2), "float32"), epochs=1, verbose=0)
"""


def test_layers_kept_in_a_plain_object_are_not_said_to_be_in_a_lambda(tmp_path: Path) -> None:
    done, payload = _run(tmp_path, PLAIN_HOLDER)
    (finding,) = [f for f in payload["findings"] if f["rule"] == "TM115"]
    assert "Lambda" not in finding["message"]
    assert "(a `Multi`) calls but does not track (" in finding["message"]
    assert "plain Python object" in finding["message"]
    # placed where the plain object was stored on the model: the line to change
    assert finding["location"]["line"] == PLAIN_HOLDER.splitlines().index(
        "        self.heads = Heads()") + 1


REGULARISED_ONLY = """\
import tensorflow as tf
import keras

keras.utils.set_random_seed(5)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, name="fc")], name="m")
prior = tf.Variable([1.0, 2.0], name="prior")  # only ever regularised, by design
x, y = tf.random.normal((8, 3)), tf.random.normal((8, 1))
with tf.GradientTape() as tape:
    mse = float(tf.reduce_mean(tf.square(model(x) - y)))
    loss = tf.convert_to_tensor(mse) + 1e-3 * (tf.nn.l2_loss(model.layers[0].kernel)
                                                + tf.nn.l2_loss(prior))
grads = tape.gradient(loss, model.trainable_variables + [prior])
"""


def test_a_weight_only_the_regulariser_reaches_past_the_cut_is_named(tmp_path: Path) -> None:
    # the kernel gets the L2 term's gradient but lost the data term's with the bias; `prior`
    # is read by the L2 term alone, so the cut takes nothing from it
    done, payload = _run(tmp_path, REGULARISED_ONLY)
    (finding,) = payload["findings"]
    assert finding["rule"] == "TM301"
    assert sorted(finding["variables"]) == ["m/fc/bias", "m/fc/kernel"]
