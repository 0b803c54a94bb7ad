# source: https://www.tensorflow.org/api_docs/python/tf/where
# summary: a distance loss guarded against NaN gradients with the double tf.where trick: the inner tf.where replaces the zero distances before tf.sqrt, the outer one picks 0 for them; pairs on the diagonal are exactly zero
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
embed = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4)], name="embed")
x = tf.constant(np.random.default_rng(25).normal(size=(6, 5)), tf.float32)
same = tf.constant(np.kron(np.eye(3), np.ones((2, 2))), tf.float32)
with tf.GradientTape() as tape:
    e = embed(x)
    sq = tf.reduce_sum(tf.square(e[:, None] - e[None]), -1)
    positive = sq > 0
    dist = tf.where(positive, tf.sqrt(tf.where(positive, sq, tf.ones_like(sq))), tf.zeros_like(sq))
    loss = tf.reduce_mean(same * dist + (1 - same) * tf.nn.relu(2.0 - dist))
grads = tape.gradient(loss, embed.trainable_variables)
assert all(g is not None and bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
