# summary: compute the loss inside the with block and pass the result to gradient()
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(19)
x = rng.normal(size=(16, 2)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1, name="w")],
                            name="lin")


def mse(pred, target):
    return tf.reduce_mean((pred - target) ** 2)


def grad(features, target):
    with tf.GradientTape() as t:
        out = mse(model(features), target)
    return t.gradient(out, model.trainable_variables)


grads = grad(x, y)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
