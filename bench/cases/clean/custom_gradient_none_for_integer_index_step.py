# source: https://www.tensorflow.org/api_docs/python/tf/custom_gradient
# summary: a tf.custom_gradient gather-with-clipped-gradient whose grad function returns None for the integer index argument (it has no gradient) and a clipped upstream gradient for the float table; the table comes from the model
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


@tf.custom_gradient
def clipped_gather(table, index):
    out = tf.gather(table, index)

    def grad(upstream):
        dense = tf.math.unsorted_segment_sum(upstream, index, tf.shape(table)[0])
        return tf.clip_by_norm(dense, 1.0, axes=[1]), None
    return out, grad


proj = keras.layers.Dense(4, name="proj")
table_in = tf.constant(np.random.default_rng(72).normal(size=(10, 6)), tf.float32)
index = tf.constant([1, 3, 3, 7, 9])
target = tf.constant(np.random.default_rng(73).normal(size=(5, 4)), tf.float32)
proj(table_in)
with tf.GradientTape() as tape:
    table = proj(table_in)
    loss = tf.reduce_mean(tf.square(clipped_gather(table, index) - target))
grads = tape.gradient(loss, proj.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
