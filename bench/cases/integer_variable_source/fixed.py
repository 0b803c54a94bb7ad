# summary: the parameters are float variables
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

xs = np.arange(8, dtype="float32")
ys = 3.0 * xs + 1.0
slope = tf.Variable(2.0, name="slope")
intercept = tf.Variable(0.0, name="intercept")

with tf.GradientTape() as tape:
    pred = slope * xs + intercept
    loss = tf.reduce_mean((pred - ys) ** 2)
grads = tape.gradient(loss, [slope, intercept])
assert all(g is not None and float(tf.abs(g)) > 0 for g in grads)
