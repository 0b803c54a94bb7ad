# summary: log|det W| comes from tf.linalg.slogdet, which has a gradient, so the flow's weights train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(545)
data = (rng.normal(size=(256, 3)) @ np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.3], [0.2, 0.0, 1.0]])).astype("float32")
mixing = tf.Variable(np.eye(3, dtype="float32") + 0.1 * rng.normal(size=(3, 3)).astype("float32"), name="mixing")
shift = tf.Variable(tf.zeros([3]), name="shift")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        z = (batch - shift) @ mixing
        _, log_det = tf.linalg.slogdet(mixing)
        nll = 0.5 * tf.reduce_mean(tf.reduce_sum(tf.square(z), axis=-1)) - log_det
    grads = tape.gradient(nll, [mixing, shift])
    optimizer.apply_gradients(zip(grads, [mixing, shift]))
    return grads


grads = train_step(data)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
