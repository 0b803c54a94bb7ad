# source: https://github.com/keras-team/keras/issues/20095
# cause: sources-mismatch
# weights: poly_coeffs, poly_bias
# mode: function
# summary: a tf.Module curve fitter keeps its parameters as keras.Variable objects and trains module.trainable_variables; tf.Module collects only tf.Variable attributes, so the list is empty, the step updates nothing and the fit never moves
# lint: yes
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
        self.coeffs = keras.Variable(np.zeros((3, 1), "float32"), name="poly_coeffs")  # expect: sources-mismatch primary
        self.bias = keras.Variable(0.0, name="poly_bias")  # accept: sources-mismatch

    def __call__(self, inputs):
        powers = tf.concat([inputs, inputs ** 2, inputs ** 3], axis=1)
        return tf.matmul(powers, self.coeffs) + self.bias


fitter = CubicFit()
optimizer = keras.optimizers.SGD(0.1)


@tf.function
def fit_step(inputs, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(fitter(inputs) - targets))
    grads = tape.gradient(loss, fitter.trainable_variables)  # accept: sources-mismatch
    optimizer.apply_gradients(zip(grads, fitter.trainable_variables))
    return loss


first = float(fit_step(t, y))
for _ in range(5):
    last = float(fit_step(t, y))
print("trainable variables:", len(fitter.trainable_variables), "loss moved:", first != last)
