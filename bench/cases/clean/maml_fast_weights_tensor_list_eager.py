# summary: MAML with fast weights as a list of tensors: an inner tape's gradients give fast = [w - lr * g ...] (rebinding the list each inner step), a functional forward with the fast weights, the outer tape differentiates the query loss to the original variables
# source: https://arxiv.org/abs/1703.03400
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(56)
w1 = tf.Variable(rng.normal(size=(1, 16)).astype("float32") * 0.5, name="w1")
b1 = tf.Variable(np.zeros(16, "float32"), name="b1")
w2 = tf.Variable(rng.normal(size=(16, 1)).astype("float32") * 0.5, name="w2")
params = [w1, b1, w2]
opt = tf.keras.optimizers.Adam(1e-3)


def forward(x, p):
    return tf.matmul(tf.nn.tanh(tf.matmul(x, p[0]) + p[1]), p[2])


xs = tf.constant(rng.uniform(-3, 3, size=(10, 1)).astype("float32"))
ys = tf.sin(xs + 0.5)
xq = tf.constant(rng.uniform(-3, 3, size=(10, 1)).astype("float32"))
yq = tf.sin(xq + 0.5)
with tf.GradientTape() as outer:
    fast = list(params)
    for _ in range(2):
        with tf.GradientTape() as inner:
            inner.watch(fast)
            support_loss = tf.reduce_mean(tf.square(forward(xs, fast) - ys))
        g = inner.gradient(support_loss, fast)
        fast = [w - 0.01 * gi for w, gi in zip(fast, g)]
    query_loss = tf.reduce_mean(tf.square(forward(xq, fast) - yq))
grads = outer.gradient(query_loss, params)
opt.apply_gradients(zip(grads, params))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
