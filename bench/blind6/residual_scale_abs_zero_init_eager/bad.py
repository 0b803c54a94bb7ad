# source: https://github.com/jolideco/jolideco/issues/17
# cause: zero-at-runtime
# weights: scaled_residual/branch/kernel, scaled_residual/branch/bias, scaled_residual/res_scale
# mode: eager
# summary: a residual block adds tf.abs(scale) * branch(x) with the learned scale initialised to 0 (ReZero-style) and wrapped in abs to keep it non-negative; the derivative of abs at 0 is 0, so the scale never leaves 0, and the branch, multiplied by abs(0), gets zero gradients too
# lint: no (abs of a learned scale is valid; only the value 0 makes its derivative vanish)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(17)
x = rng.normal(size=(32, 6)).astype("float32")
y = (np.sin(x) * 0.5).astype("float32")


class ScaledResidual(keras.layers.Layer):
    def __init__(self):
        super().__init__(name="scaled_residual")
        self.branch = keras.layers.Dense(6, activation="tanh", name="branch")

    def build(self, input_shape):
        self.branch.build(input_shape)
        self.scale = self.add_weight(shape=(), initializer="zeros", name="res_scale")

    def call(self, inputs):
        return inputs + tf.abs(self.scale) * self.branch(inputs)  # expect: zero-at-runtime primary


block = ScaledResidual()
block.build((None, 6))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(block(x) - y))
grads = tape.gradient(loss, block.trainable_variables)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(block.trainable_variables, grads)})
