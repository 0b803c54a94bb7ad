# summary: a 1-D conv layer scales its sequences by a learned gain and pads them with keras.ops.pad(..., constant_values=0.5), a fixed border number; the gain reaches the loss through the padded tensor (PadV2's first input), so every weight gets a gradient; eager
# source: https://keras.io/api/ops/numpy/#pad-function
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)
x = rng.normal(size=(16, 10, 2)).astype("float32")
y = rng.normal(size=(16, 10, 3)).astype("float32")


class BorderPaddedConv(keras.layers.Layer):
    def __init__(self):
        super().__init__(name="border_padded_conv")
        self.conv = keras.layers.Conv1D(3, 3, padding="valid", name="border_conv")

    def build(self, input_shape):
        self.gain = self.add_weight(shape=(), initializer="ones", name="gain")
        self.conv.build((input_shape[0], input_shape[1] + 2, input_shape[2]))

    def call(self, inputs):
        padded = keras.ops.pad(inputs * self.gain, [[0, 0], [1, 1], [0, 0]], constant_values=0.5)
        return self.conv(padded)


layer = BorderPaddedConv()
layer.build((None, 10, 2))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x) - y))
grads = tape.gradient(loss, layer.trainable_variables)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
