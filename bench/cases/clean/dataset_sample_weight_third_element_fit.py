# summary: a tf.data pipeline yields (features, target, weight) with a per-row importance weight (rare rows up-weighted), which fit reads as sample_weight on purpose; every weight is positive and every model weight changes
# source: https://www.tensorflow.org/guide/keras/training_with_built_in_methods
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(9)

rng = np.random.default_rng(9)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")
weight = np.where(y[:, 0] > 1.0, 3.0, 1.0).astype("float32")

data = tf.data.Dataset.from_tensor_slices((x, y, weight)).batch(16)
model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(10, activation="relu", name="hidden"),
                          keras.layers.Dense(1, name="out")], name="weighted")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(data, epochs=2, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
