# summary: a small random initialisation breaks the tie at ReLU's kink
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(32)
x = rng.normal(size=(16, 6)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")
model = tf.keras.Sequential([
    tf.keras.layers.Input((6,)),
    tf.keras.layers.Dense(4, name="embed"),
    tf.keras.layers.Dense(2, use_bias=False, kernel_initializer="glorot_uniform",
                          activation="relu", name="gate"),
], name="grn")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
