# summary: a model whose base was frozen is saved and reloaded with keras.models.load_model; the loading code freezes the base again itself (a flag the file already restored) and trains only the head, whose weights all change
# source: https://github.com/keras-team/keras/issues/11748
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(3)

rng = np.random.default_rng(11748)
x = rng.normal(size=(48, 5)).astype("float32")
y = (np.tanh(x) @ rng.normal(size=(5, 2))).astype("float32")

inputs = keras.Input((5,))
hidden = keras.layers.Dense(8, activation="relu", name="base")(inputs)
net = keras.Model(inputs, keras.layers.Dense(2, name="top")(hidden), name="two_stage")
net.get_layer("base").trainable = False
net.compile(optimizer="adam", loss="mse")
net.fit(x, y, epochs=1, batch_size=16, verbose=0)
saved = os.path.join(tempfile.mkdtemp(), "two_stage.keras")
net.save(saved)

again = keras.models.load_model(saved)
again.get_layer("base").trainable = False
again.compile(optimizer=keras.optimizers.Adam(5e-3), loss="mse")
start = [w.numpy().copy() for w in again.trainable_weights]
again.fit(x, y, epochs=2, batch_size=16, verbose=0)
moved = [bool(np.any(s != w.numpy())) for s, w in zip(start, again.trainable_weights)]
assert len(moved) == 2 and all(moved), moved
