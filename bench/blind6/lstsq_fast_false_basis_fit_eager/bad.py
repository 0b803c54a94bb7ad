# source: https://github.com/tensorflow/tensorflow/pull/127566
# cause: non-differentiable-op
# weights: basis_net/basis_hidden/kernel, basis_net/basis_hidden/bias, basis_net/basis_out/kernel, basis_net/basis_out/bias
# mode: eager
# summary: a network learns basis functions; each step solves for the readout coefficients in closed form with tf.linalg.lstsq(phi, y, fast=False) (chosen because fast=True returned NaN on a rank-deficient batch) and scores them on held-out points; lstsq's gradient is defined only for fast=True, so tape.gradient raises ValueError
# lint: yes
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

try:
    with tf.GradientTape() as tape:
        coeffs = tf.linalg.lstsq(basis(x_fit), y_fit, fast=False)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(tf.matmul(basis(x_val), coeffs) - y_val))
    grads = tape.gradient(loss, basis.trainable_variables)
except ValueError as err:
    print("ValueError:", err)
