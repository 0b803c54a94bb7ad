# summary: label smoothing written by hand in a @tf.function step: tf.one_hot(labels, k, on_value=0.9, off_value=0.1 / (k - 1)) with fixed numbers, the classifier trained on the soft targets; OneHot takes no weight, so nothing is cut
# source: https://www.tensorflow.org/api_docs/python/tf/one_hot
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
x = rng.normal(size=(48, 6)).astype("float32")
y = rng.integers(0, 4, size=48)

classifier = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, name="soft_logits")], name="soft_net")


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        targets = tf.one_hot(labels, 4, on_value=0.9, off_value=0.1 / 3.0)
        log_probs = tf.nn.log_softmax(classifier(features, training=True))
        loss = -tf.reduce_mean(tf.reduce_sum(targets * log_probs, axis=-1))
    return tape.gradient(loss, classifier.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
