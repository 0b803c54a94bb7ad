# source: https://github.com/cvg/DeepLSD/issues/36
# summary: a heading regressor trained by fit uses a custom loss that wraps the angle error into [-pi, pi) with tf.math.floormod; floormod looks like an integer operation but its gradient with respect to the error is 1, so every weight changes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(29846)
x = rng.normal(size=(96, 4)).astype("float32")
y = np.arctan2(x[:, :1], x[:, 1:2]).astype("float32")


def wrapped_angle_loss(y_true, y_pred):
    err = tf.math.floormod(y_pred - y_true + np.pi, 2.0 * np.pi) - np.pi
    return tf.reduce_mean(tf.square(err), axis=-1)


model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="tanh", name="ang_hidden"),
                          keras.layers.Dense(1, name="ang_out")], name="heading")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=wrapped_angle_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(before) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
