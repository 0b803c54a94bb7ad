# summary: a TD target wrapped in tf.stop_gradient on purpose (semi-gradient TD)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(120)
s = rng.normal(size=(16, 4)).astype("float32")
s_next = rng.normal(size=(16, 4)).astype("float32")
r = rng.normal(size=(16, 1)).astype("float32")
value = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="h"),
                             tf.keras.layers.Dense(1, name="v")], name="value")

with tf.GradientTape() as tape:
    target = tf.stop_gradient(r + 0.9 * value(s_next))
    loss = tf.reduce_mean(tf.square(target - value(s)))
grads = tape.gradient(loss, value.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
