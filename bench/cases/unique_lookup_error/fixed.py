# summary: de-duplicate on integer keys and average the scores per key (differentiable)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(8)
x = rng.normal(size=(16, 3)).astype("float32")
keys = tf.constant(rng.integers(0, 5, size=16))
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(1, name="s")], name="scorer")

with tf.GradientTape() as tape:
    scores = tf.reshape(model(x), [-1])
    _, slot = tf.unique(keys)
    distinct = tf.math.unsorted_segment_mean(scores, slot, tf.reduce_max(slot) + 1)
    loss = tf.reduce_sum(tf.square(distinct))
grads = tape.gradient(loss, model.trainable_weights)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
