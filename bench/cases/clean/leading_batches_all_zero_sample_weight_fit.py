# summary: per-sample weights with zeros on purpose (padding examples weighted 0, left at the front of an unshuffled dataset, so the first two batches carry no weight), then real examples; fit trains on the weighted ones
# source: https://keras.io/guides/training_with_built_in_methods/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(25)
rng = np.random.default_rng(25)
x = rng.normal(size=(96, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")
sample_weight = np.ones(96, dtype="float32")
sample_weight[:32] = 0.0
x[:32] = 0.0
ds = tf.data.Dataset.from_tensor_slices((x, y, sample_weight)).batch(16)
model = keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(1, name="out")], name="weighted")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(ds, epochs=1, verbose=0, shuffle=False)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
