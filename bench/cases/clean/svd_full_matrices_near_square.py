# summary: tf.linalg.svd(full_matrices=True) of a learned 4x3 matrix: the sides differ by one, where TensorFlow's SVD gradient is implemented, so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
features = tf.constant(rng.normal(size=(16, 4)).astype("float32"))
targets = tf.constant(rng.normal(size=(16, 3)).astype("float32"))
mixing = tf.Variable(rng.normal(size=(4, 3)).astype("float32"), name="mixing")
gain = tf.Variable(tf.ones([3]), name="gain")


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        s, u, v = tf.linalg.svd(mixing, full_matrices=True)
        basis = tf.matmul(u[:, :3] * s, v, transpose_b=True)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, basis) * gain - y))
    return tape.gradient(loss, [mixing, gain])


grads = train_step(features, targets)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
