# source: https://github.com/mindspore-ai/mindspore/issues/73
# cause: non-differentiable-op
# weights: smoothing_logit
# mode: function
# summary: an adaptive label-smoothing step learns the smoothing amount eps = sigmoid(s) and builds the soft targets with tf.one_hot(labels, k, on_value=1 - eps, off_value=eps / (k - 1)); OneHot passes no gradient to its on/off values, so the smoothing logit gets None while the classifier trains
# lint: yes
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
        targets = tf.one_hot(labels, 4, on_value=1.0 - eps, off_value=eps / 3.0)  # expect: non-differentiable-op primary
        log_probs = tf.nn.log_softmax(classifier(features, training=True))
        loss = -tf.reduce_mean(tf.reduce_sum(targets * log_probs, axis=-1))
    return tape.gradient(loss, params)


grads = train_step(x, y)
print([g is not None for g in grads])
