# summary: tape.jacobian of a small network's outputs with respect to its kernel and its input
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(111)
x = tf.constant(rng.normal(size=(4, 3)).astype("float32"))
layer = tf.keras.layers.Dense(2, activation="tanh", name="d")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), layer], name="jac")

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    out = model(x)
j_kernel = tape.jacobian(out, layer.kernel)
j_input = tape.batch_jacobian(out, x)
del tape
assert j_kernel.shape == (4, 2, 3, 2) and j_input.shape == (4, 2, 3)
assert float(tf.reduce_max(tf.abs(j_kernel))) > 0 and float(tf.reduce_max(tf.abs(j_input))) > 0
