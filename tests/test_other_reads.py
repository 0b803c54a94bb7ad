"""The loss read another model than the sources, and fit's loss left an output out.

Real TensorFlow and Keras 3. Broken: a DQN step that takes Q(s, a) from the target network
inside the tape (TM104 at that read: the target network is the loss's fixed target, read
outside the tape too); a source list kept from before the model was rebuilt from its config
(TM119 at the gradient call); a ``compile`` loss dict or list that gives an output no loss
(TM104 at the ``compile``). Correct look-alikes stay silent: a DQN with the target network
outside the tape, a BYOL-style target read inside the tape and written by ``assign``, the list
taken after the rebuild, every output with a loss, an output weighted 0 on purpose.
"""

from __future__ import annotations

import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

import tapemagic
from tapemagic.report.validate import validate_report

pytestmark = pytest.mark.tf

Q_SETUP = """\
import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
s = tf.constant(rng.normal(size=(16, 4)), tf.float32)
s2 = tf.constant(rng.normal(size=(16, 4)), tf.float32)
a = tf.constant(rng.integers(0, 2, size=16))
r = tf.constant(rng.normal(size=16), tf.float32)

def make(name):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, "relu", name="h"),
                             keras.layers.Dense(2, name="q")], name=name)

online, target = make("online"), make("target")
target.set_weights(online.get_weights())
optimizer = keras.optimizers.Adam(1e-3)
"""

DQN = """
@tf.function
def step():
    y = r + 0.99 * tf.reduce_max(target(s2), axis=1)
    with tf.GradientTape() as tape:
        q = tf.gather({net}(s), a, batch_dims=1)  # READ
        loss = tf.reduce_mean(tf.square(y - q))
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))

step()
"""

# the target network read inside the tape, its output kept out of the gradient, and updated
# by a moving average (BYOL): its weights are on the loss path by design
EMA_INSIDE = """
for _ in range(2):
    with tf.GradientTape() as tape:
        y = r + 0.99 * tf.reduce_max(tf.stop_gradient(target(s2)), axis=1)
        loss = tf.reduce_mean(tf.square(y - tf.gather(online(s), a, batch_dims=1)))
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    for t, o in zip(target.weights, online.weights):
        t.assign(0.99 * t + 0.01 * o)
"""

# a source list kept from before the model was rebuilt from its config
REBUILT = """
params = online.trainable_variables
restored = keras.models.model_from_json(online.to_json())
restored.set_weights(online.get_weights())
online = restored
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(online(s)))
grads = tape.gradient(loss, {sources})  # GRADIENT
"""

FIT_SETUP = """\
import keras
import numpy as np
keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)
x = rng.normal(size=(32, 6)).astype("float32")
price_y, category_y = x[:, :1] * 2.0, rng.integers(0, 3, size=32)
inputs = keras.Input((6,))
h = keras.layers.Dense(8, activation="tanh", name="trunk")(inputs)
price = keras.layers.Dense(1, name="price")(h)
category = keras.layers.Dense(3, name="category")(h)
"""

FIT_DICT = """
model = keras.Model(inputs, {{"price": price, "category": category}}, name="listing")
model.compile(optimizer="adam", {compiled})  # COMPILE
model.fit(x, {{"price": price_y, "category": category_y}}, epochs=1, batch_size=8, verbose=0)
"""

# the dict's keys are not the layers' names: Keras keys the loss dict by the dict's keys
FIT_KEYS = """
model = keras.Model(inputs, {{"value": price, "category": category}}, name="listing")
model.compile(optimizer="adam", {compiled})  # COMPILE
model.fit(x, {{"value": price_y, "category": category_y}}, epochs=1, batch_size=8, verbose=0)
"""

FIT_LIST = """
model = keras.Model(inputs, [price, category], name="listing")
model.compile(optimizer="adam", {compiled})  # COMPILE
model.fit(x, [price_y, category_y], epochs=1, batch_size=8, verbose=0)
"""

