# source: https://github.com/tensorflow/probability/issues/545
# cause: non-differentiable-op
# weights: mixing, shift
# mode: function
# summary: a Glow-style invertible linear flow computes log|det W| from the U factor of tf.linalg.lu inside the step; the Lu op has no registered gradient, so the gradient call raises LookupError for every weight of the flow
# lint: yes
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
        lu, _ = tf.linalg.lu(mixing)  # expect: non-differentiable-op primary
        log_det = tf.reduce_sum(tf.math.log(tf.abs(tf.linalg.diag_part(lu))))
        nll = 0.5 * tf.reduce_mean(tf.reduce_sum(tf.square(z), axis=-1)) - log_det
    grads = tape.gradient(nll, [mixing, shift])
    optimizer.apply_gradients(zip(grads, [mixing, shift]))
    return nll


print("nll", float(train_step(data)))
