# summary: the soft targets are built from a plain one-hot mixed with the learned amount, (1 - eps) * one_hot + eps / (k - 1) * (1 - one_hot), so eps is an ordinary operand and the smoothing logit gets a gradient with the classifier
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(73)
x = rng.normal(size=(48, 6)).astype("float32")
y = rng.integers(0, 4, size=48)

classifier = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, name="smooth_logits")], name="smooth_net")
smoothing_logit = tf.Variable(-2.0, name="smoothing_logit")
params = classifier.trainable_variables + [smoothing_logit]


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        eps = tf.sigmoid(smoothing_logit)
        hot = tf.one_hot(labels, 4)
        targets = (1.0 - eps) * hot + eps / 3.0 * (1.0 - hot)
        log_probs = tf.nn.log_softmax(classifier(features, training=True))
        loss = -tf.reduce_mean(tf.reduce_sum(targets * log_probs, axis=-1))
    return tape.gradient(loss, params)


grads = train_step(x, y)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
