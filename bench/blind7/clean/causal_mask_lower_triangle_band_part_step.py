# source: https://github.com/karpathy/nanoGPT/issues/170
# summary: a decoder's hand-written causal mask keeps the lower triangle with tf.linalg.band_part(ones, -1, 0) and adds -1e9 above it; the masked scores get exactly zero weight by design, the first position attends only to itself, and the query, key and value projections all get gradients from the later positions
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(170)
seq = rng.normal(size=(8, 5, 6)).astype("float32")
target = rng.normal(size=(8, 5, 6)).astype("float32")

inputs = keras.Input((5, 6))
projections = keras.Model(inputs, [keras.layers.Dense(8, name="q_proj")(inputs),
                                   keras.layers.Dense(8, name="k_proj")(inputs),
                                   keras.layers.Dense(6, name="v_proj")(inputs)], name="decoder_attention")


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        q, k, v = projections(x, training=True)
        scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(8.0)
        allowed = tf.linalg.band_part(tf.ones((5, 5)), -1, 0)
        weights = tf.nn.softmax(scores + (1.0 - allowed) * -1e9, axis=-1)
        loss = tf.reduce_mean(tf.square(tf.matmul(weights, v) - y))
    return tape.gradient(loss, projections.trainable_variables)


grads = train_step(seq, target)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
