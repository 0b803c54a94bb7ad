# summary: after load_model the fine-tuning stage sets feature_block.trainable = True before compiling, so fit trains every weight
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13587)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")

inputs = keras.Input((6,))
h = keras.layers.Dense(12, activation="tanh", name="feature_block")(inputs)
outputs = keras.layers.Dense(1, name="head")(h)
model = keras.Model(inputs, outputs, name="tabular_net")
model.get_layer("feature_block").trainable = False
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "stage_one.keras")
model.save(path)

finetune = keras.models.load_model(path)
finetune.get_layer("feature_block").trainable = True
finetune.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
before = {w.path: w.numpy().copy() for w in finetune.weights}
finetune.fit(x, y, epochs=1, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in finetune.weights}
assert len(changed) == 4 and all(changed.values()), changed
