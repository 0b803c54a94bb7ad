# summary: an eager loop slices the first 12 rows of a trained embedding matrix inside the tape and looks tokens up in the slice; the gradient is asked for the variable itself, so every weight gets a gradient
# source: https://www.tensorflow.org/api_docs/python/tf/IndexedSlices
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(24)
tokens = rng.integers(0, 12, size=(16, 5)).astype("int32")
tags = rng.integers(0, 3, size=(16,)).astype("int32")

table = tf.Variable(tf.random.normal((20, 8), stddev=0.1), name="slice_table")
head = keras.layers.Dense(3, name="slice_head")
head.build((None, 8))
variables = [table] + head.trainable_variables

with tf.GradientTape() as tape:
    used_rows = table[:12]
    pooled = tf.reduce_mean(tf.gather(used_rows, tokens), axis=1)
    loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(tags, head(pooled), from_logits=True))
grads = tape.gradient(loss, variables)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
