# source: https://www.tensorflow.org/api_docs/python/tf/pad
# summary: a causal 1-D convolution left-pads its input activations with tf.pad (constant 0) before a "valid" Conv1D; the pad op passes the gradient back to the padded tensor, so the convolution and the projection before it both train
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
x = rng.normal(size=(8, 10, 3)).astype("float32")
y = rng.normal(size=(8, 10, 2)).astype("float32")

proj = keras.layers.Dense(4, name="causal_proj")
conv = keras.layers.Conv1D(2, 3, padding="valid", name="causal_conv")
proj.build((None, 10, 3))
conv.build((None, 12, 4))
params = proj.trainable_variables + conv.trainable_variables

with tf.GradientTape() as tape:
    h = proj(x)
    padded = tf.pad(h, [[0, 0], [2, 0], [0, 0]])
    loss = tf.reduce_mean(tf.square(conv(padded) - y))
grads = tape.gradient(loss, params)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
