# source: https://github.com/tensorflow/tensorflow/issues/17995
# summary: a waiting-time model fits the shape and rate of a Gamma CDF written with tf.math.igamma(shape, rate * t); unlike betainc or zeta, TensorFlow's igamma has a gradient for its first argument, so both learned parameters get real gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(17995)
t = rng.uniform(0.1, 5.0, size=(128,)).astype("float32")
observed = (1.0 - np.exp(-t) * (1.0 + t)).astype("float32")

raw_shape = tf.Variable(0.0, name="raw_shape")
raw_rate = tf.Variable(0.5, name="raw_rate")
optimizer = tf.keras.optimizers.Adam(5e-2)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        shape = tf.nn.softplus(raw_shape) + 0.1
        rate = tf.nn.softplus(raw_rate)
        cdf = tf.math.igamma(shape, rate * t)
        loss = tf.reduce_mean(tf.square(cdf - observed))
    grads = tape.gradient(loss, [raw_shape, raw_rate])
    optimizer.apply_gradients(zip(grads, [raw_shape, raw_rate]))
    return grads


grads = train_step()
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
