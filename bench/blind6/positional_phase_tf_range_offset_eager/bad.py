# source: https://github.com/pytorch/pytorch/issues/813
# cause: non-differentiable-op
# weights: phase_encoding/phase_offset
# mode: eager
# summary: a sinusoidal position encoding learns a phase offset and builds the positions with tf.range(self.offset, self.offset + length) so they start at the learned value; the Range op has no gradient, so the offset gets None while the projection that reads the encoding trains
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(813)
x = rng.normal(size=(8, 12, 4)).astype("float32")
y = rng.normal(size=(8, 12, 4)).astype("float32")


class PhaseEncoding(keras.layers.Layer):
    def __init__(self):
        super().__init__(name="phase_encoding")
        self.proj = keras.layers.Dense(4, name="phase_proj")

    def build(self, input_shape):
        self.offset = self.add_weight(shape=(), initializer=keras.initializers.Constant(0.5), name="phase_offset")
        self.proj.build(input_shape)

    def call(self, inputs):
        length = tf.cast(tf.shape(inputs)[1], tf.float32)
        positions = tf.range(self.offset, self.offset + length, 1.0)  # expect: non-differentiable-op primary
        encoding = tf.sin(positions[:, None] / tf.constant([1.0, 3.0, 9.0, 27.0]))
        return self.proj(inputs + encoding)


layer = PhaseEncoding()
layer.build((None, 12, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x) - y))
grads = tape.gradient(loss, layer.trainable_variables)
print({v.path: g is not None for v, g in zip(layer.trainable_variables, grads)})
