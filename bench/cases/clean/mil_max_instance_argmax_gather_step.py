# summary: multiple-instance learning with max pooling written as tf.argmax of instance scores and tf.gather of the top instance's logit (the gather carries the gradient to the chosen instance), a @tf.function step
# source: https://keras.io/examples/vision/attention_mil_classification/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(57)
rng = np.random.default_rng(57)
bags = rng.normal(size=(8, 5, 6)).astype("float32")
y = rng.integers(0, 2, size=(8,)).astype("float32")
scorer = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu", name="h"),
                           layers.Dense(1, name="score")], name="scorer")
opt = keras.optimizers.Adam(1e-2)


@tf.function
def step(b, yb):
    with tf.GradientTape() as tape:
        scores = tf.squeeze(scorer(tf.reshape(b, (-1, 6))), -1)
        scores = tf.reshape(scores, (tf.shape(b)[0], tf.shape(b)[1]))
        top = tf.argmax(scores, axis=1)
        bag_logit = tf.gather(scores, top, batch_dims=1)
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(yb, bag_logit))
    grads = tape.gradient(loss, scorer.trainable_weights)
    opt.apply_gradients(zip(grads, scorer.trainable_weights))
    return grads


grads = step(tf.constant(bags), tf.constant(y))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
