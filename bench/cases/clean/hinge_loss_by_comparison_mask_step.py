# source: https://www.tensorflow.org/api_docs/python/tf/keras/losses/Hinge
# summary: a hinge loss written with a comparison mask: the margin violation is selected by tf.cast(margin < 1, float32) times (1 - margin), so the mask is piecewise constant and the gradient flows through (1 - margin), in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
svm = keras.Sequential([keras.Input((6,)), keras.layers.Dense(1)], name="svm")
opt = keras.optimizers.SGD(0.1)
x = tf.constant(np.random.default_rng(64).normal(size=(32, 6)), tf.float32)
y = tf.constant(np.random.default_rng(65).choice([-1.0, 1.0], (32, 1)), tf.float32)


@tf.function
def step():
    with tf.GradientTape() as tape:
        margin = y * svm(x)
        violated = tf.cast(margin < 1.0, tf.float32)
        loss = tf.reduce_mean(violated * (1.0 - margin)) + 1e-3 * tf.reduce_sum(svm.layers[0].kernel ** 2)
    grads = tape.gradient(loss, svm.trainable_variables)
    opt.apply_gradients(zip(grads, svm.trainable_variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
