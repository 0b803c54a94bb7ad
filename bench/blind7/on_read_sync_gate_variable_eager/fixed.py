# summary: the gate is an ordinary trainable tf.Variable (no ON_READ synchronization, which is meant for replica-local statistics), the tape watches it, and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(77)
x = rng.normal(size=(32, 6)).astype("float32")
y = (x + 0.5 * np.tanh(x)).astype("float32")

block = keras.Sequential([keras.Input((6,)), keras.layers.Dense(6, activation="tanh", name="residual_branch")],
                         name="residual_block")
gate = tf.Variable(0.1, name="residual_gate")
params = block.trainable_variables + [gate]

with tf.GradientTape() as tape:
    out = x + gate * block(x, training=True)
    loss = tf.reduce_mean(tf.square(out - y))
grads = tape.gradient(loss, params)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
