# summary: the temperature is kept positive with softplus instead of a hard clip
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(29)
logits = tf.constant(rng.normal(size=(32, 5)).astype("float32"))
labels = tf.constant(rng.integers(0, 5, size=32))
temperature = tf.Variable(5.0, name="temperature")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def calibrate():
    with tf.GradientTape() as tape:
        t = tf.nn.softplus(temperature) + 0.1
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits / t))
    return tape.gradient(loss, temperature)


g = calibrate()
assert float(tf.abs(g)) > 0
