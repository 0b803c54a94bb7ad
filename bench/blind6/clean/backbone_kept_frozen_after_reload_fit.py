# source: https://keras.io/api/models/model_saving_apis/model_saving_and_loading/
# summary: stage one freezes the feature block, trains and saves; stage two reloads the model with load_model and, on purpose, keeps the restored trainable=False to train only the head on new data; every trainable weight changes and the frozen block is left alone by design
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(17)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")

inputs = keras.Input((6,))
h = keras.layers.Dense(12, activation="tanh", name="kept_feature_block")(inputs)
outputs = keras.layers.Dense(1, name="kept_head")(h)
model = keras.Model(inputs, outputs, name="kept_net")
model.get_layer("kept_feature_block").trainable = False
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "kept.keras")
model.save(path)

head_only = keras.models.load_model(path)
assert not head_only.get_layer("kept_feature_block").trainable
head_only.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in head_only.trainable_weights]
head_only.fit(x * 0.5, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, head_only.trainable_weights)}
assert len(changed) == 2 and all(changed.values()), changed
