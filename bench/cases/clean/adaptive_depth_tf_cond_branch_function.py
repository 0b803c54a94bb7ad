# summary: adaptive computation in a @tf.function step: tf.cond on the batch's mean confidence chooses a shallow or deep path; the untaken branch's weights get zeros in graph mode, which the optimizer applies as no change
# source: https://www.tensorflow.org/api_docs/python/tf/cond
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(63)
rng = np.random.default_rng(63)
x = rng.normal(size=(8, 6)).astype("float32")
y = rng.integers(0, 3, size=(8,)).astype("int32")
trunk, exit1 = layers.Dense(8, activation="relu", name="trunk"), layers.Dense(3, name="exit1")
deep, exit2 = layers.Dense(8, activation="relu", name="deep"), layers.Dense(3, name="exit2")
for layer, d in ((trunk, 6), (exit1, 8), (deep, 8), (exit2, 8)):
    layer.build((None, d))
weights = trunk.trainable_weights + exit1.trainable_weights + deep.trainable_weights + exit2.trainable_weights
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        h = trunk(xb)
        logits = exit1(h)
        confident = tf.reduce_mean(tf.reduce_max(tf.nn.softmax(logits), axis=-1)) > 0.9
        final = tf.cond(confident, lambda: logits, lambda: logits + exit2(deep(h)))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, final))
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
