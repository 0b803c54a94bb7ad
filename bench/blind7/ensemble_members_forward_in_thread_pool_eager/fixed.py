# summary: the members run in the thread that holds the tape (a plain list comprehension), their forward passes are recorded, and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1142)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")


def member(tag):
    return keras.Sequential([keras.Input((4,)),
                             keras.layers.Dense(8, activation="tanh", name=f"{tag}_hidden"),
                             keras.layers.Dense(1, name=f"{tag}_out")], name=f"member_{tag}")


members = [member("a"), member("b")]
params = [v for m in members for v in m.trainable_variables]

with tf.GradientTape() as tape:
    outputs = [m(x, training=True) for m in members]
    loss = tf.reduce_mean(tf.square(tf.add_n(outputs) / 2.0 - y))
grads = tape.gradient(loss, params)
assert len(grads) == 8
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
