# source: https://www.tensorflow.org/api_docs/python/tf/searchsorted
# summary: numeric inputs bucketized with tf.searchsorted against fixed boundaries (integer ids from the data, not from the weights) and looked up in a trainable Embedding, next to a Dense on the raw value, in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
boundaries = tf.constant([-1.0, -0.3, 0.0, 0.3, 1.0])
emb = keras.layers.Embedding(6, 4, name="bucket_emb")
raw = keras.layers.Dense(4, name="raw")
head = keras.layers.Dense(1, name="head")
x = tf.constant(np.random.default_rng(33).normal(size=(32, 1)), tf.float32)
y = tf.constant(np.random.default_rng(34).normal(size=(32, 1)), tf.float32)


@tf.function
def step():
    with tf.GradientTape() as tape:
        ids = tf.searchsorted(boundaries, x[:, 0])
        h = tf.concat([emb(ids), raw(x)], axis=-1)
        loss = tf.reduce_mean(tf.square(head(h) - y))
    variables = emb.trainable_variables + raw.trainable_variables + head.trainable_variables
    return tape.gradient(loss, variables)


grads = step()
assert all(g is not None for g in grads)
assert all(float(tf.reduce_max(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
