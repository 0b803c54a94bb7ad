# summary: a masked, Huber-like loss with tf.where(cond, a, b) and a boolean padding mask
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(108)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 3)).astype("float32")
valid = tf.constant(rng.random((16, 3)) > 0.2)
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="d")],
                            name="reg")

with tf.GradientTape() as tape:
    err = model(x) - y
    small = tf.abs(err) < 1.0
    per_item = tf.where(small, 0.5 * err ** 2, tf.abs(err) - 0.5)
    per_item = tf.where(valid, per_item, tf.zeros_like(per_item))
    loss = tf.reduce_sum(per_item) / tf.reduce_sum(tf.cast(valid, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
