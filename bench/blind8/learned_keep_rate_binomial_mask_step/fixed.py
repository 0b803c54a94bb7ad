# summary: the mask is a relaxed Bernoulli sample (concrete dropout: a sigmoid of the keep logit plus logistic noise at temperature 0.1), which is differentiable in the keep logit, so every variable gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(100)
x = rng.normal(size=(32, 6)).astype("float32")
y = (x @ rng.normal(size=(6, 1))).astype("float32")

hidden = keras.layers.Dense(16, activation="relu", name="drop_hidden")
head = keras.layers.Dense(1, name="drop_head")
hidden.build((None, 6))
head.build((None, 16))
keep_logit = tf.Variable(1.5, name="keep_logit")
variables = hidden.trainable_variables + head.trainable_variables + [keep_logit]
seed = keras.random.SeedGenerator(100)


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        h = hidden(features)
        u = keras.random.uniform(tf.shape(h), minval=1e-6, maxval=1.0 - 1e-6, seed=seed)
        mask = tf.sigmoid((keep_logit + tf.math.log(u) - tf.math.log(1.0 - u)) / 0.1)
        loss = tf.reduce_mean(tf.square(head(h * mask) - target))
    return tape.gradient(loss, variables)


grads = train_step(x, y)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
