# source: https://www.tensorflow.org/api_docs/python/tf/math/abs
# summary: a residual gain kept non-negative with tf.abs is initialised to 1 (not 0), so the derivative of abs is +1 there, the gain and the branch it scales both get gradients
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(14)
x = rng.normal(size=(32, 6)).astype("float32")
y = (np.sin(x) * 0.5).astype("float32")

branch = keras.layers.Dense(6, activation="tanh", name="gain_branch")
branch.build((None, 6))
gain = tf.Variable(1.0, name="residual_gain")
params = branch.trainable_variables + [gain]

with tf.GradientTape() as tape:
    out = x + tf.abs(gain) * branch(x)
    loss = tf.reduce_mean(tf.square(out - y))
grads = tape.gradient(loss, params)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
