# source: https://keras.io/api/models/model_training_apis/#fit-method
# summary: a regression fit on a tf.data.Dataset of (x, y, sample_weight) where the weights are 0 for rows with a missing target (NaN replaced by 0 in a map with tf.where and tf.math.is_nan)
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(8)
x = rng.normal(size=(48, 5)).astype("float32")
y = rng.normal(size=(48, 1)).astype("float32")
y[::5] = np.nan


def fill(features, target):
    missing = tf.math.is_nan(target)
    weight = tf.cast(tf.logical_not(missing), tf.float32)[:, 0]
    return features, tf.where(missing, tf.zeros_like(target), target), weight


ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(12).map(fill)
model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="tanh", name="h"),
                          keras.layers.Dense(1, name="out")])
model.compile("adam", "mse")
before = [w.copy() for w in model.get_weights()]
model.fit(ds, epochs=1, verbose=0)
assert all(not np.allclose(b, a) for b, a in zip(before, model.get_weights()))
