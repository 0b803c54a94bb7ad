# summary: DP-SGD: per-example gradients from tape.jacobian of the per-example losses, each clipped to an L2 norm with tf.clip_by_norm inside tf.map_fn, Gaussian noise added to their mean, a @tf.function step
# source: https://github.com/tensorflow/privacy/blob/master/tutorials/walkthrough/README.md
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(51)
x = tf.constant(rng.normal(size=(8, 5)).astype("float32"))
y = tf.constant(rng.integers(0, 2, size=(8,)).astype("int32"))
w = tf.Variable(rng.normal(size=(5, 2)).astype("float32") * 0.3, name="w")
b = tf.Variable(np.zeros(2, "float32"), name="b")
params = [w, b]
opt = tf.keras.optimizers.SGD(0.1)
clip, sigma = 1.0, 0.5


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(yb, tf.matmul(xb, w) + b)
    jac = tape.jacobian(per_example, params)
    n = tf.cast(tf.shape(xb)[0], tf.float32)
    noisy = []
    for j in jac:
        clipped = tf.map_fn(lambda g: tf.clip_by_norm(g, clip), j)
        noisy.append((tf.reduce_sum(clipped, 0) + tf.random.normal(tf.shape(j)[1:], stddev=sigma * clip)) / n)
    opt.apply_gradients(zip(noisy, params))
    return jac


jac = step(x, y)
assert all(j is not None and float(tf.norm(j)) > 0 for j in jac)
