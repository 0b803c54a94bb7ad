# source: https://github.com/keras-team/keras/issues/13587
# cause: sources-mismatch
# weights: feature_block/kernel, feature_block/bias
# mode: fit
# summary: stage one freezes the feature block, trains the head and saves the model; stage two reloads it with keras.models.load_model to fine-tune everything, but the saved config restores feature_block.trainable = False, so after compile and fit the feature block never changes
# lint: no (the frozen flag comes back from the saved file, not from a line of stage two)
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
model.get_layer("feature_block").trainable = False  # accept: sources-mismatch
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "stage_one.keras")
model.save(path)

finetune = keras.models.load_model(path)  # expect: sources-mismatch primary
finetune.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
before = {w.path: w.numpy().copy() for w in finetune.weights}
finetune.fit(x, y, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in finetune.weights})
