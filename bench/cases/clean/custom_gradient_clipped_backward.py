# summary: a correct tf.custom_gradient that clips the backward signal and handles its variable
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(121)
x = tf.constant(rng.normal(size=(8, 3)).astype("float32"))
y = tf.constant(rng.normal(size=(8, 1)).astype("float32"))
scale = tf.Variable(tf.ones((3, 1)), name="scale")


@tf.custom_gradient
def clipped_projection(inputs):
    out = inputs @ scale

    def grad(dy, variables=None):
        dy = tf.clip_by_value(dy, -1.0, 1.0)
        return dy @ tf.transpose(scale), [tf.transpose(inputs) @ dy for _ in variables]

    return out, grad


with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(clipped_projection(x) - y))
g = tape.gradient(loss, scale)
assert g is not None and float(tf.reduce_max(tf.abs(g))) > 0
