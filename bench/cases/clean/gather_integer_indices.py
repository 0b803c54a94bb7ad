# summary: an embedding table read with tf.gather at integer token ids
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(109)
tokens = tf.constant(rng.integers(0, 10, size=(8, 5)))
targets = tf.constant(rng.normal(size=(8, 1)).astype("float32"))
table = tf.Variable(tf.random.normal((10, 4), seed=3), name="embedding_table")
readout = tf.Variable(tf.random.normal((4, 1), seed=4), name="readout")

with tf.GradientTape() as tape:
    vectors = tf.gather(table, tokens)
    pooled = tf.reduce_mean(vectors, axis=1)
    loss = tf.reduce_mean(tf.square(pooled @ readout - targets))
grads = tape.gradient(loss, [table, readout])
dense_table = tf.convert_to_tensor(grads[0])
assert float(tf.reduce_max(tf.abs(dense_table))) > 0
assert float(tf.reduce_max(tf.abs(grads[1]))) > 0