BOTH = 'loss={"price": "mse", "category": "sparse_categorical_crossentropy"}'


def _run(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "cell.py"
    path.write_text(text)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    check = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        try:
            with tapemagic.gradcheck() as check:
                exec(compile(text, str(path), "exec"), namespace)  # noqa: S102
        except ValueError as error:  # "No gradients provided": the report is made all the same
            assert "No gradients" in str(error)
    assert check is not None
    validate_report(check.report.to_json())
    return check.report


def _line(text: str, needle: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), start=1) if needle in t)


def _loud(report: Any) -> list[tuple[str, int]]:
    return [(f.rule, f.location.line if f.location else 0) for f in report.findings
            if f.severity in ("error", "warning")]


def test_q_values_from_the_target_network_are_placed_at_that_read(tmp_path: Path) -> None:
    text = Q_SETUP + textwrap.dedent(DQN.format(net="target"))
    report = _run(tmp_path, text)
    assert _loud(report) == [("TM104", _line(text, "# READ"))]
    (finding,) = report.findings
    assert sorted(finding.variables) == sorted(f"online/{layer}/{part}" for layer in "hq"
                                               for part in ("kernel", "bias"))
    assert "fixed target" in finding.message


def test_a_source_list_kept_from_before_a_rebuild_is_named_at_the_gradient_call(
        tmp_path: Path) -> None:
    text = Q_SETUP + textwrap.dedent(REBUILT.format(sources="params"))
    report = _run(tmp_path, text)
    assert _loud(report) == [("TM119", _line(text, "# GRADIENT"))]
    (finding,) = report.findings
    assert finding.cause == "sources-mismatch"
    assert sorted(finding.variables) == sorted(f"online/{layer}/{part}" for layer in "hq"
                                               for part in ("kernel", "bias"))
    assert f"taken at line {_line(text, 'params = online.trainable_variables')}" in \
        finding.message


@pytest.mark.parametrize(("frame", "compiled"), [
    (FIT_DICT, 'loss={"price": "mse"}'),
    (FIT_DICT, 'loss={"price": "mse", "category": None}'),
    (FIT_LIST, 'loss=["mse", None]'),
    (FIT_KEYS, 'loss={"value": "mse"}'),
], ids=["dict-missing", "dict-none", "list-none", "dict-keys-not-layer-names"])
def test_an_output_compile_gave_no_loss_is_placed_at_the_compile(
        tmp_path: Path, frame: str, compiled: str) -> None:
    text = FIT_SETUP + textwrap.dedent(frame.format(compiled=compiled))
    report = _run(tmp_path, text)
    assert _loud(report) == [("TM104", _line(text, "# COMPILE"))]
    (finding,) = report.findings
    assert sorted(finding.variables) == ["category/bias", "category/kernel"]
    assert "`category` no loss" in finding.message


@pytest.mark.parametrize("text", [
    Q_SETUP + textwrap.dedent(DQN.format(net="online")),
    Q_SETUP + textwrap.dedent(EMA_INSIDE),
    Q_SETUP + textwrap.dedent(REBUILT.format(sources="online.trainable_variables")),
    FIT_SETUP + textwrap.dedent(FIT_DICT.format(compiled=BOTH)),
    FIT_SETUP + textwrap.dedent(FIT_DICT.format(
        compiled=BOTH + ', loss_weights={"price": 1.0, "category": 0.0}')),
    FIT_SETUP + textwrap.dedent(FIT_LIST.format(
        compiled='loss=["mse", "sparse_categorical_crossentropy"], loss_weights=[1.0, 0.0]')),
], ids=["dqn", "ema-target-inside-tape", "list-after-rebuild", "every-output",
        "monitored-head-weight-0", "monitored-head-list-weight-0"])
def test_correct_look_alikes_stay_silent(tmp_path: Path, text: str) -> None:
    report = _run(tmp_path, text)
    assert not _loud(report)
