# source: https://github.com/keras-team/keras/pull/18815
# cause: non-differentiable-op
# weights: edge_padded_conv/pad_value
# mode: eager
# summary: a 1-D conv layer pads its sequences with a learned border value, keras.ops.pad(x, widths, constant_values=self.pad_value); the pad op passes no gradient to its constant value, so the learned border value gets None while the convolution trains
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(18815)
x = rng.normal(size=(16, 10, 2)).astype("float32")
y = rng.normal(size=(16, 10, 3)).astype("float32")


class EdgePaddedConv(keras.layers.Layer):
    def __init__(self):
        super().__init__(name="edge_padded_conv")
        self.conv = keras.layers.Conv1D(3, 3, padding="valid", name="edge_conv")

    def build(self, input_shape):
        self.pad_value = self.add_weight(shape=(), initializer="zeros", name="pad_value")
        self.conv.build((input_shape[0], input_shape[1] + 2, input_shape[2]))

    def call(self, inputs):
        padded = keras.ops.pad(inputs, [[0, 0], [1, 1], [0, 0]], constant_values=self.pad_value)  # expect: non-differentiable-op primary
        return self.conv(padded)


layer = EdgePaddedConv()
layer.build((None, 10, 2))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x) - y))
grads = tape.gradient(loss, layer.trainable_variables)
print({v.path: g is not None for v, g in zip(layer.trainable_variables, grads)})
