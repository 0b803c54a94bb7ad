# summary: the curve fitter's parameters are tf.Variable objects, which tf.Module collects, so module.trainable_variables holds both and every step updates them
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20095)
t = rng.uniform(-1.0, 1.0, size=(64, 1)).astype("float32")
y = (0.5 * t ** 3 - t + 0.2).astype("float32")


class CubicFit(tf.Module):
    def __init__(self):
        super().__init__(name="cubic_fit")
        self.coeffs = tf.Variable(np.zeros((3, 1), "float32"), name="poly_coeffs")
        self.bias = tf.Variable(0.0, name="poly_bias")

    def __call__(self, inputs):
        powers = tf.concat([inputs, inputs ** 2, inputs ** 3], axis=1)
        return tf.matmul(powers, self.coeffs) + self.bias


fitter = CubicFit()
optimizer = keras.optimizers.SGD(0.1)


@tf.function
def fit_step(inputs, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(fitter(inputs) - targets))
    grads = tape.gradient(loss, fitter.trainable_variables)
    optimizer.apply_gradients(zip(grads, fitter.trainable_variables))
    return grads


grads = fit_step(t, y)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
