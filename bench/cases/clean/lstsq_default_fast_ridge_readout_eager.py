# summary: learned basis functions with a closed-form ridge readout, tf.linalg.lstsq(phi, y, l2_regularizer=1e-3) on its default fast path (a Cholesky solve TensorFlow differentiates), scored on held-out points; every basis weight gets a gradient; eager
# source: https://www.tensorflow.org/api_docs/python/tf/linalg/lstsq
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(13)
rng = np.random.default_rng(13)
x_fit = rng.uniform(-2, 2, size=(40, 1)).astype("float32")
y_fit = np.cos(3 * x_fit).astype("float32")
x_val = rng.uniform(-2, 2, size=(20, 1)).astype("float32")
y_val = np.cos(3 * x_val).astype("float32")

basis = keras.Sequential([keras.Input((1,)),
                          keras.layers.Dense(16, activation="tanh", name="ridge_hidden"),
                          keras.layers.Dense(6, activation="tanh", name="ridge_out")], name="ridge_basis")

with tf.GradientTape() as tape:
    coeffs = tf.linalg.lstsq(basis(x_fit), y_fit, l2_regularizer=1e-3)
    loss = tf.reduce_mean(tf.square(tf.matmul(basis(x_val), coeffs) - y_val))
grads = tape.gradient(loss, basis.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
