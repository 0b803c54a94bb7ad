# summary: the border is built from the learned value with keras.ops.full_like-style broadcasting and concatenated around the sequence, so the pad value is an ordinary operand and gets a gradient with the convolution
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
        border = keras.ops.ones_like(inputs[:, :1, :]) * self.pad_value
        padded = keras.ops.concatenate([border, inputs, border], axis=1)
        return self.conv(padded)


layer = EdgePaddedConv()
layer.build((None, 10, 2))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x) - y))
grads = tape.gradient(loss, layer.trainable_variables)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
