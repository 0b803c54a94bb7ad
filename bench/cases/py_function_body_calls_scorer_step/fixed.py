# summary: the scorer runs as TensorFlow ops in the step (one batched call), so the tape records its weights
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


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        scores = scorer(embed(x))
        loss = tf.reduce_mean(tf.square(scores - y))
    return tape.gradient(loss, sources)


grads = step(items, wanted)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok")
