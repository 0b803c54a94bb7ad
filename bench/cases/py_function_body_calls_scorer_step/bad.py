# source: https://github.com/tensorflow/tensorflow/issues/39969
# cause: not-connected|numpy-function
# weights: scorer/s_hidden/kernel, scorer/s_hidden/bias, scorer/s_out/kernel, scorer/s_out/bias
# mode: function
# summary: a traced step scores each item with a small Keras model called inside a tf.py_function body (a Python loop over ragged items); the py_function's gradient reaches only its inp tensors, so the scorer's weights get None
# lint: no (the body is a function object handed to tf.py_function; only the run shows it reads weights)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(39969)
items = rng.normal(size=(12, 5)).astype("float32")
wanted = rng.normal(size=(12, 1)).astype("float32")

embed = tf.keras.layers.Dense(5, activation="tanh", name="embed")
embed.build((None, 5))
scorer = tf.keras.Sequential([tf.keras.Input((5,)),
                              tf.keras.layers.Dense(6, activation="relu", name="s_hidden"),
                              tf.keras.layers.Dense(1, name="s_out")], name="scorer")
sources = embed.trainable_variables + scorer.trainable_variables


def score_each(batch):
    return tf.concat([scorer(batch[i:i + 1]) for i in range(batch.shape[0])], axis=0)


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        scores = tf.py_function(score_each, [embed(x)], tf.float32)  # expect: not-connected|numpy-function primary
        scores.set_shape([None, 1])
        loss = tf.reduce_mean(tf.square(scores - y))
    return tape.gradient(loss, sources)


grads = step(items, wanted)
print("scorer grads None:", [g is None for g in grads[2:]])
