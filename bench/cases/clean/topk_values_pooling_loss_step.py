# source: https://www.tensorflow.org/api_docs/python/tf/math/top_k
# summary: top-k pooling over time for a multiple-instance classifier: tf.math.top_k(...).values (differentiable) averaged into the bag score; the indices are only kept for visualising which instances were picked
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
scorer = keras.Sequential([keras.Input((10, 6)), keras.layers.Dense(8, activation="relu"),
                           keras.layers.Dense(1)], name="scorer")
bags = tf.constant(np.random.default_rng(22).normal(size=(8, 10, 6)), tf.float32)
labels = tf.constant(np.random.default_rng(23).integers(0, 2, (8, 1)), tf.float32)
with tf.GradientTape() as tape:
    scores = tf.squeeze(scorer(bags), -1)
    top = tf.math.top_k(scores, k=3)
    bag_logit = tf.reduce_mean(top.values, axis=-1, keepdims=True)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels, bag_logit))
picked = top.indices.numpy()  # for a plot
grads = tape.gradient(loss, scorer.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
