# summary: quantile regression with three heads and a pinball loss written with tf.where(error >= 0, q * error, (q - 1) * error), compiled into fit
# source: https://www.tensorflow.org/probability/examples/Probabilistic_Layers_Regression
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(35)
rng = np.random.default_rng(35)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] * 2 + rng.normal(size=(64, 1))).astype("float32")
qs = tf.constant([[0.1, 0.5, 0.9]])


def pinball(y_true, y_pred):
    err = y_true - y_pred
    return tf.reduce_mean(tf.where(err >= 0, qs * err, (qs - 1.0) * err))


model = keras.Sequential([keras.Input((4,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(3, name="quantiles")])
model.compile("adam", pinball)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
