# summary: a binary focal loss written with tf.where on the labels (p_t and alpha_t), probabilities clipped away from 0 and 1, labels smoothed first, compiled into fit
# source: https://github.com/keras-team/keras/blob/master/keras/src/losses/losses.py
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(20)
rng = np.random.default_rng(20)
x = rng.normal(size=(64, 8)).astype("float32")
y = (rng.uniform(size=(64, 1)) < 0.2).astype("float32")


def focal_loss(y_true, y_pred, gamma=2.0, alpha=0.25, smoothing=0.05):
    y_true = tf.cast(y_true, y_pred.dtype)
    y_true = y_true * (1.0 - smoothing) + 0.5 * smoothing
    p = tf.clip_by_value(y_pred, 1e-7, 1.0 - 1e-7)
    is_pos = tf.greater_equal(y_true, 0.5)
    p_t = tf.where(is_pos, p, 1.0 - p)
    alpha_t = tf.where(is_pos, alpha, 1.0 - alpha)
    return tf.reduce_mean(-alpha_t * tf.pow(1.0 - p_t, gamma) * tf.math.log(p_t))


model = keras.Sequential([keras.Input((8,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(1, activation="sigmoid", name="out")])
model.compile("adam", focal_loss, metrics=[keras.metrics.AUC()])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
