# source: https://github.com/tensorflow/skflow/issues/100
# cause: non-differentiable-op
# rule: -
# weights: keep_logit
# mode: function
# summary: a regressor learns its own dropout keep rate: the traced step draws the hidden-unit mask with keras.random.binomial(probabilities=sigmoid(keep_logit)); a binomial sample has no gradient with respect to its probability, so the dense layers train and keep_logit gets None
# lint: no (keras.random.binomial is a valid mask sampler; wanting to learn its probability is the bug)
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
        keep = tf.sigmoid(keep_logit) * tf.ones_like(h)
        mask = keras.random.binomial(tf.shape(h), counts=1.0, probabilities=keep, seed=seed)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(head(h * mask) - target))
    return tape.gradient(loss, variables)


grads = train_step(x, y)
print({v.name: g is None for v, g in zip(variables, grads)})
