# summary: a tf.custom_gradient inside a tf.function step reads a learned temperature and its gradient function accepts `variables` and returns the temperature's gradient, so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
x = tf.constant(rng.normal(size=(16, 4)).astype("float32"))
y = tf.constant(rng.normal(size=(16, 2)).astype("float32"))
kernel = tf.Variable(rng.normal(size=(4, 2)).astype("float32"), name="kernel")
temperature = tf.Variable(2.0, name="temperature")


@tf.custom_gradient
def tempered(z):
    def grad(upstream, variables=None):
        return upstream / temperature, [tf.reduce_sum(-upstream * z / temperature ** 2)
                                        for _ in variables]
    return z / temperature, grad


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tempered(tf.matmul(x, kernel)) - y))
    return tape.gradient(loss, [kernel, temperature])


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
