# summary: a straight-through estimator: round in the forward pass, identity gradient backward
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(103)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 4)).astype("float32")
encoder = tf.keras.layers.Dense(4, name="enc")
decoder = tf.keras.layers.Dense(4, name="dec")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), encoder, decoder], name="codec")

with tf.GradientTape() as tape:
    z = encoder(x)
    z_q = z + tf.stop_gradient(tf.round(z) - z)
    loss = tf.reduce_mean(tf.square(decoder(z_q) - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
