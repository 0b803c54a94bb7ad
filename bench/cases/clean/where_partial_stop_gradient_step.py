# source: https://www.tensorflow.org/api_docs/python/tf/stop_gradient
# summary: a loss where a tf.where keeps the gradient for some positions and passes tf.stop_gradient of the same tensor for the others (only the unmasked positions train the model), in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="tanh"), keras.layers.Dense(4)], name="net")
opt = keras.optimizers.SGD(0.1)
x = tf.constant(np.random.default_rng(74).normal(size=(16, 6)), tf.float32)
y = tf.constant(np.random.default_rng(75).normal(size=(16, 4)), tf.float32)
trusted = tf.constant(np.random.default_rng(76).random((16, 4)) > 0.3)


@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x)
        pred = tf.where(trusted, pred, tf.stop_gradient(pred))
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
