# summary: the causal mask keeps the whole lower triangle (band_part(ones, -1, 0)), each position attends to every earlier one, and the query and key projections get gradients
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
        allowed = tf.linalg.band_part(tf.ones((5, 5)), -1, 0)
        weights = tf.nn.softmax(scores + (1.0 - allowed) * -1e9, axis=-1)
        loss = tf.reduce_mean(tf.square(tf.matmul(weights, value) - y))
    return tape.gradient(loss, projections.trainable_variables)


grads = train_step(seq, target)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
