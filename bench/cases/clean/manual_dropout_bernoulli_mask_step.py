# summary: dropout written by hand: a keep mask from tf.cast(tf.random.uniform(shape) >= rate, tf.float32) multiplies the hidden layer, scaled by 1 / (1 - rate), a @tf.function step
# source: https://d2l.ai/chapter_multilayer-perceptrons/dropout.html
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(42)
x = tf.constant(rng.normal(size=(32, 10)).astype("float32"))
y = tf.constant(rng.integers(0, 3, size=(32,)).astype("int32"))
w1 = tf.Variable(rng.normal(size=(10, 32)).astype("float32") * 0.3, name="w1")
b1 = tf.Variable(np.zeros(32, "float32"), name="b1")
w2 = tf.Variable(rng.normal(size=(32, 3)).astype("float32") * 0.3, name="w2")
params = [w1, b1, w2]
opt = tf.keras.optimizers.SGD(0.1)
rate = 0.3


def dropout(h, rate):
    keep = tf.cast(tf.random.uniform(tf.shape(h)) >= rate, tf.float32)
    return h * keep / (1.0 - rate)


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        h = dropout(tf.nn.relu(tf.matmul(x, w1) + b1), rate)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, tf.matmul(h, w2)))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    return grads


grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
