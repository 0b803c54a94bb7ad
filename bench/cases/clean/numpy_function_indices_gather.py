# source: https://github.com/tensorflow/tensorflow/issues/47033
# summary: tf.numpy_function computes integer assignments; tf.gather of the prediction uses them
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(119)
x = rng.normal(size=(6, 4)).astype("float32")
centres = tf.constant(rng.normal(size=(3, 2)).astype("float32"))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2, name="emb")],
                            name="assign")


def nearest(points, c):
    d = ((points[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    return d.argmin(axis=1).astype("int64")


with tf.GradientTape() as tape:
    emb = model(x)
    idx = tf.numpy_function(nearest, [emb, centres], tf.int64)
    loss = tf.reduce_mean(tf.reduce_sum(tf.square(emb - tf.gather(centres, idx)), axis=-1))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
