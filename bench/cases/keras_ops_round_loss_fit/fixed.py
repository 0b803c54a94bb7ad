# summary: train on the raw prediction; round only when reporting counts
import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(6)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.integers(0, 10, size=(64, 1)).astype("float32")
model = keras.Sequential([keras.layers.Input((4,)),
                          keras.layers.Dense(8, activation="relu", name="h"),
                          keras.layers.Dense(1, name="count")], name="counter")


def count_error(y_true, y_pred):
    return keras.ops.mean(keras.ops.square(y_true - y_pred), axis=-1)


model.compile(optimizer="sgd", loss=count_error)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
print(tf.__version__)
