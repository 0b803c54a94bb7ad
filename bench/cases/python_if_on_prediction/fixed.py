# summary: a hinge written with tf.maximum keeps the loss a function of the score
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(34)
x = rng.normal(size=(16, 3)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="s")],
                            name="margin")

with tf.GradientTape() as tape:
    score = tf.reduce_mean(model(x))
    loss = tf.maximum(0.0, 1.0 - score)
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
