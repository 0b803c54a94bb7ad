# source: https://www.tensorflow.org/api_docs/python/tf/range
# summary: a position encoding multiplies integer positions from tf.range (cast to float) by a learned frequency vector; Range itself has no gradient, but only constants go into it and the learned frequencies multiply its output, so they train with the projection
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13)
x = rng.normal(size=(8, 12, 4)).astype("float32")
y = rng.normal(size=(8, 12, 4)).astype("float32")

frequencies = tf.Variable([1.0, 0.5, 0.25, 0.125], name="learned_frequencies")
proj = keras.layers.Dense(4, name="freq_proj")
proj.build((None, 12, 4))
params = [frequencies] + proj.trainable_variables


@tf.function
def train_step(inputs, wanted):
    with tf.GradientTape() as tape:
        positions = tf.cast(tf.range(tf.shape(inputs)[1]), tf.float32)
        encoding = tf.sin(positions[:, None] * frequencies[None, :])
        loss = tf.reduce_mean(tf.square(proj(inputs + encoding) - wanted))
    return tape.gradient(loss, params)


grads = train_step(x, y)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
