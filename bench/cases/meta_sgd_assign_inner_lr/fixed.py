# summary: the adapted weights are tensors used functionally; no assign inside the outer tape
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22)
x_support, y_support = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 1))
x_query, y_query = rng.normal(size=(8, 3)).astype("float32"), rng.normal(size=(8, 1))
learner = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="d")],
                              name="learner")
inner_lr = tf.Variable(0.1, name="inner_lr")

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        support_loss = tf.reduce_mean((learner(x_support) - y_support) ** 2)
    kernel, bias = learner.trainable_variables
    g_kernel, g_bias = inner.gradient(support_loss, [kernel, bias])
    fast_kernel = kernel - inner_lr * g_kernel
    fast_bias = bias - inner_lr * g_bias
    query_loss = tf.reduce_mean((x_query @ fast_kernel + fast_bias - y_query) ** 2)
g = outer.gradient(query_loss, inner_lr)
assert g is not None and float(tf.abs(g)) > 0
