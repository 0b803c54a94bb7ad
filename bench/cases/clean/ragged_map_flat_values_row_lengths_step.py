# source: https://www.tensorflow.org/guide/ragged_tensor
# summary: variable-length sequences of token ids as a tf.RaggedTensor: the Embedding applied with tf.ragged.map_flat_values, a per-token Dense score, per-sequence mean with reduce_mean over the ragged axis, row lengths from the data
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
ids = tf.ragged.constant([[3, 5, 7], [2], [9, 1, 4, 4, 6], [8, 8]])
y = tf.constant([[1.0], [0.0], [1.0], [0.0]])
emb = keras.layers.Embedding(12, 4, name="emb")
score = keras.layers.Dense(4, activation="tanh", name="score")
head = keras.layers.Dense(1, name="head")
emb(tf.constant([0]))
score(tf.zeros((1, 4)))
head(tf.zeros((1, 4)))
with tf.GradientTape() as tape:
    tokens = tf.ragged.map_flat_values(emb, ids)
    tokens = tf.ragged.map_flat_values(score, tokens)
    pooled = tf.reduce_mean(tokens, axis=1)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(y, head(pooled)))
variables = emb.trainable_variables + score.trainable_variables + head.trainable_variables
grads = tape.gradient(loss, variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
