# summary: a traced step drops hidden units with a mask drawn by keras.random.binomial at a fixed keep rate of 0.8 and rescales by 1/0.8; the rate is a constant, not a weight, and every dense weight gets a gradient through the kept units
# source: https://keras.io/api/random/random_ops/#binomial-function
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(15)
x = rng.normal(size=(32, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")

hidden = keras.layers.Dense(16, activation="relu", name="mask_hidden")
head = keras.layers.Dense(1, name="mask_head")
hidden.build((None, 6))
head.build((None, 16))
variables = hidden.trainable_variables + head.trainable_variables
seed = keras.random.SeedGenerator(15)


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        h = hidden(features)
        mask = keras.random.binomial(tf.shape(h), counts=1.0, probabilities=0.8, seed=seed)
        loss = tf.reduce_mean(tf.square(head(h * mask / 0.8) - target))
    return tape.gradient(loss, variables)


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
