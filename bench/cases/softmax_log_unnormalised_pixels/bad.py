# source: https://github.com/tensorflow/tensorflow/issues/52175
# cause: zero-at-runtime
# rule: TM505 (info by design: a model rightly certain of every example gets the same zeros; the scorer counts only warning/error findings as primary, so primary stays n, as for TM110)
# weights: food/z/kernel, food/z/bias
# mode: eager
# summary: softmax regression on raw 0-255 pixels with a cross-entropy written on probabilities (log(p + 1e-10)): logits in the hundreds make every softmax row one-hot, and every gradient is exactly zero (a batch of 6: from 8 rows on, TensorFlow's vectorised softmax kernel on AVX2 CPUs returns 0.99999994 for a saturated row, and the gradient is tiny instead of zero)
# lint: no (zero-at-runtime: only the values show that the softmax saturates)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52)
images = rng.integers(0, 256, size=(6, 192)).astype("float32")  # not scaled to [0, 1]
labels = tf.one_hot(rng.integers(0, 3, size=6), 3)
model = tf.keras.Sequential([tf.keras.layers.Input((192,)), tf.keras.layers.Dense(3, name="z")],
                            name="food")
optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)


def cross_entropy(y_true, y_pred):
    return -tf.reduce_sum(y_true * tf.math.log(y_pred + 1e-10))  # accept: zero-at-runtime


with tf.GradientTape() as tape:
    probs = tf.nn.softmax(model(images))  # expect: zero-at-runtime primary
    loss = cross_entropy(labels, probs)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(float(loss), [float(tf.reduce_max(tf.abs(g))) for g in grads])
