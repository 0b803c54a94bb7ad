# source: https://github.com/lsdefine/attention-is-all-you-need-keras/issues/6
# cause: zero-at-runtime
# weights: query_proj/kernel, query_proj/bias, key_proj/kernel, key_proj/bias
# mode: function
# summary: a decoder's hand-written causal mask is built with tf.linalg.band_part(ones, 0, 0), the diagonal only, instead of band_part(ones, -1, 0); each position attends to itself alone, the softmax over one unmasked key is exactly 1, and the query and key projections get exact zero gradients
# lint: no (band_part(ones, 0, 0) is a valid mask; the bounds are the mistake)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(6)
seq = rng.normal(size=(8, 5, 6)).astype("float32")
target = rng.normal(size=(8, 5, 6)).astype("float32")

inputs = keras.Input((5, 6))
q = keras.layers.Dense(8, name="query_proj")(inputs)
k = keras.layers.Dense(8, name="key_proj")(inputs)
v = keras.layers.Dense(6, name="value_proj")(inputs)
projections = keras.Model(inputs, [q, k, v], name="causal_attention")


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        query, key, value = projections(x, training=True)
        scores = tf.matmul(query, key, transpose_b=True) / tf.sqrt(8.0)
        allowed = tf.linalg.band_part(tf.ones((5, 5)), 0, 0)  # expect: zero-at-runtime primary
        weights = tf.nn.softmax(scores + (1.0 - allowed) * -1e9, axis=-1)
        loss = tf.reduce_mean(tf.square(tf.matmul(weights, value) - y))
    return tape.gradient(loss, projections.trainable_variables)


grads = train_step(seq, target)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(projections.trainable_variables, grads)})
