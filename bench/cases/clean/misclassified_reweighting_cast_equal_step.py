# summary: hard-example reweighting: each example's cross-entropy is multiplied by 1 + tf.cast(tf.not_equal(tf.argmax(logits), y)) (a constant factor per example; the gradient flows through the cross-entropy), a @tf.function step
# source: https://arxiv.org/abs/1604.03540
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(68)
rng = np.random.default_rng(68)
x = rng.normal(size=(16, 6)).astype("float32")
y = rng.integers(0, 3, size=(16,)).astype("int64")
model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu", name="h"), layers.Dense(3, name="logits")])
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        logits = model(xb, training=True)
        ce = tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits)
        wrong = tf.cast(tf.not_equal(tf.argmax(logits, axis=-1), yb), tf.float32)
        loss = tf.reduce_mean(ce * (1.0 + wrong))
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    return grads


grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
