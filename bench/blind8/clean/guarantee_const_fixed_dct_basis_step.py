# summary: a traced step projects audio frames on a fixed DCT basis built from NumPy and marked with tf.guarantee_const (it never depends on a weight); the trained layers sit after the projection, so every weight gets a gradient
# source: https://www.tensorflow.org/api_docs/python/tf/guarantee_const
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

n = 8
basis = np.cos(np.pi / n * (np.arange(n)[:, None] + 0.5) * np.arange(n)[None, :]).astype("float32")
rng = np.random.default_rng(12)
frames = rng.normal(size=(16, n)).astype("float32")
targets = rng.normal(size=(16, 1)).astype("float32")

model = keras.Sequential([keras.Input((n,)),
                          keras.layers.Dense(8, activation="tanh", name="dct_hidden"),
                          keras.layers.Dense(1, name="dct_out")], name="dct_model")


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        coefficients = tf.matmul(x, tf.guarantee_const(tf.constant(basis)))
        loss = tf.reduce_mean(tf.square(model(coefficients, training=True) - y))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(frames, targets)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
