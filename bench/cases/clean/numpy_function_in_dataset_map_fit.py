# source: https://www.tensorflow.org/api_docs/python/tf/numpy_function
# summary: a data pipeline that augments each batch with a NumPy function through tf.numpy_function inside Dataset.map (random jitter on the host), then the model is fit on it; no NumPy on the path from the weights to the loss
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


def jitter(batch):
    return (batch + np.random.default_rng(0).normal(0, 0.01, batch.shape)).astype(np.float32)


rng = np.random.default_rng(77)
x, y = rng.normal(size=(32, 4)).astype("float32"), rng.normal(size=(32, 1)).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8).map(
    lambda a, b: (tf.ensure_shape(tf.numpy_function(jitter, [a], tf.float32), [None, 4]), b))
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu", name="h"),
                          keras.layers.Dense(1, name="out")])
model.compile("adam", "mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(ds, epochs=1, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
