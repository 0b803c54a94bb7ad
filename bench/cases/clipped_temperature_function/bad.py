# source: https://github.com/tensorflow/tensorflow/issues/44333
# cause: zero-at-runtime
# weights: temperature
# mode: function
# summary: a learnable temperature starts outside its clip range, so its gradient is exactly 0
# lint: no (zero at run time: the value, not the code, is outside the clip)
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
        t = tf.clip_by_value(temperature, 0.1, 1.0)  # expect: zero-at-runtime primary
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits / t))
    return tape.gradient(loss, temperature)


print(float(calibrate()))
