# summary: the closed-form readout uses lstsq's default fast path with a small l2_regularizer (which also handles the rank-deficient batches), so the solve is differentiable and every basis weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(127566)
x_fit = rng.uniform(-2, 2, size=(40, 1)).astype("float32")
y_fit = np.sin(2 * x_fit).astype("float32")
x_val = rng.uniform(-2, 2, size=(20, 1)).astype("float32")
y_val = np.sin(2 * x_val).astype("float32")

basis = keras.Sequential([keras.Input((1,)),
                          keras.layers.Dense(16, activation="tanh", name="basis_hidden"),
                          keras.layers.Dense(6, activation="tanh", name="basis_out")], name="basis_net")

with tf.GradientTape() as tape:
    coeffs = tf.linalg.lstsq(basis(x_fit), y_fit, l2_regularizer=1e-3)
    loss = tf.reduce_mean(tf.square(tf.matmul(basis(x_val), coeffs) - y_val))
grads = tape.gradient(loss, basis.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
