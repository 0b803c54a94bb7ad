# source: https://github.com/tensorflow/ranking
# summary: a ListMLE ranking loss: the list is ordered by tf.argsort of the relevance labels (integer indices from the data), the model's scores gathered in that order with tf.gather(batch_dims=1), then a reversed cumulative logsumexp
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
scorer = keras.Sequential([keras.Input((5, 4)), keras.layers.Dense(8, activation="relu"),
                           keras.layers.Dense(1)], name="scorer")
docs = tf.constant(np.random.default_rng(66).normal(size=(6, 5, 4)), tf.float32)
relevance = tf.constant(np.random.default_rng(67).random((6, 5)), tf.float32)
with tf.GradientTape() as tape:
    scores = tf.squeeze(scorer(docs), -1)
    order = tf.argsort(relevance, axis=1, direction="DESCENDING")
    ranked = tf.gather(scores, order, batch_dims=1)
    tail = tf.math.cumulative_logsumexp(ranked, axis=1, reverse=True)
    loss = tf.reduce_mean(tf.reduce_sum(tail - ranked, axis=1))
grads = tape.gradient(loss, scorer.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
