# summary: a hand-written causal self-attention multiplies its attention weights by a lower-triangular mask (tf.linalg.band_part) so no step sees the future; the upper triangle gets exact zeros, and every weight trains in the tf.function step
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
rng = np.random.default_rng(19)
x = rng.normal(size=(16, 5, 4)).astype("float32")
y = rng.normal(size=(16, 5, 4)).astype("float32")

wq = tf.Variable(rng.normal(size=(4, 4)).astype("float32") * 0.5, name="causal_wq")
wk = tf.Variable(rng.normal(size=(4, 4)).astype("float32") * 0.5, name="causal_wk")
wv = tf.Variable(rng.normal(size=(4, 4)).astype("float32") * 0.5, name="causal_wv")
weights = [wq, wk, wv]
optimizer = tf.keras.optimizers.SGD(0.05)
causal = tf.linalg.band_part(tf.ones((5, 5)), -1, 0)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        scores = tf.matmul(xb @ wq, xb @ wk, transpose_b=True) / 2.0
        attention = tf.nn.softmax(scores, axis=-1) * causal
        attention = attention / tf.reduce_sum(attention, axis=-1, keepdims=True)
        loss = tf.reduce_mean(tf.square(attention @ (xb @ wv) - yb))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


before = [w.numpy().copy() for w in weights]
for _ in range(3):
    grads = train_step(x, y)
assert all(np.any(g.numpy() != 0) for g in grads)
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
