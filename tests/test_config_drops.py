"""TM122: a custom layer's ``get_config`` leaves out the argument that made a weight trainable.

Real Keras 3: ``load_model`` and ``clone_model`` rebuild a layer as ``cls(**get_config())``, so a
weight made with ``trainable=self.learn`` comes back frozen when ``learn`` is not in the config,
and a fine-tuning ``fit`` never changes it. The finding sits at the ``get_config``'s return.
Look-alikes stay silent: the complete config, a weight frozen on purpose before the save too,
an argument left out that decides no weight's flag, a flag the code sets after the load.
Shapes from public reports (https://github.com/keras-team/keras/pull/20321,
https://github.com/tensorflow/tensorflow/issues/39793); own code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from checked import loud, run_program

pytestmark = pytest.mark.tf

PROGRAM = """
import os
import tempfile
import keras
import numpy as np
keras.utils.set_random_seed(0)


class Gain(keras.layers.Layer):
    def __init__(self, learn=False, eps=0.0, **kwargs):
        super().__init__(**kwargs)
        self.learn = learn
        self.eps = eps

    def build(self, input_shape):
        self.gain = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="gain",
                                    trainable=self.learn)

    def call(self, inputs):
        return inputs * self.gain + self.eps

    def get_config(self):
        return {config}  # CONFIG


rng = np.random.default_rng(3)
x = rng.normal(size=(32, 3)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
inputs = keras.Input((3,))
first = keras.Model(inputs, keras.layers.Dense(1, name="head")(Gain({args}, name="g")(inputs)))
path = os.path.join(tempfile.mkdtemp(), "m.keras")
{before}first.save(path)
model = {rebuild}
{after}model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
start = model.get_layer("g").gain.numpy().copy()
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
moved = not np.array_equal(start, model.get_layer("g").gain.numpy())
"""

DROPS = "super().get_config()"
LOAD = "keras.models.load_model(path, custom_objects={'Gain': Gain})"


def _run(tmp_path: Path, config: str = DROPS, args: str = "learn=True", rebuild: str = LOAD,
         after: str = "", before: str = "") -> tuple[list[tuple[str, int]], Any]:
    done = run_program(tmp_path, PROGRAM.format(config=config, args=args, rebuild=rebuild,
                                                after=after, before=before))
    return loud(done.report), done


@pytest.mark.parametrize("rebuild", [LOAD, "keras.models.clone_model(first)"],
                         ids=["load_model", "clone_model"])
def test_a_flag_left_out_of_get_config_is_reported_there(tmp_path: Path, rebuild: str) -> None:
    found, done = _run(tmp_path, rebuild=rebuild)
    assert not done.namespace["moved"]  # the rebuilt gain is frozen by the constructor default
    assert found == [("TM122", done.line("# CONFIG"))]
    finding = next(f for f in done.report.findings if f.rule == "TM122")
    assert finding.variables == ("g/gain",)
    assert "`learn` (True in the original, False in the rebuilt layer)" in finding.message


def test_a_complete_config_or_a_weight_frozen_before_the_save_stays_silent(
        tmp_path: Path) -> None:
    found, done = _run(tmp_path, config='{**super().get_config(), "learn": self.learn}')
    assert done.namespace["moved"] and found == []
    assert _run(tmp_path, args="learn=False")[0] == []  # frozen on purpose both times


def test_an_argument_left_out_that_freezes_nothing_stays_silent(tmp_path: Path) -> None:
    config = '{**super().get_config(), "learn": self.learn}'
    found, done = _run(tmp_path, config=config, args="learn=True, eps=0.5")
    assert done.namespace["moved"] and found == []


def test_a_flag_the_code_sets_after_the_load_stays_silent(tmp_path: Path) -> None:
    found, _ = _run(tmp_path, after='model.get_layer("g").trainable = False\n')
    assert found == []


def test_a_custom_layer_frozen_whole_before_the_save_is_no_dropped_argument(
        tmp_path: Path) -> None:
    found, done = _run(tmp_path, before='first.get_layer("g").trainable = False\n')
    assert found == []  # the layer's own saved flag froze it: the freeze may be meant
    assert not any(f.rule == "TM122" for f in done.report.findings)
