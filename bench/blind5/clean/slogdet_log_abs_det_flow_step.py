# source: https://github.com/jaywalnut310/glow-tts/issues/17
# summary: a linear normalising-flow layer adds log|det W| from tf.linalg.slogdet to the log-likelihood and ignores the sign output (which has no gradient); log|det| is differentiable, so the mixing matrix and the bias both get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1007)
x = (rng.normal(size=(128, 3)) @ np.array([[2.0, 0.3, 0.0], [0.0, 1.0, 0.5], [0.0, 0.0, 0.5]])).astype("float32")

w = tf.Variable(tf.eye(3) + 0.1 * tf.random.normal((3, 3)), name="flow_w")
b = tf.Variable(tf.zeros(3), name="flow_b")


@tf.function
def train_step(data):
    with tf.GradientTape() as tape:
        z = tf.matmul(data, w) + b
        _, log_abs_det = tf.linalg.slogdet(w)
        log_prob = -0.5 * tf.reduce_sum(tf.square(z), axis=1) + log_abs_det
        loss = -tf.reduce_mean(log_prob)
    return tape.gradient(loss, [w, b])


grads = train_step(x)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
